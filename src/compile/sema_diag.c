/* The messages of semantic analysis: errors (the first, or with s->all
 * every one, at bpftrace's tiers: diag.h), warnings, and the type names
 * they use (tn, and D's C names). */
#include "sema_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool same_error(const Error *a, const Error *b)
{
	return a->loc.line == b->loc.line && a->loc.col == b->loc.col && !strcmp(a->msg, b->msg);
}

/* The first error, or with s->all one more at the end of the list (once:
 * the members of a wildcard check the same body) */
static void sema_record(Sema *s, Loc loc, int tier, const char *fmt, va_list ap)
{
	Error *e = s->err;
	if (!e->set || !s->all) {
		bool first = !e->set;
		error_vat(e, loc, fmt, ap);
		if (first)
			e->tier = (unsigned char)tier;
		return;
	}
	Error n = {.tier = (unsigned char)tier};
	error_vat(&n, loc, fmt, ap);
	Error *last = e;
	for (Error *x = e; x; x = x->next) {
		if (same_error(x, &n))
			return;
		last = x;
	}
	last->next = arena_alloc(&s->sc->ast->arena, sizeof(Error));
	*last->next = n;
}

/* sema_error and its kin: the same but for the tier (sema.h) */
#define SEMA_ERROR_AT_TIER(name, tier)                              \
	bool name(Sema *s, Loc loc, const char *fmt, ...)           \
	{                                                           \
		va_list ap;                                         \
		va_start(ap, fmt);                                  \
		sema_record(s, loc, tier, fmt, ap);                 \
		va_end(ap);                                         \
		return false;                                       \
	}
SEMA_ERROR_AT_TIER(sema_error, ERR_TIER_FIRST)
SEMA_ERROR_AT_TIER(sema_error_late, ERR_TIER_FINAL)
SEMA_ERROR_AT_TIER(sema_error_pre, ERR_TIER_PRE)

/* bpftrace's context of an error: a message at another place printed
 * right after it (as an error, with its own caret); only when the error
 * at `at` is the one the list ends with (not dropped for an earlier one) */
void sema_context(Sema *s, Loc at, Loc loc, const char *msg)
{
	Error *last = s->err;
	while (last->next)
		last = last->next;
	if (!last->set || last->loc.line != at.line || last->loc.col != at.col)
		return;
	last->next = arena_alloc(&s->sc->ast->arena, sizeof(Error));
	*last->next = (Error){.tier = last->tier};
	error_at(last->next, loc, "%s", msg);
}

void sema_warn(Sema *s, Loc loc, const char *fmt, ...)
{
	if (!s->warn)
		return;
	Error w = {0};
	va_list ap;
	va_start(ap, fmt);
	error_vat(&w, loc, fmt, ap);
	va_end(ap);
	vec_push(&s->sc->warnings, w);
}

const char *tn(const Type *t)
{
	static char buf[4][128];
	static int i;
	i = (i + 1) % 4;
	return t ? type_name(t, buf[i], sizeof(buf[i])) : "nothing";
}
