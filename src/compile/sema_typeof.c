/* bpftrace 0.26's typeof(X) as the type of a cast or a `let`: X names a
 * type (a typedef written as a lone name, `typeof(size_t)`), or is an
 * expression whose type the cast takes; X is never run.  The parser
 * (lang/parse_type.c) leaves a type's text in the E_CAST's name and an
 * expression in its b; a `let $x: typeof(X);` without a value leaves its
 * a NULL, the type's zero.  Also a type as 0.26 writes it (typeinfo()). */
#include <string.h>

#include "sema_int.h"

/* the cast words of an integer type (sema_ops.c's cast_type) */
static const char *int_type_text(const Type *t)
{
	static const char *const names[2][4] = {{"uint8", "uint16", "uint32", "uint64"},
						{"int8", "int16", "int32", "int64"}};
	int i = t->bits == 8 ? 0 : t->bits == 16 ? 1 : t->bits == 32 ? 2 : 3;
	return names[t->is_signed][i];
}

static void tuple_text(const Type *t, StrBuf *b)
{
	sb_puts(b, t->names ? "record { " : "(");
	for (int i = 0; i < t->nelem; i++) {
		if (i)
			sb_puts(b, t->names ? ", " : ",");
		if (t->names)
			sb_printf(b, ".%s = ", t->names[i]);
		sema_type_text(t->elem[i], b);
	}
	sb_puts(b, t->names ? " }" : ")");
}

/* bpftrace 0.26's text of a type: "uint64", "string[4]", "(int64,bool)",
 * "record { .a = int64 }", "struct task_struct *" */
void sema_type_text(const Type *t, StrBuf *b)
{
	char n[128];
	if (t->kind == TY_INT && t->pointee) {
		sema_type_text(t->pointee, b);
		sb_puts(b, " *");
	} else if (t->kind == TY_INT && t->cname && !strncmp(t->cname, "enum ", 5)) {
		sb_puts(b, t->cname);
	} else if (t->kind == TY_INT) {
		sb_puts(b, t->is_bool ? "bool" : int_type_text(t));
	} else if (t->kind == TY_STR) {
		sb_printf(b, "string[%d]", t->size);
	} else if (t->kind == TY_TUPLE) {
		tuple_text(t, b);
	} else if (t->kind == TY_ARRAY) {
		sema_type_text(t->pointee, b);
		sb_printf(b, "[%d]", t->count);
	} else {
		sb_puts(b, type_name(t, n, sizeof(n)));
	}
}

/* bpftrace 0.26's word for a type's kind (typeinfo()'s base_ty) */
const char *sema_type_base(const Type *t)
{
	switch (t->kind) {
	case TY_INT: return t->pointee ? "pointer" : t->is_bool ? "bool" : "int";
	case TY_STR: return "string";
	case TY_TUPLE: return t->names ? "record" : "tuple";
	case TY_RECORD: return "c_struct";
	case TY_ARRAY: return "array";
	case TY_BUF: return "buffer";
	case TY_INET: return "inet";
	case TY_TIMESTAMP: return "timestamp";
	case TY_MACADDR: return "mac_address";
	case TY_USERNAME: return "username";
	case TY_KSTACK: return "kstack";
	case TY_USTACK: return "ustack";
	case TY_KSYM: return "ksym_t";
	case TY_USYM: return "usym_t";
	default: return tn(t);
	}
}

/* (typeof(x))v, x a string, tuple, record or other stored value: v of
 * x's kind (a string or a tuple's strings widen as a variable's value
 * does), or none, the type's zero */
static bool typeof_value(Sema *s, Expr *e, Type *t)
{
	if (!sema_storable(t))
		return sema_error(s, e->b->loc, "typeof: a value of type %s cannot be stored", tn(t));
	e->type = t;
	if (!e->a)
		return true;
	if (!sema_expr(s, e->a))
		return false;
	bool grew = false;
	if (sema_merge_type(s, &e->type, e->a->type, &grew))
		return true;
	StrBuf from = {0}, to = {0};
	sema_type_text(e->a->type, &from);
	sema_type_text(t, &to);
	sema_error(s, e->a->loc, "Cannot cast from \"%s\" to \"%s\"", from.s, to.s);
	sb_free(&from);
	sb_free(&to);
	return false;
}

/* `let $x: typeof(X);` of an integer or a pointer: 0 cast to it */
static void int_zero(Sema *s, Expr *e)
{
	if (!e->a)
		e->a = expr_new(s->sc->ast, E_INT, e->loc);
}

bool sema_typeof_cast(Sema *s, Expr *e)
{
	Expr *x = e->b;
	if (sema_ctype_name_type(s, x)) { /* typeof(size_t) */
		e->name = x->name;
		int_zero(s, e);
		return sema_cast(s, e);
	}
	if (!sema_expr(s, x))
		return false;
	Type *t = x->type;
	if (t->kind == TY_INT && !t->pointee) {
		e->name = (char *)int_type_text(t);
		int_zero(s, e);
		return sema_cast(s, e);
	}
	if (type_is_ptr(t)) {
		const SemaHooks *h = sema_hooks(s);
		int_zero(s, e);
		if (h->cast && !h->cast(s, e, false))
			return false;
		return sema_ctype_cast_to(s, e, t);
	}
	return typeof_value(s, e, t);
}
