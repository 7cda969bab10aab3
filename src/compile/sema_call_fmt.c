/* Type rules of the functions that format text: printf, cat, system,
 * print, time, strftime, join; one row each in sema_call.c's table. */
#include <string.h>

#include "sema_hooks.h"
#include "sema_call_int.h"

/* printf-style format + arguments (printf, cat, system); D's own check
 * is its printf_check hook.  bpftrace's words, at the call */
static bool format_mismatch(Sema *s, Expr *call, const FmtPiece *p, const Type *t)
{
	return sema_error_late(s, call->loc, "%s: %s specifier expects a value of type %s (%s supplied)",
			  call->name, p->word, fmt_expected_word(p), fmt_type_word(t));
}

/* The aggregation a map read `a` holds (@c after @c = count()), or NULL. */
static const Type *agg_map_value(const Expr *a)
{
	if (a->kind != E_MAP || !a->map || !a->map->val)
		return NULL;
	return type_is_agg(a->map->val) ? a->map->val : NULL;
}

/* bpftrace types an operator's value an integer even when its operands
 * are in error (1 + "a"), and what it types "none" (*comm, @never) none: a
 * format checks it as such.  False otherwise. */
static bool bt_typed_despite_error(Sema *s, Expr *a)
{
	bool arith = a->kind == E_BINOP || (a->kind == E_UNOP && a->op != OP_DEREF);
	if ((!arith && !a->none) || !sema_hooks(s)->typed_despite_error)
		return false;
	a->type = a->none ? ty_simple(s, TY_NONE, 0) : ty_int(s, 64, true);
	return true;
}

bool sema_check_format(Sema *s, Expr *call, int first)
{
	if (!sema_arg_literal_str(s, call, 0))
		return false;
	Expr *f = call->args.v[0];
	if (!f->auxp) {
		Fmt *fmt = arena_alloc(&s->sc->arena, sizeof(Fmt));
		char msg[256];
		int off = 0;
		if (!fmt_parse(f->sval, f->slen, fmt, &off, msg, sizeof(msg))) {
			Loc l = f->loc;
			l.col += off + 1;
			l.len = 1;
			l.hcol = 0;
			return sema_error_late(s, l, "%s", msg);
		}
		script_keep_fmt(s->sc, fmt);
		f->auxp = fmt;
	}
	const Fmt *fmt = f->auxp;
	int given = call->args.n - first;
	/* every error of the arguments first, as bpftrace visits them */
	bool pre = s->all, ok = true;
	for (int i = first; pre && i < call->args.n; i++)
		if (!agg_map_value(call->args.v[i]) && !sema_expr(s, call->args.v[i]))
			ok = bt_typed_despite_error(s, call->args.v[i]) && ok;
	if (!ok)
		return false;
	if (given != fmt->nargs)
		return sema_error_late(s, call->loc, "%s: %s arguments for format string (%d supplied, %d "
				  "expected)", call->name, given < fmt->nargs ? "Not enough" : "Too many",
				  given, fmt->nargs);
	int ai = first;
	for (int i = 0; i < fmt->npieces; i++) {
		const FmtPiece *p = &fmt->pieces[i];
		if (p->conv == FC_LITERAL)
			continue;
		Expr *a = call->args.v[ai++];
		const Type *agg = agg_map_value(a);
		if (agg) /* bpftrace names the aggregation: "(count supplied)" */
			return format_mismatch(s, call, p, agg);
		if (!pre && !sema_expr(s, a))
			return false;
		if (a->type->kind == TY_NONE && !s->strict)
			continue;
		if (!fmt_accepts(p, a->type))
			return format_mismatch(s, call, p, a->type);
		if (sema_hooks(s)->format_conv)
			sema_hooks(s)->format_conv((FmtPiece *)p, a->type);
	}
	return true;
}

bool sema_check_printf(Sema *s, Expr *c)
{
	if (sema_hooks(s)->printf_check)
		return sema_hooks(s)->printf_check(s, c);
	return sema_check_format(s, c, 1);
}

bool sema_check_system(Sema *s, Expr *c)
{
	bool ok = s->sc->opt.unsafe ||
		  sema_error(s, c->loc, "system() is an unsafe function being used in safe mode\n"
			     "hint: --unsafe allows it");
	if (!ok && !s->all)
		return false;
	return sema_check_format(s, c, 1) && ok;
}

bool sema_check_print(Sema *s, Expr *c)
{
	Expr *a = c->args.v[0];
	if (a->kind == E_MAP && !a->args.n) {
		bool ok = true;
		for (int i = 1; i < c->args.n && (ok || s->all); i++)
			ok &= sema_hooks(s)->print_arg ? sema_hooks(s)->print_arg(s, c, i)
						       : sema_arg_literal_int(s, c, i, &(int64_t){0});
		c->aux = 1; /* a whole map */
		if (!(ok || s->all) || !sema_arg_map(s, c, 0, false) || !ok)
			return false;
		if (c->args.n > 1 && a->map->val && a->map->val->kind == TY_STATS)
			sema_warn(s, c->loc, "print()'s top and div arguments are ignored when used on "
				  "stats() maps.");
		return true;
	}
	if (a->kind == E_MAP) { /* print(@m[k]) of count() etc. */
		a->map = script_map(s->sc, a->name, a->loc);
		if (agg_map_value(a))
			return sema_error(s, c->loc, "The map passed to print() should not be indexed by a "
					  "key\nhint: print(%s) prints every key", a->map->print_name);
	}
	if (c->args.n > 1 && sema_hooks(s)->print_value_args)
		return sema_hooks(s)->print_value_args(s, c);
	if (c->args.n > 1)
		return sema_error(s, c->loc, "print() of a value takes one argument");
	if (!sema_expr(s, a))
		return false;
	if (a->type->kind == TY_CTX || type_is_agg(a->type))
		return sema_error(s, a->loc, "print() cannot print this value");
	if (type_is_ptr(a->type) || (a->type->ctx && a->type->kind == TY_RECORD)) {
		char n[160]; /* bpftrace 0.17 prints neither pointers nor the context */
		return sema_error(s, c->loc, "%s type passed to print() is not printable",
				  type_name(a->type, n, sizeof(n)));
	}
	return true;
}

bool sema_check_time(Sema *s, Expr *c)
{
	return c->args.n == 0 || sema_arg_literal_str(s, c, 0);
}

bool sema_check_strftime(Sema *s, Expr *c)
{
	if (!sema_arg_literal_str(s, c, 0) || !sema_arg_int(s, c, 1))
		return false;
	c->type = ty_simple(s, TY_TIMESTAMP, 8);
	c->type->fmt = c->args.v[0]->sval;
	return true;
}

bool sema_check_join(Sema *s, Expr *c)
{
	return sema_arg_int(s, c, 0) && (c->args.n < 2 || sema_arg_literal_str(s, c, 1));
}
