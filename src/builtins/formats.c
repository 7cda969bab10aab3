/* The functions that format text: printf, cat, system, print, time,
 * strftime, join; each one's type rule and code generation (an event
 * whose record the runtime formats: runtime/events.c, value_format.c,
 * map_print.c).  The format check itself is the core's
 * (compile/sema_call_fmt.c: sema_check_format), which debugf() and D's
 * trace() share; D checks printf()'s format its own way (its printf_check
 * hook). */
#include <string.h>

#include "../compile/codegen.h"
#include "../compile/sema_hooks.h"
#include "builtins.h"

/* printf(fmt, ...) and cat(fmt, ...): the dialect's format check */
static bool check_printf(Sema *s, Expr *c)
{
	if (sema_hooks(s)->printf_check)
		return sema_hooks(s)->printf_check(s, c);
	return sema_check_format(s, c, 1);
}

/* printf's event; in a pinned iterator written by the kernel instead
 * (codegen_seq.c) */
static void gen_printf(Gen *g, const Expr *e)
{
	if (g->spec && g->spec->pin) {
		gen_seq_printf(g, e);
		return;
	}
	gen_format_event(g, EV_PRINTF, e);
}


/* errorf()/warnf(): printf's check, and the whole call as the place */
static bool check_diag(Sema *s, Expr *c)
{
	c->loc = loc_call_span(&s->sc->ast->src, c->loc);
	return check_printf(s, c);
}

/* bpftrace 0.26's errorf(fmt, ...), warnf(fmt, ...): printf's record,
 * printed as an error or a warning at the call (runtime/events.c) */
static void gen_diag(Gen *g, const Expr *e, const char *severity)
{
	EventDesc *ev = gen_format_event(g, EV_DIAG, e);
	ev->text = severity;
	ev->loc = e->loc; /* in a macro's body: its Loc.exp names the call */
}

static void gen_errorf(Gen *g, const Expr *e)
{
	gen_diag(g, e, "ERROR");
}

static void gen_warnf(Gen *g, const Expr *e)
{
	gen_diag(g, e, "WARNING");
}

static void gen_cat(Gen *g, const Expr *e)
{
	gen_format_event(g, EV_CAT, e);
}

static bool check_system(Sema *s, Expr *c)
{
	bool ok = s->sc->opt.unsafe ||
		  sema_error(s, c->loc, "system() is an unsafe function being used in safe mode\n"
			     "hint: --unsafe allows it");
	if (!ok && !s->all)
		return false;
	return sema_check_format(s, c, 1) && ok;
}

/* the runtime runs the formatted command (D's system() too) */
void builtin_gen_system(Gen *g, const Expr *e)
{
	gen_format_event(g, EV_SYSTEM, e);
}

/* print(@m[k]) of an aggregation no number sums up, in bpftrace 0.26's
 * words: those keyed by bucket (hist, lhist, tseries) print whole maps
 * only; stats() is no printable value */
static bool print_agg_key(Sema *s, Expr *c, const Type *agg)
{
	c->loc = loc_call_span(&s->sc->ast->src, c->loc); /* 0.26 marks the call */
	if (agg->kind == TY_HIST || agg->kind == TY_LHIST || agg->kind == TY_TSERIES)
		return sema_error(s, c->loc, "Map type %s_t cannot print the value of individual "
				  "keys. You must print the whole map.", bpf_tn(agg));
	return sema_error(s, c->loc, "%s_t type passed to print() is not printable", bpf_tn(agg));
}

/* print(@m[, top[, div]]) of a whole map (c->aux), or print(value) */
static bool check_print(Sema *s, Expr *c)
{
	Expr *a = c->args.v[0];
	const SemaHooks *h = sema_hooks(s);
	if (a->kind == E_MAP && !a->args.n) {
		bool ok = true;
		for (int i = 1; i < c->args.n && (ok || s->all); i++)
			ok &= h->print_arg ? h->print_arg(s, c, i)
					   : sema_arg_literal_int(s, c, i, &(int64_t){0});
		c->aux = 1; /* a whole map */
		if (!(ok || s->all) || !sema_arg_map(s, c, 0, false) || !ok)
			return false;
		if (c->args.n > 1 && a->map->val && a->map->val->kind == TY_STATS)
			sema_warn(s, c->loc, "print()'s top and div arguments are ignored when used on "
				  "stats() maps.");
		return true;
	}
	if (a->kind == E_MAP) { /* print(@m[k]) of hist() etc. (and 0.17's of count()) */
		a->map = script_map(s->sc, a->name, a->loc);
		const Type *agg = sema_map_agg_value(s, a);
		if (agg && h->agg_values)
			return print_agg_key(s, c, agg);
		if (agg)
			return sema_error(s, c->loc, "The map passed to print() should not be indexed by a "
					  "key\nhint: print(%s) prints every key", a->map->print_name);
	}
	if (c->args.n > 1 && h->print_value_args)
		return h->print_value_args(s, c);
	if (c->args.n > 1)
		return sema_error(s, c->loc, "print() of a value takes one argument");
	sema_args_value(s, a);
	if (!sema_expr(s, a))
		return false;
	if (a->type->kind == TY_CTX || type_is_agg(a->type))
		return sema_error(s, a->loc, "print() cannot print this value");
	bool ptr_ok = type_is_ptr(a->type) && !a->type->ctx && h->print_pointers; /* ctx: as 0.26 */
	if ((type_is_ptr(a->type) && !ptr_ok) || (a->type->ctx && a->type->kind == TY_RECORD)) {
		char n[160]; /* bpftrace 0.17 prints neither pointers nor the context */
		return sema_error(s, c->loc, "%s type passed to print() is not printable",
				  type_name(a->type, n, sizeof(n)));
	}
	return true;
}

/* a value's event, or the map's: the runtime prints the map's entries */
static void gen_print(Gen *g, const Expr *e)
{
	if (!e->aux) {
		gen_args_event(g, EV_PRINT_VALUE, e, 0);
		return;
	}
	EventDesc *ev = event_new(g, EV_PRINT_MAP, 0);
	ev->map = e->args.v[0]->map;
	ev->top = e->args.n > 1 ? cg_literal_int(e->args.v[1]) : 0;
	ev->div = e->args.n > 2 ? cg_literal_int(e->args.v[2]) : 0;
	gen_simple_event(g, ev);
}

static bool check_time(Sema *s, Expr *c)
{
	return c->args.n == 0 || sema_arg_literal_str(s, c, 0);
}

/* the runtime prints the time it receives the event at */
static void gen_time(Gen *g, const Expr *e)
{
	EventDesc *ev = event_new(g, EV_TIME, 0);
	ev->text = e->args.n ? e->args.v[0]->sval : "%H:%M:%S\n";
	gen_simple_event(g, ev);
}

static bool check_strftime(Sema *s, Expr *c)
{
	if (!sema_arg_literal_str(s, c, 0) || !sema_arg_int(s, c, 1))
		return false;
	c->type = ty_simple(s, TY_TIMESTAMP, 8);
	c->type->fmt = c->args.v[0]->sval;
	return true;
}

/* the time in nanoseconds; printed with the format by its type */
static void gen_strftime(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	(void)dt;
	gen_int(g, e->args.v[1]);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, dst_off);
}

static bool check_join(Sema *s, Expr *c)
{
	return sema_arg_int(s, c, 0) && (c->args.n < 2 || sema_arg_literal_str(s, c, 1));
}

/* join(argv): up to 16 user strings from an array of pointers */
#define JOIN_MAX 16
static void gen_join(Gen *g, const Expr *e)
{
	int sl = g->sc->opt.strlen_max;
	EventDesc *ev = event_new(g, EV_JOIN, JOIN_MAX);
	ev->text = e->args.n > 1 ? e->args.v[1]->sval : " ";
	Type *st = arena_alloc(&g->sc->arena, sizeof(Type));
	st->kind = TY_STR;
	st->size = sl;
	for (int i = 0; i < JOIN_MAX; i++) {
		ev->argt[i] = st;
		ev->argoff[i] = ev->size;
		ev->size += (sl + 7) & ~7;
	}
	int mark = g->scratch_top, done = label_new(g);
	int rec = scratch_alloc(g, ev->size), ptrs = scratch_alloc(g, 8 * JOIN_MAX);
	emit_memzero(g, rec, ev->size);
	emit_st(g, BPF_DW, R_SCR, rec, g->sc->events.n - 1);
	gen_int(g, e->args.v[0]);
	emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_0));
	emit_scratch_ptr(g, BPF_REG_1, ptrs);
	emit(g, I_MOV64_IMM(BPF_REG_2, 8 * JOIN_MAX));
	emit_call(g, BPF_FUNC_probe_read);
	for (int i = 0; i < JOIN_MAX; i++) {
		emit_ldx(g, BPF_DW, BPF_REG_3, R_SCR, ptrs + 8 * i);
		emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, 0, done);
		emit_scratch_ptr(g, BPF_REG_1, rec + ev->argoff[i]);
		emit(g, I_MOV64_IMM(BPF_REG_2, sl));
		emit_call(g, BPF_FUNC_probe_read_str);
	}
	label_place(g, done);
	gen_event_send(g, rec, ev->size, false);
	g->scratch_top = mark;
}

static const FuncDef format_funcs[] = {
	{"printf", FK_STMT, 1, 64, check_printf, .gen_stmt = gen_printf},
	{"print", FK_STMT, 1, 3, check_print, .gen_stmt = gen_print},
	{"time", FK_STMT, 0, 1, check_time, .gen_stmt = gen_time},
	{"strftime", FK_EXPR, 2, 2, check_strftime, .gen_into = gen_strftime},
	{"cat", FK_STMT, 1, 64, check_printf, .gen_stmt = gen_cat},
	{"errorf", FK_STMT, 1, 64, check_diag, .gen_stmt = gen_errorf, .sets = FSET_BT_STDLIB},
	{"warnf", FK_STMT, 1, 64, check_diag, .gen_stmt = gen_warnf, .sets = FSET_BT_STDLIB},
	{"system", FK_STMT, 1, 64, check_system, .gen_stmt = builtin_gen_system},
	{"join", FK_STMT, 1, 2, check_join, .gen_stmt = gen_join},
};
BUILTINS(format_funcs)
