/* The format check of the printf-style functions (printf, cat, system:
 * builtins/formats.c; debugf: builtins/ctx.c; D's trace() made a printf):
 * the format parsed and its conversions against the arguments, with
 * bpftrace's words.  D's printf() checks its own way (printf_check). */
#include <string.h>

#include "sema_hooks.h"
#include "builtin.h"

/* printf-style format + arguments (printf, cat, system); D's own check
 * is its printf_check hook.  bpftrace's words, at the call */
static bool format_mismatch(Sema *s, Expr *call, const FmtPiece *p, const Type *t)
{
	return sema_error_late(s, call->loc, "%s: %s specifier expects a value of type %s (%s supplied)",
			  call->name, p->word, fmt_expected_word(p), fmt_type_word(t));
}

/* The aggregation a map read `a` holds (@c after @c = count()), or NULL;
 * NULL too where the dialect reads it as a number (SemaHooks.agg_values) */
const Type *sema_map_agg_value(Sema *s, const Expr *a)
{
	if (a->kind != E_MAP || !a->map || !a->map->val || !type_is_agg(a->map->val))
		return NULL;
	return type_agg_scalar(a->map->val) && sema_hooks(s)->agg_values ? NULL : a->map->val;
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
		if (!sema_map_agg_value(s, call->args.v[i]) && !sema_expr(s, call->args.v[i]))
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
		const Type *agg = sema_map_agg_value(s, a);
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
