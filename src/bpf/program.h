/* A compiled BPF program as data, for the loader and the printers: the
 * fix-ups the loader makes to its instructions before loading them. */
#pragma once
#include <stdint.h>

/* Loader fix-ups: which map a ld_imm64 refers to. */
typedef enum RelocKind {
	R_MAP,      /* a program map: arg = MapInfo id */
	R_RINGBUF,
	R_SCRATCH,
	R_ZERO,     /* value address of the all-zero map (+ arg offset) */
	R_RODATA,   /* value address of the read-only strings (+ arg offset) */
	R_LOST,
	R_KSTACK,
	R_USTACK,
	R_PYCODE,   /* the Python code-object cache (sym/pylayout.h) */
	R_CONTROL,  /* value address of the control word (exit flag) */
	R_FIRING,   /* D: the per-CPU firing buffers (an array indexed by CPU) */
	R_ERRPROGS, /* D: the dtrace:::ERROR programs of one program kind (arg: Script.err_kinds index) */
	R_DROPS,    /* per-CPU failed map updates (drops), keys D_DROP_* */
	R_PERFBUF,  /* skboutput(): the perf event array bpf_skb_output writes to */
	R_CHAIN,    /* D: the clauses tail-called after the first on a one-program probe */
} RelocKind;

typedef struct Reloc {
	int insn;
	RelocKind kind;
	int arg;
} Reloc;
