/* The code generator's state while it builds one BPF program: the
 * instructions (bpf/emit.h's BpfCode, reached through the wrappers below,
 * which keep codegen's short names) and what codegen needs around them:
 * the script, the probe, the stack and scratch allocators, the errors. */
#pragma once
#include "../bpf/emit.h"
#include "../lang/diag.h"
#include "script.h"

/* D: one place a run-time fault is detected: its jump lands on `label`,
 * code after the program that records what faulted (codegen_fault_d.c) */
typedef struct DFaultSite {
	int label;
	int kind;   /* DTRACEFLT_* */
	int addr;   /* where the faulting address is: DFAULT_ADDR_* or a scratch offset */
	int insn;   /* the instruction index that faulted */
} DFaultSite;

struct Gen;
/* a built-in's loop body (gen_loop_call): args are the caller's */
typedef void (*LoopBodyFn)(struct Gen *g, const int *args);
#define LOOP_ARGS_MAX 10

/* a for loop's body, generated after the program as the callback that
 * bpf_loop or bpf_for_each_map_elem calls (codegen_loop.c); or a
 * built-in's (body set, st NULL) */
typedef struct LoopCb {
	const Stmt *st;
	LoopBodyFn body;
	int args[LOOP_ARGS_MAX];
	int line;        /* a built-in's: the source line of its call */
	int label;       /* the callback's first instruction */
	int scratch_top; /* scratch in use at the call: the body's goes above */
	int ret_off;     /* scratch: set when the body returns from the probe */
	int start_off;   /* scratch: a range's start */
} LoopCb;

typedef struct Gen {
	BpfCode code; /* the instructions, their source lines, relocations, labels */
	Script *sc;
	const ProbeSpec *spec;
	const Probe *probe;
	Loc loc; /* the statement or expression being generated (-k reports it) */
	int stack_used, stack_max; /* bytes below r10 for integer temporaries */
	int scratch_top, scratch_max;
	int exit_label;
	int bare_exit; /* the final `return 0`, for the prologue (no scratch yet) */
	VEC(int) loop_break;
	VEC(int) loop_continue;
	VarInfo **vars; /* the probe's variables (codegen_loop.c places some) */
	int nvars;
	VEC(LoopCb) loop_cbs;  /* for loops' bodies to generate after the program */
	VEC(int) func_starts;  /* their first instructions, once generated */
	int count_cb; /* 1 + the label of a callback that only goes on (len(@m)), 0: none */
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
	VEC(DFaultSite) faults; /* D: where a run-time fault leaves (codegen_fault_d.c) */
} Gen;

static inline void emit(Gen *g, struct bpf_insn i) { bpf_emit(&g->code, i); }
/* an integer variable's base register: the stack's (negative offsets) or
 * scratch's (a probe's variable that its for loops' callbacks share) */
static inline int cg_var_reg(const VarInfo *v) { return v->off < 0 ? BPF_REG_10 : R_SCR; }
static inline void emit_ld_imm64(Gen *g, int reg, uint64_t v)
{
	bpf_emit_ld_imm64(&g->code, reg, v);
}
static inline void emit_ld_map(Gen *g, int reg, RelocKind kind, int arg)
{
	bpf_emit_ld_map(&g->code, reg, kind, arg);
}
static inline void emit_ld_map_value(Gen *g, int reg, RelocKind kind, int off)
{
	bpf_emit_ld_map_value(&g->code, reg, kind, off);
}
static inline void emit_call(Gen *g, int helper) { bpf_emit_call(&g->code, helper); }
/* a call of the kernel function whose BTF id is id (a kfunc) */
static inline void emit_kfunc_call(Gen *g, int id)
{
	emit(g, ((struct bpf_insn){.code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_KFUNC_CALL, .imm = id}));
}

static inline int label_new(Gen *g) { return bpf_label_new(&g->code); }
static inline void label_place(Gen *g, int label) { bpf_label_place(&g->code, label); }
static inline void emit_jmp_imm(Gen *g, int op, int reg, int32_t imm, int label)
{
	bpf_emit_jmp_imm(&g->code, op, reg, imm, label);
}
static inline void emit_jmp_reg(Gen *g, int op, int dst, int src, int label)
{
	bpf_emit_jmp_reg(&g->code, op, dst, src, label);
}
static inline void emit_goto(Gen *g, int label) { bpf_emit_goto(&g->code, label); }
/* resolve labels; false with g->err set if a jump is too far */
bool emit_finish(Gen *g);

/* integer temporaries on the stack: returns the r10-relative offset */
int stack_push(Gen *g);
void stack_pop(Gen *g);

/* scratch space (r7-relative, 8-byte aligned) */
int scratch_alloc(Gen *g, int size);

static inline void emit_ldx(Gen *g, int size, int dst, int base, int off)
{
	bpf_emit_ldx(&g->code, size, dst, base, off);
}
static inline void emit_stx(Gen *g, int size, int base, int src, int off)
{
	bpf_emit_stx(&g->code, size, base, src, off);
}
static inline void emit_st(Gen *g, int size, int base, int off, int32_t imm)
{
	bpf_emit_st(&g->code, size, base, off, imm);
}

/* memory moves within scratch or from another map value pointer */
static inline void emit_memcpy(Gen *g, int dst_off, int src_reg, int src_off, int n)
{
	bpf_emit_memcpy(&g->code, dst_off, src_reg, src_off, n);
}
void emit_memzero(Gen *g, int dst_off, int n); /* sizes the script's zero map */
static inline void emit_store_bytes(Gen *g, int dst_off, const char *bytes, int n)
{
	bpf_emit_store_bytes(&g->code, dst_off, bytes, n);
}
/* r1 = r7 + off (helper pointer argument) */
static inline void emit_scratch_ptr(Gen *g, int reg, int off)
{
	bpf_emit_scratch_ptr(&g->code, reg, off);
}
