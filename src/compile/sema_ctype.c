/* Sema for C types: struct members (-> and .), pointer dereference and
 * arithmetic, array indexing, casts to pointer and struct types, sizeof,
 * enum constants, and the script's C definitions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lang/sym_types.h"
#include "../sym/dwarf_args.h"
#include "../lang/ctypes.h"
#include "sema_hooks.h"

static const char *tname(const Type *t)
{
	static char buf[4][160];
	static int i;
	i = (i + 1) % 4;
	return t ? type_name(t, buf[i], sizeof(buf[i])) : "nothing";
}

/* Byte offset of line/col in text. */
static size_t offset_of(const char *text, Loc at)
{
	size_t i = 0;
	for (int line = 1; text[i] && line < at.line; i++)
		if (text[i] == '\n')
			line++;
	return i + (size_t)(at.col > 0 ? at.col - 1 : 0);
}

bool sema_ctype_setup(Script *sc, Error *err)
{
	CDefs *d = arena_alloc(&sc->arena, sizeof(CDefs));
	d->arena = &sc->arena;
	d->sym = sc->opt.sym;
	d->include_dirs = sc->opt.include_dirs;
	d->ninclude_dirs = sc->opt.ninclude_dirs;
	d->script_dir = sc->opt.script_dir;
	cdefs_find_kernel_headers(d);
	sc->cdefs = d;
	d->d_vars = sc->opt.sema->c_vars;
	cdefs_predefine(d);
	for (int i = 0; i < sc->opt.ninclude_files; i++)
		if (!cdefs_include_file(d, sc->opt.include_files[i], (Loc){0}, err))
			return false;
	return cdefs_parse_program(d, sc->ast, err);
}

/* bpftrace's: a file's text from its first C definition (at, in the
 * program's text or an imported file's), to its first other item */
static bool parse_c_part(CDefs *d, const Program *p, Loc at, Error *err)
{
	Source f = source_at(&p->src, at);
	const char *text = f.text;
	size_t off = text ? offset_of(text, at) : 0;
	if (!text || off > strlen(text))
		return true;
	/* an imported file's #include "x.h" is found beside that file */
	const char *slash = at.file > 0 && f.name ? strrchr(f.name, '/') : NULL;
	const char *saved = d->script_dir;
	if (at.file > 0)
		d->script_dir = slash ? arena_strndup(d->arena, f.name, (size_t)(slash - f.name + 1)) : "";
	bool ok = cdefs_parse(d, text + off, at, NULL, (Loc){0}, err);
	d->script_dir = saved;
	return ok;
}

bool cdefs_parse_program(CDefs *d, const Program *p, Error *err)
{
	if (p->c_defs_decls)
		return !p->c_defs || cdefs_parse_decls(d, p->c_defs, err);
	if (p->c_defs && p->c_defs_loc.line && !parse_c_part(d, p, p->c_defs_loc, err))
		return false;
	/* bpftrace 0.26's imports: .h files, then the .bt files' C */
	for (int i = 0; i < p->nimport_headers; i++)
		if (!cdefs_include_file(d, p->import_headers[i].path, p->import_headers[i].at, err))
			return false;
	for (int i = 0; i < p->nimport_cdefs; i++)
		if (!parse_c_part(d, p, p->import_cdefs[i], err))
			return false;
	return true;
}

static bool is_user_provider(const Sema *s)
{
	return s->spec->prov->space == SPACE_USER;
}

static Type *ptr_copy(Sema *s, Type *p, bool user)
{
	if (p->user == user)
		return p;
	Type *q = ty_int(s, 64, false);
	*q = *p;
	q->user = user;
	return q;
}

/* t marked as (a member of) the program's context */
static Type *ctx_copy(Sema *s, Type *t)
{
	Type *q = ty_simple(s, t->kind, t->size);
	*q = *t;
	q->ctx = true;
	return q;
}

/* Member `name` of rec, looking inside anonymous members; *off gets the
 * total byte offset. */
static const Field *find_member(Type *rec, const char *name, int *off, int depth)
{
	int n;
	const Field *f = type_fields(rec, &n);
	for (int i = 0; i < n; i++)
		if (*f[i].name && !strcmp(f[i].name, name)) {
			*off = f[i].offset;
			return &f[i];
		}
	for (int i = 0; depth < 8 && i < n; i++)
		if (!*f[i].name && f[i].type->kind == TY_RECORD) {
			int sub;
			const Field *r = find_member(f[i].type, name, &sub, depth + 1);
			if (r) {
				*off = f[i].offset + sub;
				return r;
			}
		}
	return NULL;
}

static bool record_known(Sema *s, Type *rec, Loc loc)
{
	if (type_record_size(rec) > 0 || rec->nfields)
		return true;
	if (!btf_kernel(s->sc->opt.sym) && btf_error(s->sc->opt.sym))
		return sema_error(s, loc, "%s: %s", rec->cname, btf_error(s->sc->opt.sym));
	return sema_error(s, loc, "%s is not defined (neither in the script nor in the kernel's "
			  "BTF)", rec->cname);
}

/* what a value read from memory becomes */
static Type *value_type(Sema *s, Type *t, bool user)
{
	if (type_is_ptr(t) && user && !t->user)
		return ptr_copy(s, t, true);
	return t;
}

/* Is the place e reads reached through a user pointer? */
static bool place_user(const Expr *e)
{
	switch (e->kind) {
	case E_FIELD:
		if (type_is_ptr(e->a->type))
			return e->a->type->user;
		if (e->a->type->kind == TY_CTX) /* locals.NAME in user memory */
			return e->aux2 == FIELD_DWARF_LOCAL;
		return place_user(e->a);
	case E_UNOP:
		return e->a->type->user;
	case E_INDEX:
		return type_is_ptr(e->a->type) ? e->a->type->user : place_user(e->a);
	default:
		return false;
	}
}

/* The whole access `base->...->name` as bpftrace locates its member errors
 * (from where the base starts), when it sits on one line. */
static Loc member_loc(const Expr *e)
{
	const Expr *b = e->a;
	while ((b->kind == E_FIELD || b->kind == E_INDEX) && b->a)
		b = b->a;
	Loc l = e->loc;
	if (b->loc.line == l.line && b->loc.col > 0 && b->loc.col < l.col) {
		l.len += l.col - b->loc.col;
		l.col = b->loc.col;
	}
	return l;
}

bool sema_ctype_member(Sema *s, Expr *e)
{
	Type *t = e->a->type, *rec = t;
	bool ptr = type_is_ptr(t);
	if (ptr)
		rec = t->pointee;
	if (rec->kind != TY_RECORD)
		return sema_error(s, e->loc, "a value of type %s has no field '%s'", tname(t), e->name);
	if (sema_hooks(s)->dot_derefs)
		e->arrow = ptr; /* codegen reads through a pointer where arrow says so */
	if (ptr && !e->arrow) /* bpftrace's words */
		return sema_error(s, member_loc(e), "Can not access field '%s' on type '%s'. Try "
				  "dereferencing it first, or using '->'", e->name, tname(t));
	if (!ptr && e->arrow)
		return sema_error(s, e->loc, "%s is not a pointer: use '.' to reach field '%s'",
				  tname(t), e->name);
	if (!record_known(s, rec, e->loc))
		return false;
	int off;
	const Field *f = find_member(rec, e->name, &off, 0);
	if (!f) {
		char sug[200];
		ctype_suggest(rec, e->name, sug, sizeof(sug));
		return sema_error(s, member_loc(e), "Struct/union of type '%s' does not contain a field named "
				  "'%s'%s%s%s", rec->cname, e->name, sug[0] ? "\nhint: did you mean " : "",
				  sug, sug[0] ? "?" : "");
	}
	Field *g = arena_alloc(&s->sc->arena, sizeof(Field));
	*g = *f;
	g->offset = off;
	e->auxp = g;
	Type *ft = f->type;
	if (ft->kind == TY_RECORD && !record_known(s, ft, e->loc))
		return false;
	if (ft->kind == TY_NONE)
		return sema_error(s, e->loc, "field '%s' has no readable type", e->name);
	e->type = value_type(s, ft, ptr ? t->user : place_user(e->a));
	if (t->ctx && (ft->kind == TY_RECORD || ft->kind == TY_ARRAY)) /* ctx->regs: ctx too */
		e->type = ctx_copy(s, e->type);
	return true;
}

bool sema_ctype_deref(Sema *s, Expr *e)
{
	if (!sema_expr(s, e->a))
		return false;
	Type *t = e->a->type;
	if (t->kind == TY_NONE && !s->strict) {
		e->type = t;
		return true;
	}
	if (t->kind == TY_INT && !t->pointee) { /* an address: bpftrace 0.17 reads a uint64 there */
		e->type = ty_int(s, 64, false);
		return true;
	}
	if (!type_is_ptr(t) && sema_hooks(s)->deref_nonptr && t->kind != TY_CTX)
		return sema_hooks(s)->deref_nonptr(s, e);
	if (!type_is_ptr(t))
		return sema_error(s, e->loc, "cannot dereference a value of type %s: '*' needs a "
				  "pointer (cast an address first, e.g. *(uint32 *)addr)", tname(t));
	Type *pt = t->pointee;
	if (pt->kind == TY_NONE)
		return sema_error(s, e->loc, "cannot dereference %s: cast it to a pointer to a "
				  "type first", tname(t));
	if (pt->kind == TY_RECORD && !record_known(s, pt, e->loc))
		return false;
	e->type = value_type(s, pt, t->user);
	if (t->ctx && pt->kind == TY_RECORD) /* *ctx */
		e->type = ctx_copy(s, e->type);
	return true;
}

/* `&$x` (SemaHooks.addr_of_vars): a pointer to the variable's value, in
 * its own layout (8-byte integers, tuples' 8-byte slots), which `*`
 * reads back whole */
bool sema_ctype_addr_of(Sema *s, Expr *e)
{
	if (e->a->kind != E_VAR)
		return sema_error(s, e->loc, "'&' takes the address of a variable ($x) only");
	if (!sema_expr(s, e->a))
		return false;
	e->type = ty_int(s, 64, false);
	e->type->pointee = e->a->type;
	return true;
}

/* a constant index past an array's end (or in the dialect's words) */
static bool index_bounds(Sema *s, const Expr *e, int count, const char *type)
{
	if (sema_hooks(s)->index_bounds)
		return sema_hooks(s)->index_bounds(s, e, count);
	return sema_error(s, e->b->loc, "index %llu is out of bounds for %s",
			  (unsigned long long)e->b->ival, type);
}

bool sema_ctype_index(Sema *s, Expr *e)
{
	if (!sema_expr(s, e->a) || !sema_expr(s, e->b))
		return false;
	Type *t = e->a->type, *it = e->b->type;
	if ((t->kind == TY_NONE || it->kind == TY_NONE) && !s->strict) {
		e->type = t;
		return true;
	}
	if (it->kind != TY_INT)
		return sema_error(s, e->b->loc, "an index must be an integer, not %s", tname(it));
	Type *el;
	bool user;
	if (t->kind == TY_ARRAY) {
		el = t->pointee;
		user = place_user(e->a);
		if (e->b->kind == E_INT && t->count > 0 && e->b->ival >= (uint64_t)t->count)
			return index_bounds(s, e, t->count, tname(t));
	} else if (t->kind == TY_STR && (e->a->kind == E_FIELD || e->a->kind == E_INDEX ||
					 e->a->kind == E_UNOP || e->a->kind == E_VAR ||
					 e->a->kind == E_MAP)) {
		el = ty_int(s, 8, true);
		user = place_user(e->a);
		if (e->b->kind == E_INT && e->b->ival >= (uint64_t)t->size)
			return index_bounds(s, e, t->size, tname(t));
	} else if (type_is_ptr(t)) {
		el = t->pointee;
		user = t->user;
		if (el->kind == TY_NONE)
			return sema_error(s, e->loc, "cannot index %s: cast it to a pointer to a type "
					  "first", tname(t));
	} else {
		return sema_error(s, e->loc, "cannot index a value of type %s: [] works on arrays, "
				  "pointers and maps", tname(t));
	}
	if (el->kind == TY_RECORD && !record_known(s, el, e->loc))
		return false;
	e->type = value_type(s, el, user);
	return true;
}

/* A type by its text: the script's definitions, then, in a user-space
 * probe, the DWARF of the probed binary for a struct or union, then BTF. */
static Type *type_by_text(Sema *s, const char *text, char *err, size_t n)
{
	const char *rest = text;
	bool un = !strncmp(rest, "union ", 6);
	if (is_user_provider(s) && s->spec->target && (un || !strncmp(rest, "struct ", 7))) {
		rest += un ? 6 : 7;
		char name[128];
		size_t len = strcspn(rest, " *");
		snprintf(name, sizeof(name), "%.*s", (int)len, rest);
		Type *rec = NULL;
		const DwarfType *dt = NULL;
		if (!cdefs_find(s->sc->cdefs, un ? CN_UNION : CN_STRUCT, name))
			dt = dwarf_record(s->sc->opt.sym, s->spec->target, un, name);
		if (dt)
			rec = type_of_dwarf(s->sc->opt.sym, dt);
		if (rec) {
			for (const char *c = rest + len; *c; c++) {
				if (*c == ' ')
					continue;
				if (*c != '*')
					return ctype_parse_name(s->sc->cdefs, &s->sc->arena, text, err, n);
				Type *p = ty_int(s, 64, false);
				p->pointee = rec;
				p->user = true;
				rec = p;
			}
			return rec;
		}
	}
	return ctype_parse_name(s->sc->cdefs, &s->sc->arena, text, err, n);
}

/* A cast to a type that cannot be parsed: an unknown struct or union in
 * bpftrace 0.17's words (the reason as a hint), anything else as sonde
 * words it. */
static bool cast_unknown_type(Sema *s, Expr *e, const char *err)
{
	const char *q = !strncmp(err, "unknown type '", 14) ? err + 14 : NULL;
	const char *end = q ? strchr(q, '\'') : NULL;
	if (end && (!strncmp(q, "struct ", 7) || !strncmp(q, "union ", 6)))
		return sema_error(s, e->loc, "Unknown struct/union: '%.*s'\nhint: %s", (int)(end - q), q,
				  end[1] == ':' ? end + 3 : end[1] ? end + 2 : "not defined");
	return sema_error(s, e->loc, "cannot cast to '%s': %s", e->name, err);
}

bool sema_ctype_cast(Sema *s, Expr *e)
{
	char err[400];
	Type *t = type_by_text(s, e->name, err, sizeof(err));
	if (!t)
		return cast_unknown_type(s, e, err);
	return sema_ctype_cast_to(s, e, t);
}

/* (t)e->a: t a C type, an integer or a pointer */
bool sema_ctype_cast_to(Sema *s, Expr *e, Type *t)
{
	if (t->kind == TY_RECORD) /* bpftrace 0.17's words, then sonde's hint */
		return sema_error(s, e->loc, "Cannot cast to struct type \"%s\"\nhint: only integer and "
				  "pointer casts are possible (e.g. (%s *))", tname(t), tname(t));
	if (t->kind == TY_NONE && !strcmp(tname(t), "void"))
		return sema_error(s, e->loc, "Unknown struct/union: 'void'\nhint: a pointer cast is "
				  "possible: (void *)");
	if (t->kind == TY_ARRAY || t->kind == TY_NONE)
		return sema_error(s, e->loc, "cannot cast to %s: only integer and pointer casts are "
				  "possible (e.g. (%s *))", tname(t), tname(t));
	if (!sema_expr(s, e->a))
		return false;
	if (e->a->type->kind == TY_NONE && !s->strict) {
		e->type = t;
		return true;
	}
	if (e->a->type->kind != TY_INT)
		return sema_error(s, e->a->loc, "cannot cast a value of type %s to %s",
				  tname(e->a->type), tname(t));
	if (type_is_ptr(t) && e->a->type->ctx) { /* bpftrace's rule and words */
		if (t->pointee->kind != TY_RECORD)
			return sema_error(s, e->loc, "Integer pointer casts are not supported for "
					  "type: ctx");
		t = ctx_copy(s, t);
	}
	if (type_is_ptr(t)) {
		bool user = e->a->type->pointee ? e->a->type->user : is_user_provider(s);
		t = ptr_copy(s, t, user);
		if (t->pointee->kind == TY_RECORD && !record_known(s, t->pointee, e->loc))
			return false;
	}
	e->type = t;
	return true;
}

/* The type a D declaration names (`unsigned long`, `struct foo *`,
 * `uint64_t`), or NULL with the error set. */
Type *sema_ctype_named(Sema *s, const char *text, Loc loc)
{
	char err[400];
	Type *t = type_by_text(s, text, err, sizeof(err));
	if (!t)
		return sema_error(s, loc, "%s", err), NULL;
	if (type_is_ptr(t)) {
		t = ptr_copy(s, t, false);
		if (t->pointee->kind == TY_RECORD && !record_known(s, t->pointee, loc))
			return NULL;
	} else if (t->kind == TY_RECORD && !record_known(s, t, loc)) {
		return NULL;
	}
	return t;
}

bool sema_ctype_sizeof(Sema *s, Expr *e)
{
	if (e->name) {
		char err[400];
		Type *t = type_by_text(s, e->name, err, sizeof(err));
		if (!t)
			return sema_error(s, e->loc, "sizeof: %s", err);
		if (t->kind == TY_RECORD && !record_known(s, t, e->loc))
			return false;
		e->ival = (uint64_t)(t->kind == TY_RECORD ? type_record_size(t) : type_csize(t));
	} else {
		Type *td = e->a->kind != E_BUILTIN ? NULL
			   : sema_hooks(s)->bare_type_names ? sema_ctype_name_type(s, e->a)
			   : cdefs_find(s->sc->cdefs, CN_TYPEDEF, e->a->name);
		if (td) { /* sizeof(a_typedef_name) */
			e->ival = (uint64_t)(td->kind == TY_RECORD ? type_record_size(td) : type_csize(td));
			e->type = ty_int(s, 64, false);
			return true;
		}
		if (!sema_expr(s, e->a))
			return false;
		const Type *t = e->a->type;
		e->ival = (uint64_t)(t->kind == TY_TUPLE ? t->c_size : type_csize(t));
		if (t->kind == TY_STR && sema_hooks(s)->strsize_strings && e->a->kind != E_FIELD &&
		    e->a->kind != E_UNOP) /* a string value, not a char array in memory */
			e->ival = e->a->kind == E_STR ? e->a->slen + 1 : (uint64_t)s->sc->opt.strlen_max - 1;
	}
	e->type = ty_int(s, 64, false);
	return true;
}

/* The type an expression written where a type may stand names: a typedef
 * name parsed as an identifier (sizeof(task_t), offsetof(task_t, pid)). */
Type *sema_ctype_name_type(Sema *s, const Expr *a)
{
	if (a->kind != E_BUILTIN)
		return NULL;
	Type *td = cdefs_find(s->sc->cdefs, CN_TYPEDEF, a->name);
	if (td)
		return td;
	if (!strncmp(a->name, "arg", 3) || !strcmp(a->name, "args") || !strcmp(a->name, "retval") ||
	    !strcmp(a->name, "curtask"))
		return NULL;
	char err[400];
	Type *t = type_by_text(s, a->name, err, sizeof(err));
	if (t && t->kind != TY_NONE)
		return t;
	if (!sema_hooks(s)->bare_type_names || builtin_var_named(a->name, sema_hooks(s)->func_sets))
		return NULL;
	for (int i = 0; i < 2; i++) { /* a tag: struct NAME, then union NAME */
		char text[160];
		snprintf(text, sizeof(text), "%s %s", i ? "union" : "struct", a->name);
		t = type_by_text(s, text, err, sizeof(err));
		if (t && t->kind == TY_RECORD)
			return t;
	}
	return NULL;
}

/* offsetof(struct x, a.b): the byte offset of member path sval. */
bool sema_ctype_offsetof(Sema *s, Expr *e)
{
	Type *t = NULL;
	if (e->name) {
		char err[400];
		t = type_by_text(s, e->name, err, sizeof(err));
		if (!t)
			return sema_error(s, e->loc, "offsetof: %s", err);
	} else if (!(t = sema_ctype_name_type(s, e->a))) {
		if (!sema_expr(s, e->a))
			return false;
		t = e->a->type;
		if (t->kind == TY_NONE && !s->strict) {
			e->type = ty_int(s, 64, false);
			return true;
		}
	}
	if (t->kind != TY_RECORD)
		return sema_error(s, e->loc, "offsetof needs a struct or union, not %s%s", tname(t),
				  type_is_ptr(t) ? " (write the struct type, or *ptr)" : "");
	if (!record_known(s, t, e->loc))
		return false;
	int total = 0;
	const char *p = e->sval;
	Type *rec = t;
	for (;;) {
		char name[128];
		size_t n = strcspn(p, ".");
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		if (rec->kind != TY_RECORD)
			return sema_error(s, e->loc, "offsetof: '%s' is not a struct or union member, "
					  "cannot reach '%s' in it", e->sval, name);
		if (!record_known(s, rec, e->loc))
			return false;
		int off;
		const Field *f = find_member(rec, name, &off, 0);
		if (!f) {
			char sug[200];
			ctype_suggest(rec, name, sug, sizeof(sug));
			char whose[200];
			size_t cl = strlen(rec->cname);
			if (cl && rec->cname[cl - 1] == ' ') /* anonymous: name it by the path */
				snprintf(whose, sizeof(whose), "'%.*s' (%s{...})", (int)(p - 1 - e->sval),
					 e->sval, rec->cname);
			else
				snprintf(whose, sizeof(whose), "%s", rec->cname);
			return sema_error(s, e->loc, "%s has no field '%s'%s%s%s", whose, name,
					  sug[0] ? "\nhint: did you mean " : "", sug, sug[0] ? "?" : "");
		}
		if (f->bit_width)
			return sema_error(s, e->loc, "offsetof: '%s' is a bitfield", name);
		total += off;
		if (!p[n])
			break;
		p += n + 1;
		rec = f->type;
	}
	e->ival = (uint64_t)total;
	e->type = ty_int(s, 64, false);
	return true;
}

/* kptr(e) / uptr(e): the same address, read through bpf_probe_read_kernel
 * or _user.  An integer becomes a void pointer in that address space, so a
 * later cast to a typed pointer keeps it. */
bool sema_ctype_addrspace(Sema *s, Expr *c)
{
	Expr *a = c->args.v[0];
	if (!sema_expr(s, a))
		return false;
	if (a->type->kind == TY_NONE && !s->strict)
		return true;
	if (a->type->kind != TY_INT)
		return sema_error(s, a->loc, "%s() needs a pointer or an integer address, not %s",
				  c->name, tname(a->type));
	bool user = !strcmp(c->name, "uptr");
	Type *t = a->type;
	if (!type_is_ptr(t)) {
		t = ty_int(s, 64, false);
		Type *v = ty_simple(s, TY_NONE, 0);
		v->cname = "void";
		t->pointee = v;
	}
	c->type = ptr_copy(s, t, user);
	return true;
}

bool sema_ctype_const(Sema *s, Expr *e)
{
	int64_t v;
	/* the script's enums and #defines, then the kernel's enumerators */
	if (!cdefs_const(s->sc->cdefs, e->name, &v) && !btf_enum_value(s->sc->opt.sym, e->name, &v))
		return false;
	e->kind = E_INT;
	e->ival = (uint64_t)v;
	e->type = ty_int(s, 64, v >= 0);
	Type *en = cdefs_find(s->sc->cdefs, CN_CONST, e->name);
	if (en && sema_hooks(s)->enum_names) { /* the value keeps its enum's names */
		e->lit = LIT_ENUM;
		e->auxp = en;
	}
	return true;
}

void sema_enum_named(Sema *s, Expr *e)
{
	const Type *t = e->type;
	const Type *en = e->kind == E_INT && e->lit == LIT_ENUM ? e->auxp : t;
	if (!t || t->kind != TY_INT || t->pointee || !en->enumerators || t->enum_named)
		return;
	Type *w = ty_copy(s, t);
	w->enumerators = en->enumerators; /* an enumerator's literal: its enum's */
	w->enum_named = true;
	e->type = w;
}

int sema_ctype_step(const Type *t)
{
	if (!t || !type_is_ptr(t))
		return 1;
	Type *pt = t->pointee;
	int sz = pt->kind == TY_RECORD ? type_record_size(pt) : pt->kind == TY_NONE ? 1
		 : type_csize(pt);
	return sz > 1 ? sz : 1;
}

void sema_ctype_arith(Sema *s, Expr *e)
{
	(void)s;
	e->aux = e->aux2 = 0;
	if (e->op != OP_ADD && e->op != OP_SUB)
		return;
	Type *l = e->a->type, *r = e->b->type;
	Type *p = type_is_ptr(l) ? l : e->op == OP_ADD && type_is_ptr(r) ? r : NULL;
	if (!p || (type_is_ptr(l) && type_is_ptr(r)))
		return;
	int sz = sema_ctype_step(p);
	if (sz > 1) {
		if (p == l)
			e->aux = sz;  /* scale the right operand */
		else
			e->aux2 = sz; /* scale the left operand */
	}
	e->type = p;
}

Type *sema_ctype_curtask(Sema *s)
{
	Type *t = ty_int(s, 64, false);
	/* a task_struct the script defines overrides the kernel's */
	t->pointee = cdefs_find(s->sc->cdefs, CN_STRUCT, "task_struct");
	if (!t->pointee || (!t->pointee->nfields && !t->pointee->btf_id))
		t->pointee = btf_lazy_record(s->sc->opt.sym, "struct", "task_struct");
	return t;
}

/* "struct sock *", "const struct file *" in a tracepoint format: a typed
 * pointer.  Arguments of syscalls tracepoints point into user memory. */
void sema_ctype_tp_enum(Sema *s, const char *ctype, Type *t)
{
	if (!sema_hooks(s)->enum_names || strncmp(ctype, "enum ", 5))
		return;
	Type *en = cdefs_find(s->sc->cdefs, CN_ENUM, ctype + 5);
	if (!en)
		en = btf_find_type(s->sc->opt.sym, "enum", ctype + 5);
	if (en)
		t->enumerators = en->enumerators;
}

/* "const char *const *" (execve's argv, envp): the count of '*'s after
 * char, 0 when the type is something else */
static int char_ptr_depth(const char *p)
{
	if (!strncmp(p, "const ", 6))
		p += 6;
	if (strncmp(p, "char ", 5) && strncmp(p, "char*", 5))
		return 0;
	int stars = 0;
	for (p += 4; *p; p++) {
		if (*p == '*')
			stars++;
		else if (!strncmp(p, "const", 5))
			p += 4;
		else if (*p != ' ')
			return 0;
	}
	return stars;
}

Type *sema_ctype_tp_field(Sema *s, const char *ctype)
{
	const char *p = ctype;
	bool user = strstr(s->spec->name, ":syscalls:") != NULL;
	if (char_ptr_depth(ctype) == 2) { /* argv[1] is a string's address */
		Type *str = ty_int(s, 64, false), *t = ty_int(s, 64, false);
		str->pointee = ty_int(s, 8, true);
		str->user = t->user = user;
		t->pointee = str;
		return t;
	}
	if (!strncmp(p, "const ", 6))
		p += 6;
	bool un = !strncmp(p, "union ", 6);
	if (strncmp(p, "struct ", 7) && !un)
		return NULL;
	p += un ? 6 : 7;
	size_t n = strcspn(p, " *");
	if (strcmp(p + n, " *") && strcmp(p + n, "*"))
		return NULL;
	char name[128];
	snprintf(name, sizeof(name), "%.*s", (int)n, p);
	Type *rec = cdefs_find(s->sc->cdefs, un ? CN_UNION : CN_STRUCT, name);
	if (!rec)
		rec = btf_lazy_record(s->sc->opt.sym, un ? "union" : "struct", name);
	Type *t = ty_int(s, 64, false);
	t->pointee = rec;
	t->user = user;
	return t;
}
