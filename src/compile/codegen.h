/* Typed AST -> BPF instructions, one program per concrete probe. */
#pragma once
#include "sema.h"
#include "gen.h"
#include "codegen_hooks.h"

/* Generate the program for one probe at one attach point (sema has just
 * annotated the tree for that attach point). */
bool codegen_probe(Script *sc, const Probe *p, const ProbeSpec *spec, VarInfo **vars,
		   int nvars, Error *err);

/* shared between the codegen files */
void gen_stmts(Gen *g, const StmtList *l);
/* codegen_loop.c: for loops (their bodies are callbacks, generated after
 * the program by gen_loop_callbacks); a probe with one keeps its integer
 * variables in scratch */
bool codegen_has_loops(const Probe *p);
/* the label of a bpf_for_each_map_elem callback that visits every element
 * (the helper's result is then the map's count), generated after the
 * program with the loops' callbacks */
int gen_counting_callback(Gen *g);
void codegen_loop_homes(const Probe *p, VarInfo **vars, int nvars);
void gen_loop_stmt(Gen *g, const Stmt *st);
/* a built-in's loop (D's string search): bpf_loop(r0, callback), r0 the
 * count (> 0); the callback, generated after the program, has R_CTX and
 * R_SCR as here and r1 the iteration's index, and body(g, args) ends it
 * with r0 = 0 to go on, 1 to stop (the verifier checks a callback once,
 * where a loop in the program is walked at every iteration) */
void gen_loop_call(Gen *g, LoopBodyFn body, const int *args, int nargs);
void gen_loop_callbacks(Gen *g);
void gen_int(Gen *g, const Expr *e);                         /* -> r0 */
void gen_into(Gen *g, const Expr *e, int dst_off, const Type *dst_t);
int gen_mem(Gen *g, const Expr *e);                          /* -> scratch offset */
void gen_copy_value(Gen *g, int src_reg, int src_off, const Type *src_t, int dst_off,
		    const Type *dst_t);
void gen_cast_r0(Gen *g, const Type *t); /* truncate/extend r0 to t's width */
void gen_cast_reg(Gen *g, int reg, const Type *t); /* the same for any register */
void gen_scale_step(Gen *g, Op op, const Type *target); /* pointer += n: r0 *= size */
/* r1 = r1 OP r0 (a BPF ALU op); / and % signed when sign_div */
void gen_alu_r1(Gen *g, int op, bool sign_div);
int cg_alu_of(Op op); /* the BPF ALU operation of op= */
void gen_divmod(Gen *g, int op, bool sign); /* r1 = r1 / or % r0; uses r2 */
bool cg_signed_div(const Gen *g, const Type *a, const Type *b); /* D's signed / and % */
void gen_strcmp(Gen *g, const Expr *a, const Expr *b, int limit); /* r0 = 0: equal */

int gen_map_key(Gen *g, const Expr *map);  /* -> scratch offset of the key */
void gen_map_lookup(Gen *g, const MapInfo *m, int key_off); /* r0 = value ptr or 0 */
void gen_map_read_int(Gen *g, const Expr *map);
/* r0 = a count/sum/avg/min/max map's value, its CPUs' slots combined
 * (codegen_aggread.c) */
void gen_map_read_agg(Gen *g, const Expr *map);
void gen_map_read_into(Gen *g, const Expr *map, int dst_off, const Type *dst_t);
void gen_map_assign(Gen *g, const Stmt *st);
void gen_map_agg(Gen *g, const Expr *map, const Expr *call);
void gen_map_incdec(Gen *g, const Expr *e); /* value in r0 */
void gen_map_delete(Gen *g, const Expr *map);
/* r0 = this CPU's (or the map's) value for the key, created zeroed when
 * absent; a full map counts a drop_kind drop (D) and jumps to skip */
void gen_map_slot(Gen *g, const MapInfo *m, int key, int skip, int drop_kind);
/* stores into members, elements and pointees (codegen_store.c) */
void gen_store_assign(Gen *g, const Stmt *st);
void gen_store_incdec(Gen *g, const Expr *e); /* value in r0 */
/* r0 = slot, r1 = bucket (clamped to nbuckets - 1): the bucket += the
 * increment at stack slot incr (0: 1) */
void gen_bucket_add(Gen *g, int nbuckets, int incr);
/* the front end's checks, or nothing (codegen_hooks.h) */
void cg_divisor_check(Gen *g, int reg);
int cg_fault_label(Gen *g, int kind, int addr_slot);
void cg_read_call(Gen *g, int helper);
void gen_builtin_int(Gen *g, const Expr *e);
void gen_builtin_into(Gen *g, const Expr *e, int dst_off, const Type *dst_t);
void gen_call_stmt(Gen *g, const Expr *e);
void gen_call_int(Gen *g, const Expr *e);
void gen_call_into(Gen *g, const Expr *e, int dst_off, const Type *dst_t);
void gen_stack_into(Gen *g, bool user, int depth, int dst_off);
/* a user stack's id in the stack map of build ids and file offsets (ustack(build_id)) */
void gen_build_id_stack_into(Gen *g, int depth, int dst_off);
void gen_seq_printf(Gen *g, const Expr *call); /* codegen_seq.c: pinned iterators */

/* event records: id at off, arguments after; ringbuf output + lost count */
EventDesc *event_new(Gen *g, EventKind kind, int nargs);
/* for the functions' families (src/builtins/): an event whose arguments
 * are call->args[first..] (printf, cat, print(value)...); an event of
 * its id alone, ev being the last one made (clear(), time()...) */
EventDesc *gen_args_event(Gen *g, EventKind kind, const Expr *call, int first);
EventDesc *gen_format_event(Gen *g, EventKind kind, const Expr *call);
void gen_simple_event(Gen *g, EventDesc *ev);
/* a usym value at dst_off: the address in r0, then the current process */
void gen_usym_store(Gen *g, int dst_off);
int cg_literal_int(const Expr *e); /* an integer literal, negated or not */
void gen_event_send(Gen *g, int rec_off, int size, bool urgent);
void gen_count_lost(Gen *g);
/* the record at scratch rec_off to the ring buffer now; a failure counted */
void gen_ringbuf_output(Gen *g, int rec_off, int size, bool wake);
/* -k/-kk: after a call of helper, report its failure (r0 kept) */
void gen_helper_check(Gen *g, int helper);
/* uprobe/usdt and syscall tracepoints: a plain pointer is a user address */
bool cg_probe_reads_user(const Gen *g);
/* t used as an address: user memory?  (its pointer type's, else the probe's) */
bool cg_user_addr(const Gen *g, const Type *t);
