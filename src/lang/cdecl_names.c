/* The C-declaration parser's names (cdecl_int.h): structs, unions, enums,
 * typedefs and constants a script defines, and #define macros, whose text
 * is evaluated as a constant expression when a name is used. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdecl_int.h"

CName *cd_find_name(const CDefs *d, CNameKind k, const char *name)
{
	for (int i = d->names.n - 1; i >= 0; i--)
		if (d->names.v[i].kind == k && !strcmp(d->names.v[i].name, name))
			return &d->names.v[i];
	return NULL;
}

Type *cdefs_find(const CDefs *d, CNameKind kind, const char *name)
{
	if (!d)
		return NULL;
	CName *n = cd_find_name(d, kind, name);
	return n ? n->type : NULL;
}

/* A macro's text as a constant expression; depth stops self-reference
 * (glibc's `#define IPPROTO_TCP IPPROTO_TCP` falls through to the enum). */
static bool macro_value(const CDefs *d, const char *text, int depth, int64_t *v)
{
	Error e = {0};
	CP p = {.d = (CDefs *)d, .s = text, .line = 1, .col = 1, .err = &e, .nest = depth};
	if (!cd_next(&p) || p.tk == CT_EOF || !cd_cexpr(&p, v))
		return false;
	return p.tk == CT_EOF;
}

bool cd_const_at(const CDefs *d, const char *name, int depth, int64_t *v)
{
	for (int i = d ? d->names.n - 1 : -1; i >= 0; i--) {
		const CName *n = &d->names.v[i];
		if (strcmp(n->name, name))
			continue;
		if (n->kind == CN_CONST) {
			*v = n->value;
			return true;
		}
		if (n->kind == CN_MACRO)
			return *n->text && macro_value(d, n->text, depth, v);
	}
	return false;
}

bool cdefs_const(const CDefs *d, const char *name, int64_t *v)
{
	return cd_const_at(d, name, 0, v);
}

bool cdefs_defined(const CDefs *d, const char *name)
{
	return d && (cd_find_name(d, CN_CONST, name) || cd_find_name(d, CN_MACRO, name));
}

void cd_add_name(CDefs *d, CNameKind k, const char *name, Type *t, int64_t v)
{
	CName n = {k, name, t, v, NULL};
	vec_push(&d->names, n);
}

void cd_add_macro(CDefs *d, const char *name, const char *text)
{
	CName n = {CN_MACRO, name, NULL, 0, text};
	vec_push(&d->names, n);
}
