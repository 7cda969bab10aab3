/* Type rules of the string and byte functions bpftrace 0.17 has beside
 * str(): strncmp, strcontains, bswap, strerror, pton, macaddr; one row each
 * in sema_call.c's table. */
#include <arpa/inet.h>
#include <string.h>

#include "sema.h"
#include "sema_call_int.h"

/* strncmp(a, b, n): 0 when the first n bytes are equal */
bool sema_check_strncmp(Sema *s, Expr *c)
{
	int64_t n;
	if (!sema_arg_kind(s, c, 0, TY_STR) || !sema_arg_kind(s, c, 1, TY_STR))
		return false;
	if (c->args.v[2]->kind != E_INT && s->sc->opt.dialect == DIALECT_BPFTRACE)
		return sema_bt_not_literal(s, c, c->args.v[2], "integer");
	if (c->args.v[2]->kind != E_INT)
		return sema_error(s, c->args.v[2]->loc, "strncmp() expects an integer literal as its "
				  "length");
	if (!sema_arg_literal_int(s, c, 2, &n))
		return false;
	c->type = ty_int(s, 64, false);
	return true;
}

/* strcontains(hay, needle): 1 when needle occurs in hay */
bool sema_check_strcontains(Sema *s, Expr *c)
{
	if (!sema_arg_kind(s, c, 0, TY_STR) || !sema_arg_kind(s, c, 1, TY_STR))
		return false;
	c->type = ty_int(s, 64, false);
	return true;
}

/* bswap(x): the bytes of x reversed, at x's width, unsigned (as bpftrace) */
bool sema_check_bswap(Sema *s, Expr *c)
{
	if (!sema_arg_kind(s, c, 0, TY_INT))
		return false;
	const Type *t = c->args.v[0]->type;
	int bits = t->kind == TY_INT && !t->pointee && t->bits ? t->bits : 64;
	c->type = ty_int(s, bits, false);
	return true;
}

/* strerror(errno): the text is looked up when printed */
bool sema_check_strerror(Sema *s, Expr *c)
{
	if (!sema_arg_kind(s, c, 0, TY_INT))
		return false;
	c->type = ty_simple(s, TY_STRERROR, 8);
	return true;
}

/* pton("1.2.3.4" | "::1"): the address bytes, as uint8[4] or uint8[16] */
bool sema_check_pton(Sema *s, Expr *c)
{
	Expr *a = c->args.v[0];
	if (a->kind != E_STR)
		return sema_error(s, a->loc, "pton() expects a string literal argument");
	unsigned char addr[16];
	bool v6 = strchr(a->sval, ':') != NULL;
	if (inet_pton(v6 ? AF_INET6 : AF_INET, a->sval, addr) != 1)
		return sema_error(s, a->loc, "pton(): invalid %s address \"%s\"", v6 ? "IPv6" : "IPv4",
				  a->sval);
	Type *t = ty_simple(s, TY_ARRAY, v6 ? 16 : 4);
	t->count = t->size;
	t->pointee = ty_int(s, 8, false);
	c->type = t;
	return true;
}

/* macaddr(p): 6 bytes read from a pointer, or a 6-byte array or record */
bool sema_check_macaddr(Sema *s, Expr *c)
{
	Expr *a = c->args.v[0];
	if (a->kind == E_STR)
		return sema_error(s, a->loc, "macaddr() does not support literal string arguments");
	if (!sema_expr(s, a))
		return false;
	const Type *t = a->type;
	if ((t->kind == TY_ARRAY || t->kind == TY_RECORD || t->kind == TY_STR) && t->size != 6)
		return sema_error(s, a->loc, "macaddr() argument must be 6 bytes in size");
	if (t->kind != TY_INT && t->kind != TY_ARRAY && t->kind != TY_RECORD && t->kind != TY_STR &&
	    (t->kind != TY_NONE || s->strict))
		return sema_error(s, a->loc, "macaddr() takes a pointer or a 6-byte array (%s provided)",
				  bpf_kind(t));
	c->type = sema_call_fixed_type(s, F_MACADDR);
	return true;
}
