/* D's rules and words in semantic analysis, which the core asks for
 * through d_sema_hooks (compile/sema_hooks.h): declared variables, C's
 * types of operators, casts, incompatible assignments in DTrace's words,
 * D's probe builtins and its stack actions.  Its aggregations are
 * sema_agg_d.c's, its formats sema_format_d.c's. */
#include <stdio.h>
#include <string.h>

#include "../compile/sema_hooks.h"
#include "dfunc.h"
#include "sema_d.h"

/* D: a scalar array's type (`int x[5];`), elements in their C layout */
static Type *d_array_type(Sema *s, Type *el, int count)
{
	/* char[N] is a string, as in C definitions (cdecl.c) */
	if (el->kind == TY_INT && !el->pointee && el->bits == 8 && el->is_signed && !el->cname)
		return ty_str(s, count);
	int esz = type_csize(el);
	Type *a = ty_simple(s, TY_ARRAY, esz * count);
	a->pointee = el;
	a->count = count;
	return a;
}

/* a declared variable's type as stored; a float keeps its name (its width
 * does not say it is one: D's printf %f asks, printf_fmt_d.c) */
static Type *declared_storage(Sema *s, Type *dt)
{
	Type *st = sema_value_storage_type(s, dt);
	if (st != dt && st->kind == TY_INT && dt->kind == TY_INT && dt->cname && !st->cname) {
		Type *named = ty_int(s, st->bits, st->is_signed);
		named->cname = dt->cname;
		return named;
	}
	return st;
}

/* D: *t = the declared type of the variable sonde names `name` ("`x",
 * "self->x", "this->x"), NULL when it has no declaration; false when the
 * declaration's type is unknown (error set). */
bool sema_d_declared(Sema *s, const char *name, Type **t)
{
	const Program *p = s->sc->ast;
	*t = NULL;
	for (int i = 0; i < p->nd_vars; i++) {
		const DVarDecl *d = &p->d_vars[i];
		if (strcmp(d->name, name))
			continue;
		if (!strcmp(d->type, "string")) { /* `string s[4];`: an array of strings */
			Type *str = ty_str(s, s->sc->opt.strlen_max);
			*t = d->count ? d_array_type(s, str, d->count) : str;
			return true;
		}
		Type *dt = sema_ctype_named(s, d->type, d->loc);
		if (!dt)
			return false;
		*t = d->count ? d_array_type(s, dt, d->count) : declared_storage(s, dt);
		return true;
	}
	return true;
}

/* D's words for a value's type, in its messages (C's names) */
const char *sema_d_type_name(const Type *t, char *buf, size_t n)
{
	static const char *const ints[2][4] = {
		{"unsigned char", "unsigned short", "unsigned int", "unsigned long"},
		{"char", "short", "int", "long"},
	};
	if (t->kind == TY_STR)
		return "string";
	if (t->kind == TY_INT && t->pointee) {
		char pb[128];
		snprintf(buf, n, "%s *", t->pointee->kind == TY_INT || t->pointee->kind == TY_STR
					  ? sema_d_type_name(t->pointee, pb, sizeof(pb)) : tn(t->pointee));
		return buf;
	}
	if (t->kind == TY_INT && t->cname) /* float, double, enum x */
		return t->cname;
	if (t->kind == TY_INT)
		return ints[t->is_signed][t->bits <= 8 ? 0 : t->bits <= 16 ? 1 : t->bits <= 32 ? 2 : 3];
	if (t->dsym) /* sym() and the others: DTrace's types of their values */
		return t->kind == TY_USYM ? "_usymaddr" : "_symaddr";
	return type_name(t, buf, n);
}

/* whether d_arith_type(l, r) is signed: D's / and % divide signed then
 * (CodegenHooks.signed_div) */
bool sema_d_arith_signed(const Type *l, const Type *r)
{
	int lb = l->bits < 32 ? 32 : l->bits, rb = r->bits < 32 ? 32 : r->bits;
	bool ls = l->bits < 32 || l->is_signed, rs = r->bits < 32 || r->is_signed;
	return lb != rb ? (lb > rb ? ls : rs) : ls && rs;
}

/* D: a variable given a value of a type its own cannot take */
bool sema_d_incompat(Sema *s, Loc loc, const Type *var, const Type *val)
{
	char a[160], b[160];
	return sema_error(s, loc, "operands have incompatible types: \"%s\" = \"%s\"",
			  sema_d_type_name(var, a, sizeof(a)), sema_d_type_name(val, b, sizeof(b)));
}

/* D types arithmetic as C does: each side promoted to at least int, then
 * the wider one; at equal widths unsigned wins.  (A shift has the
 * promoted type of its left side: pass it twice.) */
static Type *d_arith_type(Sema *s, const Type *l, const Type *r)
{
	int lb = l->bits < 32 ? 32 : l->bits, rb = r->bits < 32 ? 32 : r->bits;
	return ty_int(s, lb > rb ? lb : rb, sema_d_arith_signed(l, r));
}

/* an operator's type in C's rules: a comparison, !x and a string
 * comparison are ints; pointers keep the core's */
static Type *d_op_type(Sema *s, const Expr *e)
{
	const Type *l = e->a->type;
	if (e->kind == E_UNOP)
		return l->pointee ? NULL : e->op == OP_LNOT ? ty_int(s, 32, true) : d_arith_type(s, l, l);
	const Type *r = e->b->type;
	if (l->kind == TY_STR && r->kind == TY_STR)
		return ty_int(s, 32, true);
	if (l->pointee || r->pointee)
		return NULL;
	bool cmp = e->op >= OP_EQ && e->op <= OP_LOR;
	return cmp ? ty_int(s, 32, true) : d_arith_type(s, l, e->op == OP_SHL || e->op == OP_SHR ? l : r);
}

/* D: a cast of a string, record or array is DTrace's D_CAST_INVAL */
static bool d_cast_check(Sema *s, Expr *e, bool to_int)
{
	(void)to_int; /* to any type: the value is what D checks */
	if (!sema_expr(s, e->a))
		return false;
	TypeKind k = e->a->type->kind;
	if (k == TY_INT || k == TY_NONE)
		return true;
	const char *from = k == TY_STR ? "string" : tn(e->a->type);
	if (e->sval) /* the value of an inline (d_builtins.c) */
		return sema_error(s, e->a->loc, "inline %s definition uses incompatible types: \"%s\" = "
				  "\"%s\"", e->sval, e->name, from);
	return sema_error(s, e->loc, "invalid cast expression: \"%s\" to \"%s\"", from, e->name);
}

/* D: `this->s = 0` of a declared struct or array clause-local (the zero
 * d_this_init gives one the clause uses before assigning it) */
static bool d_zero_struct(Sema *s, Stmt *st)
{
	Expr *t = st->target, *v = st->expr;
	VarInfo *var = sema_var_find(s, t->name);
	Type *dt = var ? var->type : NULL;
	if (v->kind != E_INT || v->ival)
		return false;
	if (!var && (!sema_d_declared(s, t->name, &dt) || !dt))
		return false;
	if (dt->kind != TY_RECORD && dt->kind != TY_ARRAY)
		return false;
	if (!var) {
		var = arena_alloc(&s->sc->arena, sizeof(VarInfo));
		var->name = t->name;
		var->type = dt;
		vec_push(&s->vars, var);
	}
	t->var = var;
	t->type = var->type;
	return true;
}

static bool d_map_mismatch(Sema *s, const MapInfo *m, const Type *t, Loc loc)
{
	return sema_d_incompat(s, loc, m->val, t);
}

static bool d_var_mismatch(Sema *s, const Stmt *st, const Type *held, const Type *val)
{
	return sema_d_incompat(s, st->loc, held, val);
}

/* key i of a map's key type (a tuple's element, or the one key) */
static const Type *key_part(const Type *k, int i)
{
	return k->kind == TY_TUPLE ? k->elem[i] : k;
}

/* an associative array used with other keys than its first use's: dtrace's
 * dt_idcook_sign words, D_PROTO_LEN for their number, D_PROTO_ARG for a key.
 * A thread-local's first key is the thread's (d_builtins.c): not counted. */
static bool d_key_mismatch(Sema *s, const Expr *e)
{
	const Type *want = e->map->key;
	int nwant = !want ? 0 : want->kind == TY_TUPLE ? want->nelem : 1;
	bool self = !strncmp(e->name, "self->", 6);
	const char *pn = e->map->print_name, *name = self ? e->name + 6 : e->name + (e->name[0] == '`');
	if (!self && pn[0] == '@' && pn[1] != '`') /* an aggregation: dtrace names it @a */
		name = pn;
	if (nwant != e->args.n)
		return sema_error_late(s, e->loc, "%s[ ] prototype mismatch: %d key%s passed, %d expected",
				       name, e->args.n - self, e->args.n - self == 1 ? "" : "s",
				       nwant - self); /* dt_idcheck: "key" for arrays and aggregations */
	for (int i = self; i < nwant; i++) {
		const Type *got = e->args.v[i]->type, *had = key_part(want, i);
		if (got->kind == had->kind && (got->kind != TY_RECORD || !got->cname || !had->cname ||
					       !strcmp(got->cname, had->cname)))
			continue; /* as sema_merge_type takes them */
		char wb[128], gb[128];
		return sema_error_late(s, e->loc, "%s[ ] key #%d is incompatible with prototype:\n"
				       "\tprototype: %s\n\t      key: %s", name, i + 1 - self,
				       sema_d_type_name(key_part(want, i), wb, sizeof(wb)),
				       sema_d_type_name(got, gb, sizeof(gb)));
	}
	return sema_error_late(s, e->loc, "%s[ ] keys are incompatible with its prototype", name);
}

/* a constant index past an array's end: DTrace's words, D_ARR_BOUNDS */
static bool d_index_bounds(Sema *s, const Expr *e, int count)
{
	return sema_error(s, e->loc, "index outside array bounds: %llu, max is %d",
			  (unsigned long long)e->b->ival, count);
}

/* D's argN in a syscall probe (tracepoint syscalls:sys_enter_X/sys_exit_X):
 * the record holds the number, then the six arguments (entry) or the
 * return value (exit) as 8-byte words; arg0 and arg1 of a return probe
 * are both the return value, as in DTrace. */
int d_syscall_arg_offset(const ProbeSpec *spec, int n)
{
	switch (probe_syscall(spec)) {
	case SYSCALL_ENTRY:
		return n >= 0 && n < 6 ? 16 + 8 * n : -1;
	case SYSCALL_EXIT:
		return n == -1 || n == 0 || n == 1 ? 16 : -1;
	default:
		return -1;
	}
}

/* True when argN lies past the record of a syscall that takes fewer
 * arguments (getppid has none): the kernel refuses to attach a program
 * that reads beyond the record, and DTrace's value there means nothing,
 * so D reads it as 0. */
bool d_syscall_arg_absent(const ProbeSpec *spec, int n)
{
	int off = d_syscall_arg_offset(spec, n);
	if (off < 0 || !spec->tp.nfields)
		return false;
	const TpField *last = &spec->tp.fields[spec->tp.nfields - 1];
	return off + 8 > last->offset + last->size;
}

/* argN of a syscall tracepoint: from its record */
static bool d_arg_elsewhere(Sema *s, int n)
{
	return d_syscall_arg_offset(s->spec, n) >= 0;
}

/* D's probe names and id (bpftrace has none) */
static const BuiltinDef d_builtins[] = {
	{"probeprov", B_DPROBE, TY_STR, 64, false}, {"probemod", B_DPROBE, TY_STR, 64, false},
	{"probefunc", B_DPROBE, TY_STR, 128, false}, {"probename", B_DPROBE, TY_STR, 64, false},
	{"id", B_DPROBE_ID, TY_INT, 64, false},      {"epid", B_DPROBE_ID, TY_INT, 64, false},
};

/* stack(), ustack(), jstack() and the symbol functions (sym(), mod(),
 * usym(), ...) alone are trace() records */
static const char *const d_stack_actions[] = {"jstack", "stack", "ustack", "sym", "func", "mod",
					      "usym", "ufunc", "umod", "uaddr", NULL};

/* DTrace's words when a function gets the wrong number of arguments (a
 * subroutine's or an aggregating function's: avg(1, 2), clear()) */
static bool d_arity_error(Sema *s, Expr *e, const FuncDef *f)
{
	int n = e->args.n;
	if (f->min_args == f->max_args)
		return sema_error(s, e->loc, "%s( ) prototype mismatch: %d arg%s passed, %d expected",
				  f->name, n, n == 1 ? "" : "s", f->min_args);
	return sema_error(s, e->loc, "%s( ) prototype mismatch: %d arg%s passed, %s %d expected",
			  f->name, n, n == 1 ? "" : "s", n < f->min_args ? "at least" : "no more than",
			  n < f->min_args ? f->min_args : f->max_args);
}

const SemaHooks d_sema_hooks = {
	.ints_keep_width = true,
	.strings_ordered = true,
	.strsize_strings = true,
	.store_places = true,
	.map_error_at_value = true,
	.c_vars = true,
	.stack_actions = d_stack_actions,
	.stack_print = "trace",
	.builtins = d_builtins,
	.nbuiltins = sizeof(d_builtins) / sizeof(d_builtins[0]),
	.declared = sema_d_declared,
	.map_value_check = sema_d_agg_mismatch,
	.map_mismatch = d_map_mismatch,
	.key_mismatch = d_key_mismatch,
	.map_arg_keys = true, /* a store of 0 deletes: its keys are a use like any other */
	.var_mismatch = d_var_mismatch,
	.assign_own = d_zero_struct,
	.op_type = d_op_type,
	.binop_types = sema_d_binop_null,
	.cast = d_cast_check,
	.index_bounds = d_index_bounds,
	.arg_elsewhere = d_arg_elsewhere,
	.call_order = dsema_action_order,
	.arity_error = d_arity_error,
	.printf_check = sema_d_printf,
	.format_conv = d_widen_conv,
	.aggs_signed = true, /* DTrace's min/max/sum compare and print signed */
};
