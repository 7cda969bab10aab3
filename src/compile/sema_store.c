/* Stores into places other than a whole map element or variable: a member
 * or element of a struct/array held in a map or variable (`i[k].calls++`,
 * `this->s.a = 1`, `x[2] = 7` for `int x[5]`), and the memory a pointer
 * variable points at (`*this->p = 5`, `this->s->a = 1`, `p[3] = 1`).
 * The bpftrace dialect's parser takes only maps and variables as targets,
 * so these come from the D front end; codegen_store.c generates them. */
#include <string.h>

#include "sema_hooks.h"

/* a place reached through a pointer: its memory is not the variable's */
bool sema_store_via_pointer(const Expr *t)
{
	if (t->kind == E_UNOP)
		return true;
	if (t->kind == E_FIELD)
		return t->arrow;
	return t->kind == E_INDEX && type_is_ptr(t->a->type);
}

/* The variable a place belongs to (a map element or a variable), or the
 * pointer variable it is reached through; NULL when there is none (a
 * builtin's, a cast's or a call's memory: not writable). */
static const Expr *store_root(const Expr *t)
{
	while (t->kind == E_FIELD || t->kind == E_INDEX || t->kind == E_UNOP) {
		bool ptr = sema_store_via_pointer(t);
		t = t->a;
		if (ptr)
			break;
	}
	return t->kind == E_MAP || t->kind == E_VAR ? t : NULL;
}

bool sema_store_target(Sema *s, Expr *t, const char *op)
{
	const Expr *root = store_root(t);
	if (!root)
		return sema_error(s, t->loc, "operator %s can only be applied to a writable variable",
				  op);
	if (!sema_expr(s, t))
		return false;
	if (t->type->kind == TY_NONE && !s->strict)
		return true;
	const Field *f = t->kind == E_FIELD ? t->auxp : NULL;
	if (f && f->bit_width)
		return sema_error(s, t->loc, "a store into bit-field %s is not supported", t->name);
	if (t->type->ctx || t->type->kind == TY_CTX)
		return sema_error(s, t->loc, "operator %s can only be applied to a writable variable",
				  op);
	if (sema_store_via_pointer(t)) /* checked against the clause's scratch memory */
		s->sc->uses_dscratch = true;
	if (t->type->kind != TY_INT && t->type->kind != TY_RECORD && t->type->kind != TY_ARRAY &&
	    t->type->kind != TY_STR)
		return sema_error(s, t->loc, "cannot store a value of type %s there", tn(t->type));
	return true;
}

/* `place = v` and `place op= v` */
bool sema_store_assign(Sema *s, Stmt *st)
{
	Expr *t = st->target, *v = st->expr;
	if (!sema_store_target(s, t, st->op == OP_NONE ? "=" : "op=") || !sema_expr(s, v))
		return false;
	if ((t->type->kind == TY_NONE || v->type->kind == TY_NONE) && !s->strict)
		return true;
	bool num = t->type->kind == TY_INT;
	if (st->op != OP_NONE && (!num || v->type->kind != TY_INT))
		return sema_error(s, st->loc, "operator op= needs an integer on both sides");
	if (num != (v->type->kind == TY_INT) ||
	    (!num && t->type->kind != v->type->kind &&
	     !(t->type->kind == TY_STR && v->type->kind == TY_STR)))
		return sema_hooks(s)->var_mismatch(s, st, t->type, v->type);
	if (t->type->kind == TY_RECORD && v->type->kind == TY_RECORD && t->type->cname &&
	    v->type->cname && strcmp(t->type->cname, v->type->cname))
		return sema_hooks(s)->var_mismatch(s, st, t->type, v->type);
	return true;
}
