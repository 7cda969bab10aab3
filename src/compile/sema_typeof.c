/* bpftrace 0.26's typeof(X) as the type of a cast or a `let`: X names a
 * type (a typedef written as a lone name, `typeof(size_t)`), or is an
 * expression whose type the cast takes; X is never run.  The parser
 * (lang/parse_type.c) leaves a type's text in the E_CAST's name and an
 * expression in its b. */
#include "sema_int.h"

/* the cast words of an integer type (sema_ops.c's cast_type) */
static const char *int_type_text(const Type *t)
{
	static const char *const names[2][4] = {{"uint8", "uint16", "uint32", "uint64"},
						{"int8", "int16", "int32", "int64"}};
	int i = t->bits == 8 ? 0 : t->bits == 16 ? 1 : t->bits == 32 ? 2 : 3;
	return names[t->is_signed][i];
}

bool sema_typeof_cast(Sema *s, Expr *e)
{
	Expr *x = e->b;
	if (sema_ctype_name_type(s, x)) { /* typeof(size_t) */
		e->name = x->name;
		return sema_cast(s, e);
	}
	if (!sema_expr(s, x))
		return false;
	Type *t = x->type;
	if (t->kind == TY_INT && !t->pointee) {
		e->name = (char *)int_type_text(t);
		return sema_cast(s, e);
	}
	if (type_is_ptr(t)) {
		const SemaHooks *h = sema_hooks(s);
		if (h->cast && !h->cast(s, e, false))
			return false;
		return sema_ctype_cast_to(s, e, t);
	}
	return sema_error(s, x->loc, "typeof: sonde takes integer and pointer types only, not %s",
			  tn(t));
}
