/* What a front end adds to code generation and to the compile driver, as a
 * table of hooks the core calls instead of asking which dialect the script
 * is in.  The front end that knows the dialect puts its table in
 * Options.codegen (dtrace/d_cli.c: D's, dtrace/codegen_hooks_d.c); a NULL
 * table or hook means the core's own behaviour, which is bpftrace's: no
 * run-time faults, one record per event, bpftrace's integer rules. */
#pragma once
#include <stdbool.h>
#include <stdint.h>

#include "script.h"

struct Gen;

typedef struct CodegenHooks {
	/* --- a clause's program, in the order they run --- */
	void (*clause_start)(struct Gen *g);  /* after the prologue (D: the state gate, the fault record) */
	void (*clause_scratch)(struct Gen *g); /* the variables are zeroed (D: the clause's scratch memory) */
	/* after the predicate, before the statements (D: the firing's
	 * heading record, or where speculate() is) */
	void (*clause_body)(struct Gen *g, const Probe *p);
	/* the clause's records are gathered and go out as one at its end
	 * (D's firing: Gen.firing), here */
	void (*firing_end)(struct Gen *g);
	void (*clause_exit)(struct Gen *g);   /* at the exit label (D: the next ERROR or chained clause) */
	void (*prog_tail)(struct Gen *g);     /* after the program's exit (D: where faults go) */
	/* ProgCode.err_kind/err_slot of the program being made */
	void (*prog_slot)(const struct Gen *g, int *kind, int *slot);

	/* --- run-time checks (D: DTrace's faults) --- */
	void (*divisor_check)(struct Gen *g, int reg); /* reg == 0 faults */
	/* the label a check jumps to for a fault of kind (DTRACEFLT_*), the
	 * address in scratch at addr_slot (-1: none); NULL: the exit label */
	int (*fault_label)(struct Gen *g, int kind, int addr_slot);
	/* a probe read helper called (source in r3); NULL: the plain call */
	void (*read_call)(struct Gen *g, int helper);
	/* an index in r0 against count elements: NULL: clamped to 0 */
	void (*index_check)(struct Gen *g, int count);
	/* a store through the pointer at scratch addr_slot of size bytes:
	 * r0 = where to write (D: checked to be scratch memory) */
	void (*store_ptr)(struct Gen *g, int addr_slot, int size);

	/* an event record at scratch rec_off about to be sent: NULL, to the
	 * ring buffer (D: gathered in the firing, tagged for a speculation) */
	void (*record_send)(struct Gen *g, int rec_off, int size, bool wake);

	/* --- values --- */
	/* argN (n; -1: retval) where the dialect has it its own way: true
	 * when r0 holds it (D: an ERROR clause's from the fault's record, an
	 * argument past a syscall's record: 0) */
	bool (*arg_value)(struct Gen *g, int n);
	/* argN's offset in the context, -1: the provider's (D: a syscall
	 * tracepoint's from its record) */
	int (*arg_offset)(const ProbeSpec *spec, int n);
	/* a builtin of the dialect's own (SemaHooks.builtins): into r0, or
	 * written at scratch dst_off */
	void (*builtin_int)(struct Gen *g, const Expr *e);
	void (*builtin_into)(struct Gen *g, const Expr *e, int dst_off, const Type *dt);
	/* C's integer rules (D): unsigned negation not wrapped to its width, a
	 * value assigned to an integer variable cast to its type.  Else
	 * bpftrace's. */
	bool c_int_rules;
	/* whether / and % of operands of types a and b divide signed (D: when
	 * C's conversions give a signed type); NULL: never (bpftrace) */
	bool (*signed_div)(const Type *a, const Type *b);
	/* an aggregation of a kind the core does not update (r0 = slot, r1 =
	 * the value, incr: the stack slot of the increment, or 0) */
	void (*agg_update)(struct Gen *g, const Type *t, int incr);

	/* --- the compile driver (compile.c) --- */
	/* a clause whose attach points are expanded after the others' (D's ERROR) */
	bool (*late_clause)(const Script *sc, const Probe *p);
	/* after every attach point is expanded (D: ERROR's programs, chains) */
	bool (*link)(Script *sc, Error *err);
	bool many_begin_end; /* any number of BEGIN and END clauses (bpftrace: one each) */
	bool self_probes; /* self:signal:SIGUSR1 probes (bpftrace 0.26); else an unknown type */
	/* a traced probe does nothing before BEGIN has run (sonde attaches the
	 * probes first) nor after exit() (until sonde detaches it): its program
	 * starts by reading the exit flag and CTL_RUN_STATE, which the front end
	 * sets after BEGIN (bpftrace 0.26, whose tseries tests step a clock
	 * that BEGIN sets) */
	bool gate_probes;
	/* -p PID limits every traced probe to that process, not only the
	 * user-space ones the kernel limits (bpftrace 0.26: a software or
	 * tracepoint probe fires for PID only); begin/end and iterators are not
	 * the process's events */
	bool pid_filters_all;
	/* after sema: the front end's checks of the whole program */
	bool (*check)(const Program *p, Error *err);
	/* a map's entries, given the default n */
	int64_t (*map_entries)(const Options *o, const MapInfo *m, int64_t n);
} CodegenHooks;

/* the script's table (Options.codegen), or the empty one */
const CodegenHooks *codegen_hooks(const Script *sc);
