/* D: DTrace's run-time faults and the dtrace:::ERROR probe.
 *
 * Where DTrace would fault at run time (a read of memory that fails, a
 * division by zero, scratch memory exhausted, a copy to memory that is not
 * scratch ...), a D program tests the outcome: a branch on the helper's
 * return value or on the divisor, taken only on a fault.  The taken branch
 * leads to a few instructions after the program's exit (a "site": the
 * instruction, the fault type and the address, written into the fault
 * record at scratch offset 0) and then to the program's fault handler: it
 * adds the probe's id and the clause's number, drops what the clause
 * gathered in the firing buffer (DTrace discards the faulting clause's
 * buffered records), sends the record to user space (EV_D_FAULT:
 * dtrace-utils' "error in dt_clause_N for probe ID ..." message) and, when
 * the script has ERROR clauses, tail-calls the first of them.  Nothing runs
 * on the path without a fault but the test.
 *
 * ERROR clauses are programs of the faulting program's own kind (a tail
 * call needs the same program type and expected attach type), so each is
 * compiled once per kind of program in the script (dfault_expand_errors);
 * the kinds' prog arrays hold the clauses in script order, and each ERROR
 * program ends with a tail call to the next one.  ERROR reads arg1..arg5
 * from the record the faulting program left in this CPU's scratch buffer.
 * A fault inside an ERROR clause does not recurse: it ends that clause and
 * is counted (dtrace's "N errors in ERROR probe enabling"). */
#include <string.h>

#include "codegen_d.h"

#define DFAULT_ADDR_NONE (-1) /* the fault has no address (arg5 is 0) */
#define DFAULT_ADDR_R8 (-2)   /* the address is in r8 (saved before a helper call) */

static bool faults_on(const Gen *g)
{
	return g->sc->opt.dialect == DIALECT_D && !g->code.dead;
}

int dfault_epid(const Gen *g)
{
	const AttachPoint *ap = g->spec->ap;
	return ap && ap->epid > 0 ? ap->epid : g->sc->progs.n + 1;
}

bool dfault_is_error_spec(const ProbeSpec *sp)
{
	return sp->prov->is_special == SPECIAL_ERROR;
}

static int site_new(Gen *g, int kind, int addr, int insn)
{
	DFaultSite s = {label_new(g), kind, addr, insn};
	vec_push(&g->faults, s);
	return s.label;
}

void dfault_reserve(Gen *g)
{
	if (g->sc->opt.dialect != DIALECT_D)
		return;
	scratch_alloc(g, DFAULT_REC_SIZE); /* the first allocation: offset 0 */
	if (g->sc->nchain)
		scratch_alloc(g, 8); /* DCHAIN_RESUME_OFF */
}

void dfault_read_call(Gen *g, int helper)
{
	if (!faults_on(g)) {
		emit_call(g, helper);
		return;
	}
	emit(g, I_MOV64_REG(BPF_REG_8, BPF_REG_3)); /* the source address survives the call */
	emit_call(g, helper);
	int at = g->code.insns.n - 1;
	emit_jmp_imm(g, BPF_JSLT, BPF_REG_0, 0, site_new(g, DTRACEFLT_BADADDR, DFAULT_ADDR_R8, at));
}

void dfault_divisor_check(Gen *g, int reg)
{
	if (!faults_on(g))
		return;
	int at = g->code.insns.n;
	emit_jmp_imm(g, BPF_JEQ, reg, 0, site_new(g, DTRACEFLT_DIVZERO, DFAULT_ADDR_NONE, at));
}

void dfault_call_check(Gen *g, int kind, int addr_slot)
{
	if (!faults_on(g))
		return;
	int at = g->code.insns.n - 1;
	emit_jmp_imm(g, BPF_JSLT, BPF_REG_0, 0, site_new(g, kind, addr_slot, at));
}

int dfault_label(Gen *g, int kind, int addr_slot)
{
	if (!faults_on(g))
		return g->exit_label;
	return site_new(g, kind, addr_slot < 0 ? DFAULT_ADDR_NONE : addr_slot, g->code.insns.n);
}

/* --- ERROR's programs ------------------------------------------------------ */

static int err_kind_of(const Script *sc, const ProbeSpec *sp)
{
	for (int i = 0; i < sc->nerr_kinds; i++)
		if (sc->err_kinds[i].type == sp->prov->prog_type &&
		    sc->err_kinds[i].attach_type == sp->attach_type)
			return i;
	return -1;
}

static bool is_d_error_ap(const Script *sc, const AttachPoint *ap)
{
	return sc->opt.dialect == DIALECT_D && ap->d && !strcmp(ap->text, "ERROR");
}

bool dfault_is_error_clause(const Script *sc, const Probe *p)
{
	return p->naps && is_d_error_ap(sc, &p->aps[0]);
}

static void kind_add(Script *sc, const ProbeSpec *sp)
{
	if (err_kind_of(sc, sp) >= 0 || sc->nerr_kinds == (int)(sizeof(sc->err_kinds) /
							   sizeof(sc->err_kinds[0])))
		return;
	if (!provider_error(sp->prov->prog_type))
		return; /* no ERROR program can be tail-called from this kind */
	sc->err_kinds[sc->nerr_kinds].type = sp->prov->prog_type;
	sc->err_kinds[sc->nerr_kinds++].attach_type = sp->attach_type;
}

void dfault_expand_errors(Script *sc)
{
	Program *ast = sc->ast;
	for (int p = 0; p < ast->nprobes; p++)
		if (!dfault_is_error_clause(sc, ast->probes[p]))
			for (int i = 0; i < sc->specs[p].n; i++)
				kind_add(sc, &sc->specs[p].v[i]);
	for (int p = 0; p < ast->nprobes; p++) {
		if (!dfault_is_error_clause(sc, ast->probes[p]))
			continue;
		sc->nerror++;
		AttachPoint *ap = &ast->probes[p]->aps[0];
		for (int k = 0; k < sc->nerr_kinds; k++) {
			ProbeSpec *s = probe_spec_add(&sc->specs[p], provider_error(sc->err_kinds[k].type),
						      ap->loc);
			s->name = xstrdup("ERROR");
			s->attach_type = sc->err_kinds[k].attach_type;
			s->ap = ap;
		}
		sc->nattach += sc->specs[p].n;
	}
}

/* the ERROR clause's rank among the script's ERROR clauses */
static int error_rank(const Script *sc, const Probe *p)
{
	int rank = 0;
	for (int i = 0; i < sc->ast->nprobes && sc->ast->probes[i] != p; i++)
		rank += dfault_is_error_clause(sc, sc->ast->probes[i]);
	return rank;
}

void dfault_prog_slot(const Gen *g, int *kind, int *slot)
{
	*kind = *slot = -1;
	if (!dfault_is_error_spec(g->spec))
		return;
	*kind = err_kind_of(g->sc, g->spec);
	*slot = error_rank(g->sc, g->probe);
}

/* bpf_tail_call to ERROR clause `slot` of this program's kind; returns
 * only when there is none there */
static void tail_call(Gen *g, int slot)
{
	int kind = err_kind_of(g->sc, g->spec);
	if (kind < 0 || slot >= g->sc->nerror)
		return;
	emit(g, I_MOV64_REG(BPF_REG_1, R_CTX));
	emit_ld_map(g, BPF_REG_2, R_ERRPROGS, kind);
	emit(g, I_MOV64_IMM(BPF_REG_3, slot));
	emit_call(g, BPF_FUNC_tail_call);
}

void dfault_error_chain(Gen *g)
{
	if (g->sc->opt.dialect != DIALECT_D || !dfault_is_error_spec(g->spec))
		return;
	tail_call(g, error_rank(g->sc, g->probe) + 1);
	dchain_after_error(g); /* the last ERROR clause: the faulting clause's next one */
}

void dfault_gen_arg(Gen *g, int n)
{
	if (n >= 1 && n <= 5)
		emit_ldx(g, BPF_DW, BPF_REG_0, R_SCR, 8 * n);
	else /* arg0 (DTrace's state pointer) and past arg5: nothing here */
		emit(g, I_MOV64_IMM(BPF_REG_0, 0));
}

/* --- after the program: the sites and the handler --------------------------- */

static void site_record(Gen *g, const DFaultSite *s, int common)
{
	label_place(g, s->label);
	emit_st(g, BPF_DW, R_SCR, 24, s->insn);
	emit_st(g, BPF_DW, R_SCR, 32, s->kind);
	if (s->addr == DFAULT_ADDR_NONE) {
		emit_st(g, BPF_DW, R_SCR, 40, 0);
	} else if (s->addr == DFAULT_ADDR_R8) {
		emit_stx(g, BPF_DW, R_SCR, BPF_REG_8, 40);
	} else {
		emit_ldx(g, BPF_DW, BPF_REG_1, R_SCR, s->addr);
		emit_stx(g, BPF_DW, R_SCR, BPF_REG_1, 40);
	}
	emit_goto(g, common);
}

/* the record to user space, then the ERROR clauses */
static void report(Gen *g)
{
	EventDesc *ev = event_new(g, EV_D_FAULT, 0);
	ev->size = DFAULT_REC_SIZE;
	ev->spec = g->spec;
	bool wake = g->spec->prov->is_special;
	g->sc->lazy_events |= !wake;
	emit_ld_imm64(g, BPF_REG_1, (uint64_t)(g->sc->events.n - 1));
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_1, 0);
	const AttachPoint *ap = g->spec->ap;
	emit_st(g, BPF_DW, R_SCR, 8, ap && ap->d ? ap->d->id : 0);
	emit_st(g, BPF_DW, R_SCR, 16, ap ? ap->clause : 0);
	gen_ringbuf_output(g, 0, DFAULT_REC_SIZE, wake);
	dchain_before_error(g);
	tail_call(g, 0);
	dchain_next(g); /* no ERROR clause: the next clause on the probe */
	emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	emit(g, I_EXIT());
}

/* in an ERROR clause: counted, and the next ERROR clause runs */
static void count_double_error(Gen *g)
{
	emit_ld_map_value(g, BPF_REG_1, R_CONTROL, D_CTL_DBLERRORS);
	emit(g, I_MOV64_IMM(BPF_REG_2, 1));
	emit(g, I_ATOMIC_ADD64(BPF_REG_1, BPF_REG_2, 0));
	emit_goto(g, g->exit_label);
}

void dfault_finish(Gen *g)
{
	if (!g->faults.n)
		return;
	g->code.line = 0;
	bool in_error = dfault_is_error_spec(g->spec);
	int common = label_new(g);
	for (int i = 0; i < g->faults.n; i++) {
		if (in_error) /* nothing to record: the sites lead straight on */
			label_place(g, g->faults.v[i].label);
		else
			site_record(g, &g->faults.v[i], common);
	}
	label_place(g, common);
	dfiring_discard(g);
	if (in_error)
		count_double_error(g);
	else
		report(g);
}
