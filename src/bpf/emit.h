/* Instruction buffer for one BPF program: labels with fix-ups, map
 * references the loader patches (bpf/program.h), and the moves to and from
 * the scratch buffer.  The compiler (compile/gen.h) and sonde trace build
 * their programs with it.
 *
 * Register use, fixed for its users:
 *   r6  the program context (ctx)
 *   r7  this CPU's scratch buffer (a map value): strings, tuples, keys,
 *       event records and variables live there, off the 512-byte stack
 *   r0  result of an integer expression
 *   r1-r5 clobbered by every helper call (bpf_emit_call says so, once)
 *   r8, r9 address scratch beyond the 16-bit instruction offset (bpf_emit_ldx) */
#pragma once
#include <stdbool.h>

#include "../util/util.h"
#include "insn.h"
#include "program.h"

#define R_CTX 6
#define R_SCR 7

typedef struct BpfCode {
	VEC(struct bpf_insn) insns;
	VEC(int) lines;  /* per instruction: the source line it was emitted for */
	VEC(Reloc) relocs;
	VEC(int) labels; /* insn index; until placed -1, or -2 once a live jump targets it */
	VEC(int) fixups; /* insn index whose jump targets label insns[i].off */
	int line;        /* the source line of what is being emitted (0: none) */
	bool dead;       /* after a goto: drop code until a live-referenced label */
	int zero_size;   /* bytes of the all-zero map (R_ZERO) bpf_emit_memzero reads */
} BpfCode;

void bpf_emit(BpfCode *c, struct bpf_insn i);
void bpf_emit_ld_imm64(BpfCode *c, int reg, uint64_t v);
void bpf_emit_ld_map(BpfCode *c, int reg, RelocKind kind, int arg);
void bpf_emit_ld_map_value(BpfCode *c, int reg, RelocKind kind, int off);
void bpf_emit_call(BpfCode *c, int helper);

int bpf_label_new(BpfCode *c);
void bpf_label_place(BpfCode *c, int label);
void bpf_emit_jmp_imm(BpfCode *c, int op, int reg, int32_t imm, int label);
void bpf_emit_jmp_reg(BpfCode *c, int op, int dst, int src, int label);
void bpf_emit_goto(BpfCode *c, int label);
/* reg = the address of the subprogram starting at label (a callback) */
void bpf_emit_ld_func(BpfCode *c, int reg, int label);
bool bpf_emit_finish(BpfCode *c); /* resolve labels; false if a jump is too far */
void bpf_code_free(BpfCode *c);

/* Loads and stores at any offset: BPF instructions hold a 16-bit offset,
 * so beyond 32 KiB the address is formed in r8 (loads) or r9 (stores)
 * first.  Codegen addresses r7-relative memory only through these. */
void bpf_emit_ldx(BpfCode *c, int size, int dst, int base, int off);
void bpf_emit_stx(BpfCode *c, int size, int base, int src, int off);
void bpf_emit_st(BpfCode *c, int size, int base, int off, int32_t imm);

/* memory moves within scratch or from another map value pointer */
void bpf_emit_memcpy(BpfCode *c, int dst_off, int src_reg, int src_off, int n);
void bpf_emit_memzero(BpfCode *c, int dst_off, int n);
void bpf_emit_store_bytes(BpfCode *c, int dst_off, const char *bytes, int n);
/* reg = r7 + off (helper pointer argument) */
void bpf_emit_scratch_ptr(BpfCode *c, int reg, int off);
/* r2 += floor(log2(r1)) for 1 <= r1 < 2^(2 * top), by halving shifts from
 * `top` down (top a power of two); r1 is consumed, r3 used */
void bpf_emit_log2_search(BpfCode *c, int top);
