/* Instruction buffer for one BPF program: labels with fix-ups, map
 * references the loader patches, and the stack and scratch allocators.
 *
 * Register use, fixed for all of codegen:
 *   r6  the program context (ctx)
 *   r7  this CPU's scratch buffer (a map value): strings, tuples, keys,
 *       event records and variables live there, off the 512-byte stack
 *   r0  result of an integer expression
 *   r1-r5 clobbered by every helper call (emit_call says so, once)
 *   r8, r9 address scratch beyond the 16-bit instruction offset (emit_ldx) */
#pragma once
#include "../lang/diag.h"
#include "insn.h"
#include "../compile/script.h"

#define R_CTX 6
#define R_SCR 7

/* D: one place a run-time fault is detected: its jump lands on `label`,
 * code after the program that records what faulted (codegen_fault_d.c) */
typedef struct DFaultSite {
	int label;
	int kind;   /* DTRACEFLT_* */
	int addr;   /* where the faulting address is: DFAULT_ADDR_* or a scratch offset */
	int action; /* Gen.action there */
	int insn;   /* the instruction index that faulted */
} DFaultSite;

typedef struct Gen {
	Script *sc;
	const ProbeSpec *spec;
	const Probe *probe;
	VEC(struct bpf_insn) insns;
	VEC(int) lines;
	VEC(Reloc) relocs;
	VEC(int) labels; /* insn index; until placed -1, or -2 once a live jump targets it */
	VEC(int) fixups; /* insn index whose jump targets label insns[i].off */
	int line;
	Loc loc; /* the statement or expression being generated (-k reports it) */
	int stack_used, stack_max; /* bytes below r10 for integer temporaries */
	int scratch_top, scratch_max;
	int exit_label;
	int bare_exit; /* the final `return 0`, for the prologue (no scratch yet) */
	bool dead; /* after a goto: drop code until a live-referenced label */
	VEC(int) loop_break;
	VEC(int) loop_continue;
	Error *err;
	int group_table; /* kprobe groups: 1 + rodata offset of the names table, 0: none yet */
	int spec_off;     /* D: scratch slot of the clause's speculate() id */
	bool speculating; /* D: after speculate(), records go to its buffer */
	bool heading_at_speculate; /* D: the clause's heading waits for its speculate() */
	int dscratch_off, dscratch_size; /* D: the clause's scratch memory (dfunc_copy.c) */
	bool firing;      /* D: records gather in the firing buffer (codegen_firing_d.c) */
	bool firing_wake; /* one of them wakes the reader */
	int firing_size;
	VEC(int) firing_slots; /* offset, size pairs */
	int action; /* D: the clause's statement being generated (1..), 0 in the predicate */
	VEC(DFaultSite) faults; /* D: where a run-time fault leaves (codegen_fault_d.c) */
} Gen;

void emit(Gen *g, struct bpf_insn i);
void emit_ld_imm64(Gen *g, int reg, uint64_t v);
void emit_ld_map(Gen *g, int reg, RelocKind kind, int arg);
void emit_ld_map_value(Gen *g, int reg, RelocKind kind, int off);
void emit_call(Gen *g, int helper);

int label_new(Gen *g);
void label_place(Gen *g, int label);
void emit_jmp_imm(Gen *g, int op, int reg, int32_t imm, int label);
void emit_jmp_reg(Gen *g, int op, int dst, int src, int label);
void emit_goto(Gen *g, int label);
bool emit_finish(Gen *g); /* resolve labels; false if too far */

/* integer temporaries on the stack: returns the r10-relative offset */
int stack_push(Gen *g);
void stack_pop(Gen *g);

/* scratch space (r7-relative, 8-byte aligned) */
int scratch_alloc(Gen *g, int size);

/* Loads and stores at any scratch offset: BPF instructions hold a 16-bit
 * offset, so beyond 32 KiB the address is formed in r8 (loads) or r9
 * (stores) first.  Codegen addresses r7-relative memory only through
 * these. */
void emit_ldx(Gen *g, int size, int dst, int base, int off);
void emit_stx(Gen *g, int size, int base, int src, int off);
void emit_st(Gen *g, int size, int base, int off, int32_t imm);

/* memory moves within scratch or from another map value pointer */
void emit_memcpy(Gen *g, int dst_off, int src_reg, int src_off, int n);
void emit_memzero(Gen *g, int dst_off, int n);
void emit_store_bytes(Gen *g, int dst_off, const char *bytes, int n);
/* r1 = r7 + off (helper pointer argument) */
void emit_scratch_ptr(Gen *g, int reg, int off);
