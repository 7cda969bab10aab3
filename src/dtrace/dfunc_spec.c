/* D's speculations: speculation() takes a free buffer (1..nspec, 0 when
 * none is free), speculate(id) sends the rest of the clause's records to
 * that buffer, commit(id) prints it, discard(id) drops it.
 *
 * The buffers are held by sonde, not the kernel: a speculated record is
 * the ordinary event record with the speculation id in the upper half of
 * its first word, and user space (dtrace/spec_buf.c) keeps it until the
 * commit or discard event, which comes after it in the ring buffer.  What
 * the kernel keeps is each buffer's state and byte count, in the control
 * map (D_CTL_* below): speculation() claims a free slot with a
 * compare-and-exchange, a record that would take the buffer past specsize
 * is dropped (counted, and the clause ends, as DTrace ends it) and the
 * runtime reports "dtrace: N speculative drops". */
#include <stdlib.h>
#include <string.h>

#include "codegen_d.h"
#include "dfunc.h"

/* DTrace's defaults (-x nspec, -x specsize) */
#define D_NSPEC_DEFAULT 1
#define D_SPECSIZE_DEFAULT (4 << 20)

int64_t d_size_opt(const Options *o, const char *name, int64_t dflt)
{
	const char *v = options_d_get(o, name);
	if (!v || !*v)
		return dflt;
	char *end;
	long long n = strtoll(v, &end, 0);
	int shift = strchr("kK", *end) && *end ? 10 : strchr("mM", *end) && *end ? 20
		  : strchr("gG", *end) && *end ? 30 : 0;
	return n > 0 ? (int64_t)n << shift : dflt;
}

int dspec_nspec(const Options *o)
{
	int64_t n = o->nspec > 0 ? o->nspec : d_size_opt(o, "nspec", D_NSPEC_DEFAULT);
	return n > D_NSPEC_MAX ? D_NSPEC_MAX : (int)n;
}

static int64_t specsize(const Options *o)
{
	return o->specsize > 0 ? o->specsize : d_size_opt(o, "specsize", D_SPECSIZE_DEFAULT);
}

/* --- type rules and the order of actions in a clause ---------------------- */

/* What a clause did so far (Sema.d_clause), for DTrace's ordering rules */
enum { DC_SPEC = 1, DC_COMMIT = 2, DC_DREC = 4 };

static bool order_error(Sema *s, Expr *c, const char *what, const char *after)
{
	return sema_error(s, c->loc, "%s may not follow %s", what, after);
}

bool dcheck_speculation(Sema *s, Expr *c)
{
	c->type = ty_int(s, 32, true);
	return true;
}

bool dcheck_speculate(Sema *s, Expr *c)
{
	if (!dsema_arg_int(s, c, 0, "int"))
		return false;
	if (s->d_clause & DC_SPEC)
		return order_error(s, c, "speculate( )", "speculate( )");
	if (s->d_clause & DC_COMMIT)
		return order_error(s, c, "speculate( )", "commit( )");
	if (s->d_clause & DC_DREC)
		return order_error(s, c, "speculate( )", "data-recording actions");
	s->d_clause |= DC_SPEC;
	s->sc->uses_spec = true;
	return true;
}

bool dcheck_commit(Sema *s, Expr *c)
{
	if (!dsema_arg_int(s, c, 0, "int"))
		return false;
	bool commit = !strcmp(c->name, "commit");
	if (commit && (s->d_clause & DC_COMMIT))
		return order_error(s, c, "commit( )", "commit( )");
	if (commit && (s->d_clause & DC_DREC))
		return order_error(s, c, "commit( )", "data-recording actions");
	s->d_clause |= commit ? DC_COMMIT : 0;
	return true;
}

/* Every other call of a D clause: data-recording, aggregating, exit and
 * destructive actions against speculate()/commit() before them. */
bool dsema_action_order(Sema *s, Expr *c, const FuncDef *f)
{
	static const char *const drec[] = {"printf", "trace", "printa", "print", "tracemem",
					   "stack", "ustack", "jstack", NULL};
	static const char *const destr[] = {"raise", "stop", "chill", "system", "copyout",
					    "copyoutstr", "breakpoint", "panic", NULL};
	bool is_drec = false, is_destr = false;
	for (int i = 0; drec[i]; i++)
		is_drec |= !strcmp(c->name, drec[i]);
	for (int i = 0; destr[i]; i++)
		is_destr |= !strcmp(c->name, destr[i]);
	if (f->kind == FK_AGG && (s->d_clause & DC_SPEC))
		return order_error(s, c, "aggregating actions", "speculate( )");
	if (f->kind == FK_AGG && (s->d_clause & DC_COMMIT))
		return order_error(s, c, "aggregating actions", "commit( )");
	if (!strcmp(c->name, "exit") && (s->d_clause & DC_SPEC))
		return order_error(s, c, "exit( )", "speculate( )");
	if (is_destr && (s->d_clause & DC_SPEC))
		return order_error(s, c, "destructive actions", "speculate( )");
	if ((is_drec || !strcmp(c->name, "exit")) && (s->d_clause & DC_COMMIT))
		return order_error(s, c, "data-recording actions", "commit( )");
	if (is_drec)
		s->d_clause |= DC_DREC;
	return true;
}

/* --- code generation ------------------------------------------------------ */

/* r0 = the first buffer that was free (now active, empty), or 0 */
static void gen_speculation(Gen *g)
{
	int n = dspec_nspec(&g->sc->opt), end = label_new(g);
	for (int i = 1; i <= n; i++) {
		int next = label_new(g);
		emit_ld_map_value(g, BPF_REG_1, R_CONTROL, D_CTL_SPEC(i));
		emit(g, I_MOV64_IMM(BPF_REG_0, D_SPEC_FREE));
		emit(g, I_MOV64_IMM(BPF_REG_2, D_SPEC_ACTIVE));
		emit(g, ((struct bpf_insn){.code = BPF_STX | BPF_DW | BPF_ATOMIC,
					   .dst_reg = BPF_REG_1, .src_reg = BPF_REG_2,
					   .imm = BPF_CMPXCHG}));
		emit_jmp_imm(g, BPF_JNE, BPF_REG_0, D_SPEC_FREE, next);
		emit(g, I_ST(BPF_DW, BPF_REG_1, 8, 0)); /* no bytes yet */
		emit(g, I_MOV64_IMM(BPF_REG_0, i));
		emit_goto(g, end);
		label_place(g, next);
	}
	emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	label_place(g, end);
}

/* r1 = &control[spec id], from r1 = id; jumps to `bad` unless 1..nspec */
static void spec_slot_ptr(Gen *g, int bad)
{
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, bad);
	emit_jmp_imm(g, BPF_JGT, BPF_REG_1, dspec_nspec(&g->sc->opt), bad);
	emit(g, I_ALU64_IMM(BPF_MUL, BPF_REG_1, 16));
	emit_ld_map_value(g, BPF_REG_2, R_CONTROL, D_CTL_SPEC(0));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_2));
}

/* speculate(id): the clause's later records go to buffer id */
static void gen_speculate(Gen *g, const Expr *e)
{
	gen_int(g, e->args.v[0]);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, g->spec_off);
	g->speculating = true;
	if (g->heading_at_speculate) { /* the heading goes into the speculation */
		g->heading_at_speculate = false;
		gen_d_probe_event(g);
	}
}

int dspec_tag_record(Gen *g, int rec_off, int size)
{
	int skip = label_new(g), fits = label_new(g);
	emit_ldx(g, BPF_DW, BPF_REG_1, R_SCR, g->spec_off);
	spec_slot_ptr(g, skip); /* speculate(0) or a bad id: nothing recorded */
	emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_1, 0));
	emit_jmp_imm(g, BPF_JNE, BPF_REG_3, D_SPEC_ACTIVE, skip); /* inactive: dropped */
	emit(g, I_MOV64_IMM(BPF_REG_3, size));
	emit(g, ((struct bpf_insn){.code = BPF_STX | BPF_DW | BPF_ATOMIC, .dst_reg = BPF_REG_1,
				   .src_reg = BPF_REG_3, .off = 8, .imm = BPF_ADD | BPF_FETCH}));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, size)); /* bytes with this record */
	emit_ld_imm64(g, BPF_REG_4, (uint64_t)specsize(&g->sc->opt));
	emit_jmp_reg(g, BPF_JLE, BPF_REG_3, BPF_REG_4, fits);
	/* a speculative drop: counted, and the clause ends */
	emit_ld_map_value(g, BPF_REG_1, R_CONTROL, D_CTL_DROPS);
	emit(g, I_MOV64_IMM(BPF_REG_2, 1));
	emit(g, I_ATOMIC_ADD64(BPF_REG_1, BPF_REG_2, 0));
	emit_goto(g, g->exit_label);
	label_place(g, fits);
	emit_ldx(g, BPF_DW, BPF_REG_1, R_SCR, g->spec_off);
	emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_1, 32));
	emit_ldx(g, BPF_DW, BPF_REG_2, R_SCR, rec_off);
	emit(g, I_ALU64_REG(BPF_OR, BPF_REG_2, BPF_REG_1));
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_2, rec_off);
	return skip;
}

/* commit(id)/discard(id): the event that tells the runtime, then the
 * buffer is free again (a bad or inactive id does nothing) */
static void gen_spec_end(Gen *g, const Expr *e, bool commit)
{
	EventDesc *ev = event_new(g, commit ? EV_SPEC_COMMIT : EV_SPEC_DISCARD, 1);
	ev->argt[0] = e->args.v[0]->type;
	ev->argoff[0] = 8;
	ev->size = 16;
	int mark = g->scratch_top, rec = scratch_alloc(g, 16), done = label_new(g);
	emit_st(g, BPF_DW, R_SCR, rec, g->sc->events.n - 1);
	gen_int(g, e->args.v[0]);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, rec + 8);
	bool was = g->speculating;
	g->speculating = false; /* the commit itself is not speculative */
	gen_event_send(g, rec, 16, false);
	g->speculating = was;
	emit_ldx(g, BPF_DW, BPF_REG_1, R_SCR, rec + 8);
	spec_slot_ptr(g, done);
	emit(g, I_ST(BPF_DW, BPF_REG_1, 0, D_SPEC_FREE));
	label_place(g, done);
	g->scratch_top = mark;
}

static void gen_commit(Gen *g, const Expr *e)
{
	gen_spec_end(g, e, true);
}

static void gen_discard(Gen *g, const Expr *e)
{
	gen_spec_end(g, e, false);
}

static void spec_int(Gen *g, const Expr *e)
{
	(void)e;
	gen_speculation(g);
}

/* D's speculations */
static const FuncDef spec_funcs[] = {
	{"speculation", FK_EXPR, 0, 0, dcheck_speculation, FUNC_D, .gen_int = spec_int},
	{"speculate", FK_STMT, 1, 1, dcheck_speculate, FUNC_D, .gen_stmt = gen_speculate},
	{"commit", FK_STMT, 1, 1, dcheck_commit, FUNC_D, .gen_stmt = gen_commit},
	{"discard", FK_STMT, 1, 1, dcheck_commit, FUNC_D, .gen_stmt = gen_discard},
};
BUILTINS(spec_funcs)
