/* The D dialect's table of code generation hooks (compile/codegen_hooks.h):
 * DTrace's run-time faults and ERROR clauses (codegen_fault_d.c), a
 * firing's records sent as one (codegen_firing_d.c), clauses chained on one
 * probe (codegen_chain_d.c), the clause's scratch memory (dfunc_copy.c), the
 * consumer's activity state, D's aggregations and C's integer rules. */
#include <string.h>

#include "codegen_d.h"
#include "dfunc.h"
#include "dtrace.h"
#include "sema_d.h"

/* D: a traced probe's clauses run only while the activity state is active
 * (dtrace-utils checks it before each clause): not before BEGIN's clauses
 * have all run (sonde attaches the probes first, so a fast probe would see
 * BEGIN's variables unset), nor once exit() has run (probes fire until
 * sonde detaches them).  BEGIN, END and ERROR run regardless: BEGIN's
 * clauses all run (sonde runs them before it makes the state active; an
 * exit() among them leaves it draining), END runs at the end, and ERROR
 * reports a fault of any clause */
static void gen_d_state_gate(Gen *g)
{
	if (g->spec->prov->is_special)
		return;
	emit_ld_map_value(g, BPF_REG_1, R_CONTROL, D_CTL_STATE);
	emit_ldx(g, BPF_DW, BPF_REG_0, BPF_REG_1, 0);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_0, D_STATE_ACTIVE, g->exit_label);
}

static void d_clause_start(Gen *g)
{
	gen_d_state_gate(g);
	dfault_reserve(g);
}

static void d_clause_scratch(Gen *g)
{
	if (g->sc->uses_dscratch)
		dcopy_clause_start(g);
}

/* at the exit label: the next ERROR clause, then the next clause chained
 * on this probe */
static void d_clause_exit(Gen *g)
{
	dfault_error_chain(g);
	dchain_next(g);
}

/* an index out of bounds faults, as in DTrace (the index kept for the
 * message) */
static void d_index_check(Gen *g, int count)
{
	int idx = scratch_alloc(g, 8);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, idx);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_0, count, dfault_label(g, DTRACEFLT_BADINDEX, idx));
}

/* quantize, llquantize, stddev (codegen_agg_d.c) */
static void d_agg_update(Gen *g, const Type *t, int incr)
{
	switch (t->kind) {
	case TY_QUANTIZE:
		gen_quantize_index(g);
		gen_bucket_add(g, QUANT_BUCKETS, incr);
		break;
	case TY_LLQUANTIZE:
		gen_llquantize_index(g, t);
		gen_bucket_add(g, llquant_buckets(t), incr);
		break;
	case TY_STDDEV:
		gen_stddev(g);
		break;
	default:
		break;
	}
}

/* argN of an ERROR clause: from the fault's record; past a syscall's
 * record: 0 */
static bool d_arg_value(Gen *g, int n)
{
	if (dfault_is_error_spec(g->spec))
		dfault_gen_arg(g, n);
	else if (d_syscall_arg_absent(g->spec, n))
		emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	else
		return false;
	return true;
}

/* id: the probe's; epid: the enabled probe's, this clause on this probe */
static void d_builtin_int(Gen *g, const Expr *e)
{
	const AttachPoint *ap = g->spec->ap;
	if (!strcmp(e->name, "epid"))
		emit(g, I_MOV64_IMM(BPF_REG_0, dfault_epid(g)));
	else
		emit(g, I_MOV64_IMM(BPF_REG_0, ap && ap->d ? ap->d->id : 0));
}

/* probeprov, probemod, probefunc, probename (e->aux: which): constants,
 * at most strsize characters as every D string */
static void d_builtin_into(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	const DProbeName *d = g->spec->ap ? g->spec->ap->d : NULL;
	const char *parts[] = { d ? d->prov : "", d ? d->mod : "", d ? d->func : "",
				d ? d->name : "" };
	const char *name = parts[e->aux];
	int n = (int)strlen(name) < dt->size ? (int)strlen(name) : dt->size - 1;
	if (n > g->sc->opt.strlen_max - 1)
		n = g->sc->opt.strlen_max - 1;
	emit_store_bytes(g, dst_off, name, n);
	emit_memzero(g, dst_off + n, dt->size - n);
}

static bool d_link(Script *sc, Error *err)
{
	dfault_expand_errors(sc);
	return dchain_link(sc, err);
}

/* -x aggsize (aggregations) and dynvarsize (the other maps) in bytes: as
 * many entries as fit, 1 to 2^24 */
static int64_t d_map_entries(const Options *o, const MapInfo *m, int64_t n)
{
	int64_t bytes = d_size_opt(o, m->percpu ? "aggsize" : "dynvarsize", 0);
	int64_t per = (m->key ? m->key->size : 8) + m->val->size;
	if (bytes > 0)
		n = bytes / per < 1 ? 1 : bytes / per > (1 << 24) ? (1 << 24) : bytes / per;
	return n;
}

const CodegenHooks d_codegen_hooks = {
	.clause_start = d_clause_start,
	.clause_scratch = d_clause_scratch,
	.clause_body = dfiring_clause_body,
	.firing_end = dfiring_end,
	.clause_exit = d_clause_exit,
	.prog_tail = dfault_finish,
	.prog_slot = dfault_prog_slot,
	.divisor_check = dfault_divisor_check,
	.fault_label = dfault_label,
	.read_call = dfault_read_call,
	.index_check = d_index_check,
	.store_ptr = dcopy_store_ptr,
	.record_send = dfiring_record_send,
	.arg_value = d_arg_value,
	.arg_offset = d_syscall_arg_offset,
	.builtin_int = d_builtin_int,
	.builtin_into = d_builtin_into,
	.c_int_rules = true,
	.signed_div = sema_d_arith_signed,
	.agg_update = d_agg_update,
	.late_clause = dfault_is_error_clause,
	.link = d_link,
	.many_begin_end = true,
	.check = d_alloca_check,
	.map_entries = d_map_entries,
};
