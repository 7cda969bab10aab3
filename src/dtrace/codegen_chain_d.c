/* D: clauses on one probe of a provider whose events take one program.
 *
 * In DTrace two clauses on `tick-1s` are one probe that runs both clauses,
 * in clause order, on each firing (so the second clause's predicate sees
 * what the first one stored).  Tracepoints and uprobes run every program
 * attached to them in order already; a perf event (profile-N, tick-N)
 * takes one program.  So the first clause on such a probe is attached, and
 * each later one is a slot of the chain prog array that the clause before
 * it tail-calls when it ends: one timer, the clauses in order.
 *
 * A fault ends its clause, not the firing: the faulting program tail-calls
 * the next clause itself, or, when the script has ERROR clauses, leaves
 * the next slot in its scratch (DCHAIN_RESUME_OFF, beside the fault
 * record) for the last ERROR clause to tail-call once ERROR has run. */
#include <string.h>

#include "codegen_d.h"

static bool chainable(const Script *sc, const ProbeSpec *s)
{
	return sc->opt.dialect == DIALECT_D && s->prov->one_prog && s->ap && s->ap->d &&
	       s->group_idx == 0;
}

static bool same_probe(const DProbeName *a, const DProbeName *b)
{
	return !strcmp(a->prov, b->prov) && !strcmp(a->mod, b->mod) && !strcmp(a->func, b->func) &&
	       !strcmp(a->name, b->name);
}

/* the clause on spec s's probe that is last in its chain so far, if any
 * clause before probe p's spec i is on it */
static ProbeSpec *chain_tail(Script *sc, int p, int i, const ProbeSpec *s)
{
	for (int q = 0; q <= p; q++)
		for (int j = 0; j < (q == p ? i : sc->specs[q].n); j++) {
			ProbeSpec *t = &sc->specs[q].v[j];
			if (chainable(sc, t) && t->prov == s->prov && !t->chain_next &&
			    same_probe(t->ap->d, s->ap->d))
				return t;
		}
	return NULL;
}

/* a firing makes at most 33 tail calls (the kernel's MAX_TAIL_CALL_CNT):
 * one per clause after the first, and one per ERROR clause on a fault */
#define TAIL_CALLS_MAX 33

bool dchain_link(Script *sc, Error *err)
{
	for (int p = 0; p < sc->ast->nprobes; p++)
		for (int i = 0; i < sc->specs[p].n; i++) {
			ProbeSpec *s = &sc->specs[p].v[i];
			ProbeSpec *tail = chainable(sc, s) ? chain_tail(sc, p, i, s) : NULL;
			if (!tail)
				continue;
			s->chain_slot = ++sc->nchain;
			s->chain_len = tail->chain_len + 1;
			tail->chain_next = s->chain_slot;
			if (s->chain_len + sc->nerror > TAIL_CALLS_MAX)
				return error_at(err, s->loc, "sonde runs at most %d clauses on one profile or "
						"tick probe, ERROR clauses included (BPF's tail call limit): "
						"%s has more", TAIL_CALLS_MAX + 1, s->ap->d->name);
		}
	return true;
}

static void tail_call_slot(Gen *g, int slot)
{
	emit(g, I_MOV64_REG(BPF_REG_1, R_CTX));
	emit_ld_map(g, BPF_REG_2, R_CHAIN, 0);
	emit(g, I_MOV64_IMM(BPF_REG_3, slot));
	emit_call(g, BPF_FUNC_tail_call);
}

void dchain_next(Gen *g)
{
	if (g->spec->chain_next)
		tail_call_slot(g, g->spec->chain_next - 1);
}

void dchain_before_error(Gen *g)
{
	if (g->sc->nchain)
		emit_st(g, BPF_DW, R_SCR, DCHAIN_RESUME_OFF, g->spec->chain_next);
}

void dchain_after_error(Gen *g)
{
	if (!g->sc->nchain || g->spec->prov->prog_type != BPF_PROG_TYPE_PERF_EVENT)
		return;
	int none = label_new(g);
	emit_ldx(g, BPF_DW, BPF_REG_3, R_SCR, DCHAIN_RESUME_OFF);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, 0, none);
	emit(g, I_ALU64_IMM(BPF_SUB, BPF_REG_3, 1));
	emit(g, I_MOV64_REG(BPF_REG_1, R_CTX));
	emit_ld_map(g, BPF_REG_2, R_CHAIN, 0);
	emit_call(g, BPF_FUNC_tail_call);
	label_place(g, none);
}
