/* D's code generation (codegen_*_d.c): what D's CodegenHooks
 * (codegen_hooks_d.c) and D's function rows call. */
#pragma once
#include "../compile/codegen.h"

/* D's aggregations (codegen_agg_d.c): r0 = slot, r1 = value */
void gen_quantize_index(Gen *g);                  /* r1 = bucket */
void gen_llquantize_index(Gen *g, const Type *t); /* r1 = bucket */
void gen_stddev(Gen *g);
/* the aggregation actions' records: printa, trunc, normalize and
 * denormalize, setopt */
void dgen_printa(Gen *g, const Expr *e);
void dgen_trunc(Gen *g, const Expr *e);
void dgen_normalize(Gen *g, const Expr *e);
void dgen_setopt(Gen *g, const Expr *e);

/* D: a firing's records as one ring-buffer record (codegen_firing_d.c):
 * add one (false: too big, send it alone), and send them at the clause's end */
bool dfiring_add(Gen *g, int rec_off, int size, bool wake);
void dfiring_end(Gen *g);
void dfiring_discard(Gen *g); /* a fault: the clause's records dropped, not sent */
/* D: DTrace's run-time faults and dtrace:::ERROR (codegen_fault_d.c) */
void dfault_reserve(Gen *g);             /* the fault record: a D program's first scratch */
void dfault_read_call(Gen *g, int helper); /* a probe read (source in r3); fails: invalid address */
void dfault_divisor_check(Gen *g, int reg); /* reg == 0: divide-by-zero */
/* the label a check jumps to for a fault of kind (DTRACEFLT_*), its address
 * in scratch at addr_slot (-1: none) */
int dfault_label(Gen *g, int kind, int addr_slot);
void dfault_call_check(Gen *g, int kind, int addr_slot); /* after a call: r0 < 0 faults */
void dfault_finish(Gen *g);     /* after the program's exit: where faults go */
void dfault_error_chain(Gen *g); /* an ERROR clause's end: the next ERROR clause */
void dfault_gen_arg(Gen *g, int n); /* argN in an ERROR clause */
/* D: the enabled probe ID of the program being generated (dtrace's EPID) */
int dfault_epid(const Gen *g);
bool dfault_is_error_spec(const ProbeSpec *sp);
bool dfault_is_error_clause(const Script *sc, const Probe *p);
void dfault_expand_errors(Script *sc); /* ERROR clauses: a spec per kind of program */
void dfault_prog_slot(const Gen *g, int *kind, int *slot); /* ProgCode.err_kind/err_slot */
/* D: clauses on one perf-event probe as a chain of tail calls (codegen_chain_d.c) */
bool dchain_link(Script *sc, Error *err); /* ProbeSpec.chain_slot/chain_next, Script.nchain */
void dchain_next(Gen *g);           /* a clause's end: the next clause on its probe */
void dchain_before_error(Gen *g);   /* a fault: where to go on once ERROR has run */
void dchain_after_error(Gen *g);    /* an ERROR clause's end: back to that clause */
/* D, not quiet: a firing's CPU/ID/FUNCTION:NAME record (codegen_firing_d.c) */
void gen_d_probe_event(Gen *g);
/* before a clause's statements: its heading, unless speculate() takes it */
void dfiring_clause_body(Gen *g, const Probe *p);
/* an event record to send: into the firing, tagged for a speculation */
void dfiring_record_send(Gen *g, int rec_off, int size, bool wake);
