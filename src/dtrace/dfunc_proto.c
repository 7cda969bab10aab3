/* D's argument checks and their messages, in dtrace's words: "f( )
 * argument #N is incompatible with prototype", with the prototype and the
 * argument's type as DTrace names them. */
#include <stdint.h>
#include <stdio.h>

#include "dfunc.h"

/* C's name of an integer type (a pointer's target) */
static const char *c_int_name(const Type *t)
{
	static const char *const names[2][4] = {{"uchar_t", "ushort_t", "uint_t", "ulong_t"},
						 {"char", "short", "int", "long"}};
	int i = t->bits == 8 ? 0 : t->bits == 16 ? 1 : t->bits == 32 ? 2 : 3;
	return names[t->is_signed][i];
}

/* DTrace's name of a value's type, for its prototype messages */
static const char *d_type_word(const Type *t, char *buf, int n)
{
	if (t->kind == TY_STR)
		return "string";
	if (t->kind == TY_INT && !t->pointee)
		return t->bits == 64 ? (t->is_signed ? "int64_t" : "uint64_t") : "int";
	const Type *p = t->kind == TY_INT ? t->pointee : NULL;
	if (p && p->kind == TY_INT && !p->pointee && !p->cname) { /* int *, not int32 * */
		snprintf(buf, (size_t)n, "%s *", c_int_name(p));
		return buf;
	}
	return type_name(t, buf, n);
}

bool dsema_proto_error(Sema *s, Expr *call, int i, const char *proto)
{
	char buf[128];
	Expr *a = call->args.v[i];
	/* D's integer constants are int when they fit */
	bool small = a->kind == E_INT && a->ival <= INT32_MAX;
	return sema_error(s, a->loc, "%s( ) argument #%d is incompatible with prototype:\n"
			  "\tprototype: %s\n\t argument: %s", call->name, i + 1, proto,
			  small ? "int" : d_type_word(a->type, buf, sizeof(buf)));
}

/* a string, a char array or a pointer (read as a string) */
bool dsema_arg_str(Sema *s, Expr *call, int i)
{
	return dsema_arg_str_as(s, call, i, "const char *");
}

/* the same, with the prototype's words for the message (strtok's "char *") */
bool dsema_arg_str_as(Sema *s, Expr *call, int i, const char *proto)
{
	Expr *a = call->args.v[i];
	if (!sema_expr(s, a))
		return false;
	const Type *t = a->type;
	if ((t->kind == TY_NONE && !s->strict) || t->kind == TY_STR || type_is_ptr(t) ||
	    (t->kind == TY_ARRAY && type_csize(t->pointee) == 1))
		return true;
	return dsema_proto_error(s, call, i, proto);
}

bool dsema_arg_int(Sema *s, Expr *call, int i, const char *proto)
{
	Expr *a = call->args.v[i];
	if (!sema_expr(s, a))
		return false;
	if ((a->type->kind == TY_NONE && !s->strict) || a->type->kind == TY_INT)
		return true;
	return dsema_proto_error(s, call, i, proto);
}

bool dsema_args_str(Sema *s, Expr *c, int n)
{
	for (int i = 0; i < n; i++)
		if (!dsema_arg_str(s, c, i))
			return false;
	return true;
}

Type *dsema_string(Sema *s)
{
	return ty_str(s, s->sc->opt.strlen_max);
}
