/* D's printf() and system() formats: the conversions as libdtrace parses
 * them (dtrace/printf_fmt_d.c parses; this checks the arguments against
 * them with dtrace's messages, and fits integer conversions to the
 * argument's size).  bpftrace's format check is in sema_call_fmt.c. */
#include <stdlib.h>
#include <string.h>

#include "../compile/sema.h"
#include "dfunc.h"
#include "printf_fmt_d.h"
#include "sema_d.h"

/* D's printf converts an integer at its size (dtrace's pfprint_sint):
 * %d of a 64-bit value prints all of it, where C's (and bpftrace's) %d
 * reads an int.  The conversion is rewritten to take the value's size. */
void d_widen_conv(FmtPiece *p, const Type *t)
{
	if (p->conv != FC_INT || p->arg64 || p->spec == 'c' || t->kind != TY_INT)
		return;
	size_t n = strlen(p->text);
	if (n >= 2 && strchr("hljzt", p->text[n - 2]))
		return; /* a length written (or already given) */
	/* 1- and 2-byte values: %d sign-extends at their size, %u/%x/%o
	 * zero-extend ((short)-2 is -2 with %d, 65534 with %u, fffe with %x) */
	const char *mod = t->pointee || t->bits >= 64 ? "ll" : t->bits == 16 ? "h" : t->bits == 8 ? "hh"
											      : NULL;
	if (!mod)
		return;
	char *w = xmalloc(n + 3);
	snprintf(w, n + 3, "%.*s%s%c", (int)(n - 1), p->text, mod, p->text[n - 1]);
	free(p->text);
	p->text = w;
	p->arg64 = !strcmp(mod, "ll");
}

/* D's printf argument for conversion #k (p): dtrace's type check; %A
 * takes its value through usym(), which records the process */
static bool check_arg_d(Sema *s, Expr *call, int ai, const FmtPiece *p, int k)
{
	Expr *a = call->args.v[ai];
	if (!sema_expr(s, a))
		return false;
	if (a->type->kind == TY_NONE && !s->strict)
		return true;
	const char *proto, *tn;
	char buf[160];
	if (p->conv == FC_STAR ? a->type->kind != TY_INT : !fmt_d_accepts(p, a->type, &proto)) {
		tn = sema_d_type_name(a->type, buf, sizeof(buf));
		if (p->conv == FC_STAR)
			return sema_error(s, a->loc, "%s( ) argument #%d is incompatible with conversion "
					  "#%d prototype:\n\tconversion: %% %s %s\n\t prototype: int\n"
					  "\t  argument: %s", call->name, ai + 1, k,
					  p->spec == '.' ? ".*" : "*", fmt_d_name(p), tn);
		return sema_error(s, a->loc, "%s( ) argument #%d is incompatible with conversion #%d "
				  "prototype:\n\tconversion: %%%s\n\t prototype: %s\n\t  argument: %s",
				  call->name, ai + 1, k, fmt_d_name(p), proto, tn);
	}
	if (p->conv == FC_USYM && a->type->kind == TY_INT) {
		Expr *u = arena_alloc(&s->sc->ast->arena, sizeof(Expr));
		u->kind = E_CALL;
		u->loc = a->loc;
		u->name = "usym";
		u->func = func_find("usym");
		u->args.v = arena_alloc(&s->sc->ast->arena, sizeof(Expr *));
		u->args.v[0] = a;
		u->args.n = 1;
		call->args.v[ai] = u;
		return u->func->check(s, u);
	}
	if (p->conv == FC_INT) {
		FmtPiece *w = (FmtPiece *)p;
		size_t n = strlen(w->text);
		/* %d of an unsigned value is %u (dtrace's pfcheck_dint) */
		if ((w->spec == 'd' || w->spec == 'i') && !a->type->is_signed)
			w->text[n - 1] = w->spec = 'u';
		d_widen_conv(w, a->type);
	}
	return true;
}

/* D's printf(), system(): the format as libdtrace parses it, the arguments
 * checked against its conversions with dtrace's messages */
bool sema_format_d(Sema *s, Expr *call)
{
	Expr *a = call->args.v[0];
	if (a->kind != E_STR && !sema_expr(s, a))
		return false;
	if (a->type && a->type->kind != TY_STR) /* dtrace: the prototype is a string */
		return dsema_proto_error(s, call, 0, "string");
	if (!sema_arg_literal_str(s, call, 0))
		return false;
	Expr *f = call->args.v[0];
	if (!f->slen)
		return sema_error(s, f->loc, "%s( ) format string is empty", call->name);
	if (!f->auxp) {
		Fmt *fmt = arena_alloc(&s->sc->arena, sizeof(Fmt));
		char msg[256];
		if (!fmt_parse_d(f->sval, f->slen, fmt, msg, sizeof(msg)))
			return sema_error(s, f->loc, "%s", msg);
		script_keep_fmt(s->sc, fmt);
		f->auxp = fmt;
	}
	const Fmt *fmt = f->auxp;
	int ai = 1, k = 0;
	for (int i = 0; i < fmt->npieces; i++) {
		const FmtPiece *p = &fmt->pieces[i];
		if (p->conv == FC_LITERAL)
			continue;
		k += p->conv != FC_STAR;
		if (p->agg_value)
			return sema_error(s, f->loc, "%%@ conversion requires an aggregation and is not "
					  "for use with %s( )", call->name);
		if (ai >= call->args.n && p->conv == FC_STAR)
			return sema_error(s, call->loc, "%s( ) prototype mismatch: conversion #%d (%%%s) "
					  "is missing a corresponding \"%s\" argument", call->name, k + 1,
					  fmt_d_name(p), p->spec == '.' ? ".*" : "*");
		if (ai >= call->args.n)
			return sema_error(s, call->loc, "%s( ) prototype mismatch: conversion #%d (%%%s) "
					  "is missing a corresponding value argument", call->name, k,
					  fmt_d_name(p));
		if (!check_arg_d(s, call, ai++, p, p->conv == FC_STAR ? k + 1 : k))
			return false;
	}
	if (ai < call->args.n)
		return sema_error(s, call->args.v[ai]->loc, "%s( ) prototype mismatch: only %d arguments "
				  "required by this format string", call->name, ai - 1);
	return true;
}

/* a format trace() made (its own widths, parsed as bpftrace's) */
static bool fmt_from_trace(const Expr *f)
{
	const Fmt *fmt = f->auxp;
	for (int i = 0; fmt && i < fmt->npieces; i++)
		if (fmt->pieces[i].conv != FC_LITERAL && fmt->pieces[i].conv != FC_STAR &&
		    !fmt->pieces[i].dconv)
			return true;
	return false;
}

bool sema_d_printf(Sema *s, Expr *c)
{
	if (!fmt_from_trace(c->args.v[0]))
		return sema_format_d(s, c);
	return sema_check_format(s, c, 1);
}
