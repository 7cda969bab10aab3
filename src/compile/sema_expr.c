/* An expression's type: sema_expr dispatches on its kind (once per probe
 * visit where the dialect asks), and checks the small kinds itself:
 * literals, fields (of tracepoints, tuples, records), tuples and
 * positional parameters. */
#include "sema_int.h"

#include <stdlib.h>
#include <string.h>

bool sema_exprs2(Sema *s, Expr *a, Expr *b)
{
	bool ok = sema_expr(s, a);
	if (!ok && !s->all)
		return false;
	return sema_expr(s, b) && ok;
}

bool sema_need_int(Sema *s, Expr *e, const char *what)
{
	if (!sema_expr(s, e))
		return false;
	if (e->type->kind == TY_NONE && !s->strict)
		return true;
	if (e->type->kind != TY_INT)
		return sema_error_late(s, e->loc, "%s must be an integer, not %s", what, tn(e->type));
	return true;
}

/* a condition: an integer, or the dialect's checks and words */
bool sema_need_cond(Sema *s, Expr *c, CondKind where, const char *what)
{
	const SemaHooks *h = sema_hooks(s);
	if (!h->cond)
		return sema_need_int(s, c, what);
	return sema_expr(s, c) && h->cond(s, c, where);
}

static bool sema_tp_field(Sema *s, Expr *e)
{
	if (e->a->kind == E_BUILTIN && e->a->aux2 == B_LOCALS)
		return sema_uprobe_local(s, e, false);
	if (s->spec->uevent)
		return sema_uevent_field(s, e);
	if (s->spec->dwarf)
		return sema_uprobe_arg(s, e);
	if (s->spec->prov->args == ARGS_DWARF) /* a line probe, FUNC+OFF */
		return sema_uprobe_local(s, e, true);
	const TpField *f = tp_format_field(&s->spec->tp, e->name);
	if (!f)
		return sema_error(s, e->loc, "Struct/union of type 'struct _tracepoint_%s_%s' does not "
				  "contain a field named '%s'", s->spec->target, s->spec->func, e->name);
	e->auxp = (void *)f;
	if (f->is_str) {
		int size = f->is_data_loc ? s->sc->opt.strlen_max : f->array_len;
		e->type = ty_str(s, size > 0 ? size : 1);
	} else if (f->is_ptr && sema_ctype_tp_field(s, f->type)) {
		e->type = sema_ctype_tp_field(s, f->type);
	} else if (f->array_len > 0 || f->size > 8 || f->size <= 0) {
		return sema_error(s, e->loc, "field '%s' of %s is an array (%s): arrays come with the "
				  "kernel types issue", e->name, s->spec->name, f->type);
	} else {
		e->type = ty_int(s, f->size * 8, f->is_ptr ? false : f->is_signed);
		sema_ctype_tp_enum(s, f->type, e->type);
	}
	return true;
}

/* record.name: the element of that name */
static bool sema_record_field(Sema *s, Expr *e)
{
	const Type *t = e->a->type;
	for (int i = 0; i < t->nelem; i++)
		if (!strcmp(t->names[i], e->name)) {
			e->aux = i;
			e->type = t->elem[i];
			return true;
		}
	return sema_error(s, e->loc, "Record does not contain a field named '%s'", e->name);
}

static bool sema_field(Sema *s, Expr *e)
{
	if (!sema_expr(s, e->a))
		return false;
	Type *t = e->a->type;
	/* a field bpftrace cannot find leaves the access untyped */
	if (t->kind == TY_CTX)
		return sema_tp_field(s, e) || (e->none = true, false);
	if (t->kind == TY_TUPLE && t->names)
		return sema_record_field(s, e);
	if (t->kind == TY_TUPLE) {
		char *end;
		long i = strtol(e->name, &end, 10);
		if (*end || i < 0 || i >= t->nelem)
			return sema_error_late(s, e->loc, "tuple index .%s is out of range (the tuple has %d "
					  "elements)", e->name, t->nelem);
		e->aux = (int)i;
		e->type = t->elem[i];
		return true;
	}
	if (t->kind == TY_NONE && !s->strict) {
		e->type = t;
		return true;
	}
	if (t->kind == TY_RECORD || type_is_ptr(t))
		return sema_ctype_member(s, e) || (e->none = true, false);
	return sema_error(s, e->loc, "a value of type %s has no field '%s'", tn(t), e->name);
}

static bool sema_tuple(Sema *s, Expr *e)
{
	Type *el[e->args.n];
	for (int i = 0; i < e->args.n; i++) {
		Expr *a = e->args.v[i];
		sema_args_value(s, a);
		if (!sema_expr(s, a)) /* bpftrace too stops at a tuple's first error */
			return false;
		if (a->type->kind == TY_NONE && !s->strict) {
			e->type = a->type;
			return true;
		}
		if (!sema_storable(a->type))
			return sema_error(s, a->loc, "a value of type %s cannot be part of a tuple", tn(a->type));
		el[i] = a->type;
	}
	/* laid out at the elements' own widths first (for sizeof), then stored */
	Type *t = ty_tuple(s, el, e->args.n);
	t->names = e->names;
	e->type = sema_storage_type(s, t);
	return true;
}

static bool sema_posparam(Sema *s, Expr *e)
{
	const Options *o = &s->sc->opt;
	if (e->ival < 1 || (int)e->ival > o->nparams) {
		e->type = ty_int(s, 64, true);
		e->aux = 0; /* missing parameters read as 0, as in bpftrace */
		return true;
	}
	const char *p = o->params[e->ival - 1];
	char *end;
	long long v = strtoll(p, &end, 0);
	if ((!*p || *end) && sema_hooks(s)->posparam_strings) {
		e->kind = E_STR; /* as the literal "p" would be */
		e->slen = strlen(p);
		e->sval = arena_strndup(&s->sc->arena, p, e->slen);
		return sema_expr(s, e);
	}
	if (!*p || *end)
		return sema_error(s, e->loc, "$%d is '%s', not a number: use str($%d) for a string",
				  (int)e->ival, p, (int)e->ival);
	e->aux = 1;
	e->type = ty_int(s, 64, true);
	(void)v;
	return true;
}

/* a positional parameter where an integer literal is wanted (lhist's
 * bounds, buf's length, ustack's depth, strncmp's length): a number (a
 * missing parameter: 0) becomes the literal it spells, as bpftrace folds
 * it in both generations; anything else is left to the caller's check */
void sema_posparam_fold(Sema *s, Expr *e)
{
	if (e->kind != E_POSPARAM)
		return;
	const Options *o = &s->sc->opt;
	const char *p = e->ival >= 1 && (int)e->ival <= o->nparams ? o->params[e->ival - 1] : "0";
	char *end;
	long long v = strtoll(p, &end, 0);
	if (!*p || *end)
		return;
	e->kind = E_INT;
	e->ival = (uint64_t)v;
}

/* unroll($1): a numeric positional parameter becomes the literal it is
 * (a missing one is 0, as in bpftrace) */
bool sema_posparam_literal(Sema *s, Expr *e)
{
	if (!sema_posparam(s, e))
		return false;
	e->kind = E_INT;
	e->ival = e->aux ? (uint64_t)strtoll(s->sc->opt.params[e->ival - 1], NULL, 0) : 0;
	return true;
}

static bool sema_expr_kind(Sema *s, Expr *e);

static bool sema_expr_typed(Sema *s, Expr *e);
static bool sema_expr_checked(Sema *s, Expr *e);

bool sema_expr(Sema *s, Expr *e)
{
	/* once per probe visit: checking an operand first, then again in the
	 * check of what holds it, would cost 2^depth on nested operators */
	bool memo = sema_hooks(s)->check_once && s->visit;
	if (memo && e->visit == s->visit)
		return e->visit_ok;
	bool ok = sema_expr_checked(s, e);
	if (memo) {
		e->visit = s->visit;
		e->visit_ok = ok;
	}
	return ok;
}

static bool sema_expr_checked(Sema *s, Expr *e)
{
	if (!sema_expr_typed(s, e))
		return false;
	if (e->kind != E_BINOP) /* sema_binop tags it (and warns) before its own warnings */
		sema_addrspace(s, e);
	return true;
}

static bool sema_expr_kind(Sema *s, Expr *e);

/* bpftrace types a read through a "none" value none too: a field, an
 * element, a pointee, the left arm of a ?: */
static bool none_through(const Expr *e)
{
	switch (e->kind) {
	case E_FIELD:
	case E_INDEX: return e->a->none;
	case E_UNOP: return e->op == OP_DEREF && e->a->none;
	case E_TERNARY: return e->b->none;
	default: return false;
	}
}

static bool sema_expr_typed(Sema *s, Expr *e)
{
	e->none = false;
	if (sema_expr_kind(s, e)) {
		if (sema_hooks(s)->enum_names)
			sema_enum_named(s, e);
		return true;
	}
	e->none |= s->all && none_through(e);
	return false;
}

static bool sema_expr_kind(Sema *s, Expr *e)
{
	switch (e->kind) {
	case E_INT:
		if (e->lit == LIT_BOOL) /* bpftrace 0.26's true, false */
			e->type = ty_bool(s);
		else if (e->lit && e->lit != LIT_ENUM) /* D: the constant's C type */
			e->type = ty_int(s, e->lit <= LIT_UINT ? 32 : 64,
					 e->lit == LIT_INT || e->lit == LIT_LONG);
		else
			e->type = ty_int(s, 64, e->ival <= INT64_MAX);
		return true;
	case E_STR: {
		int size = (int)e->slen + 1;
		if (sema_hooks(s)->strsize_strings && size > s->sc->opt.strlen_max)
			size = s->sc->opt.strlen_max; /* its value; its text stays whole */
		e->type = ty_str(s, size);
		return true;
	}
	case E_BUILTIN:
		/* bpftrace leaves a builtin it refuses (args in BEGIN) untyped */
		e->none = !sema_builtin(s, e);
		return !e->none;
	case E_POSPARAM:
		return sema_posparam(s, e);
	case E_POSCOUNT:
		e->type = ty_int(s, 64, true);
		return true;
	case E_VAR:
		return sema_var(s, e);
	case E_MAP:
		return sema_map(s, e);
	case E_CALL:
		return sema_call(s, e, CALL_EXPR);
	case E_BINOP:
		return sema_binop(s, e);
	case E_UNOP:
		return sema_unop(s, e);
	case E_TERNARY:
		return sema_ternary(s, e);
	case E_FIELD:
		return sema_field(s, e);
	case E_INDEX:
		return sema_ctype_index(s, e);
	case E_CAST:
		return sema_cast(s, e);
	case E_TUPLE:
		return sema_tuple(s, e);
	case E_INCDEC:
		if (!sema_incdec_held(s, e))
			return false;
		if (!sema_lvalue_int(s, e->a, e->op == OP_ADD ? "++" : "--"))
			return false;
		/* a pointer's ++ is that pointer, as in bpftrace: ($p++)->field */
		e->type = type_is_ptr(e->a->type) ? e->a->type : ty_int(s, 64, true);
		return true;
	case E_SIZEOF:
		return sema_sizeof(s, e);
	case E_BLOCK:
		return sema_block(s, e);
	case E_RANGE: /* a for loop's (sema_loop.c) */
		return sema_error(s, e->loc, "a range is only a for loop's");
	}
	return sema_error(s, e->loc, "unknown expression");
}
