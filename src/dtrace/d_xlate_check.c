/* Translator declarations checked as dtrace(1) checks them when it reads
 * them, before any clause uses them: a second translator between the same
 * two types (D_XLATE_REDECL), an output type that is not a struct or union
 * or is not defined (D_XLATE_SOU), a member the output struct does not
 * have (D_XLATE_MEMB).  dtrace names the line that ends the declaration.
 * The script's C definitions are parsed here on their own (sema parses
 * them again for the program): the front end needs only their names. */
#include <string.h>

#include "../lang/ctypes.h"
#include "dtrace.h"

/* member `name` of record t, also inside its anonymous members */
static bool has_member(Type *t, const char *name, int depth)
{
	int n;
	const Field *f = type_fields(t, &n);
	for (int i = 0; i < n; i++) {
		if (*f[i].name && !strcmp(f[i].name, name))
			return true;
		if (!*f[i].name && f[i].type->kind == TY_RECORD && depth < 8 &&
		    has_member(f[i].type, name, depth + 1))
			return true;
	}
	return false;
}

static bool is_record_word(const char *type)
{
	return !strncmp(type, "struct ", 7) || !strncmp(type, "union ", 6);
}

/* the output type of x, checked; NULL without an error for one only the
 * built-in translators know (psinfo_t, lwpsinfo_t) */
static Type *output_type(CDefs *d, const DXlator *x, Error *err, bool *ok)
{
	char msg[256];
	Type *t = ctype_parse_name(d, d->arena, x->out, msg, sizeof(msg));
	*ok = true;
	if (!t && d_xlate_builtin_exists(x->out))
		return NULL;
	if (t && t->kind != TY_RECORD) {
		*ok = error_at(err, x->end, "translator output type must be a struct or union");
		return NULL;
	}
	if (!t || (type_record_size(t) <= 0 && !t->nfields)) {
		if (is_record_word(x->out))
			*ok = error_at(err, x->end, "incomplete struct/union/enum %s", x->out);
		else
			*ok = error_at(err, x->end, "%s", msg);
		return NULL;
	}
	return t;
}

static bool check_one(CDefs *d, const DEnv *env, int k, Error *err)
{
	const DXlator *x = &env->xlators[k];
	for (int i = 0; i < k; i++)
		if (!strcmp(env->xlators[i].out, x->out) && !strcmp(env->xlators[i].in, x->in))
			return error_at(err, x->end, "translator from %s to %s has already been declared",
					x->in, x->out);
	bool ok;
	Type *t = output_type(d, x, err, &ok);
	if (!t)
		return ok;
	for (int i = 0; i < x->members.n; i++) {
		const char *m = x->members.v[i]->target->name;
		if (!has_member(t, m, 0))
			return error_at(err, x->end, "translator member %s is not a member of %s", m,
					x->out);
	}
	return true;
}

bool d_xlate_check(const Program *p, const DEnv *env, Error *err)
{
	if (!env->nxlators)
		return true;
	Arena a = { 0 };
	CDefs d = { .arena = &a, .sym = env->opt->sym, .include_dirs = env->opt->include_dirs,
		    .ninclude_dirs = env->opt->ninclude_dirs, .script_dir = env->opt->script_dir,
		    .d_vars = true };
	cdefs_find_kernel_headers(&d);
	cdefs_predefine(&d);
	bool ok = true, skip = false;
	Error e = { 0 };
	/* definitions that do not parse: sema reports them, where it reports C errors */
	skip = !cdefs_parse_program(&d, p, &e);
	for (int i = 0; ok && !skip && i < env->nxlators; i++)
		ok = check_one(&d, env, i, err);
	vec_free(&d.names);
	vec_free(&d.sys_seen);
	arena_free(&a);
	return ok;
}
