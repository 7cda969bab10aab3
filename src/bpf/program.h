/* A compiled BPF program as data, for the loader and the printers: its
 * instructions and the fix-ups the loader makes to them before loading,
 * and the layouts the programs and user space share (the control page,
 * skboutput()'s records).  Nothing of the language: the compiler's
 * description of a script (compile/script.h) builds on this. */
#pragma once
#include <linux/bpf.h>
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
	R_PYLIVE,   /* the Python code objects alive, by address (sym/pylayout.h) */
	R_CONTROL,  /* value address of the control word (exit flag) */
	R_FIRING,   /* D: the per-CPU firing buffers (an array indexed by CPU) */
	R_ERRPROGS, /* D: the dtrace:::ERROR programs of one program kind (arg: Script.err_kinds index) */
	R_DROPS,    /* per-CPU failed map updates (drops), keys D_DROP_* */
	R_PERFBUF,  /* skboutput(): the perf event array bpf_skb_output writes to */
	R_CHAIN,    /* D: the clauses tail-called after the first on a one-program probe */
	R_PYBASE,   /* where each process has its Python interpreter (sym/pylayout.h's PyBase) */
	R_BSTACK,   /* user stacks as build ids and file offsets (ustack(build_id)); arg: depth */
} RelocKind;

typedef struct Reloc {
	int insn;
	RelocKind kind;
	int arg;
} Reloc;

/* One program's code as the loader reads it: the instructions, the source
 * line each was generated for (0: none), the fix-ups to make before
 * loading; then what loading gave.  A macro so that compile/script.h's
 * ProgCode can hold these fields both by name (pc->insns) and as one
 * BpfProg (pc->code). */
#define BPF_PROG_FIELDS                                                        \
	struct bpf_insn *insns;                                                \
	int *lines;                                                            \
	int ninsns;                                                            \
	Reloc *relocs;                                                         \
	int nrelocs;                                                           \
	int *funcs; /* subprograms' first instructions (callbacks), or NULL */ \
	int nfuncs;                                                            \
	int fd;     /* loader */                                               \
	char *vlog; /* loader, -v: the verifier's log of its successful load */

typedef struct BpfProg {
	BPF_PROG_FIELDS
} BpfProg;

/* The control map: one mmapped page the programs and user space share.
 * Word 0 is the exit flag; D keeps its state in words further on
 * (compile/script.h's D_CTL_*). */
#define CONTROL_SIZE 4096
/* the last generation given to a Python code object (sym/pylayout.h's
 * sonde_pylive; python/codegen_pystack.c), past D's words of speculations
 * (compile/script.h checks that no two words of the page meet) */
#define CONTROL_PY_GEN 4056

/* skboutput()'s record before the packet: the event's index, when
 * (bpf_ktime_get_ns), the bytes copied from the skb, the first to write */
typedef struct SkbRecord {
	uint64_t id, ns, len, offset;
} SkbRecord;
