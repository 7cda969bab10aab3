/* D's variables on sonde's tree.  The parser leaves D names as they are
 * written; this pass gives them sonde's meaning before sema runs:
 *   execname, timestamp, pid, ... -> sonde builtins (with D's C types);
 *   self->x                       -> a map keyed by tid ("self->x");
 *   this->x                       -> a clause variable ("this->x");
 *   x, x[k] (assigned somewhere)  -> global maps ("`x"), apart from @x;
 *   self->x = 0, x[k] = 0         -> delete (DTrace frees them so);
 *   args[N] in syscall probes     -> argN.
 * It also marks the clauses whose firings print dtrace(1)'s default
 * "CPU ID FUNCTION:NAME" line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../util/clock.h"
#include "dtrace.h"

/* a global assigned as x[k] (an associative array), as x (a scalar: x[i]
 * then indexes its value, a pointer or a scalar array) */
enum { G_ASSOC = 1, G_SCALAR = 2 };

typedef struct Rw {
	Program *prog;
	const DEnv *env;
	Error *err;
	StrIndex globals; /* names assigned as D globals (an index: scripts have thousands):
			     G_* bits, how they are assigned or declared */
	StrIndex stored;  /* self->x and globals assigned a value other than 0 */
	const Probe *probe;         /* the clause being rewritten */
	const DArgSig *sig;         /* its probes' typed args[] (d_args.c), or NULL */
	int inline_depth;           /* inlines being expanded */
} Rw;

static Expr *mk_builtin(Rw *rw, const char *name, Loc loc)
{
	Expr *e = expr_new(rw->prog, E_BUILTIN, loc);
	e->name = arena_strdup(&rw->prog->arena, name);
	return e;
}

static Expr *mk_field(Rw *rw, Expr *base, const char *name)
{
	Expr *e = expr_new(rw->prog, E_FIELD, base->loc);
	e->arrow = true;
	e->a = base;
	e->name = arena_strdup(&rw->prog->arena, name);
	return e;
}

static Expr *mk_cast(Rw *rw, const char *type, Expr *a)
{
	Expr *e = expr_new(rw->prog, E_CAST, a->loc);
	e->name = arena_strdup(&rw->prog->arena, type);
	e->a = a;
	return e;
}

static Expr *mk_int(Rw *rw, uint64_t v, Loc loc)
{
	Expr *e = expr_new(rw->prog, E_INT, loc);
	e->ival = v;
	return e;
}

static bool is_global(const Rw *rw, const char *name)
{
	return str_index_find(&rw->globals, name) != NULL;
}

/* every clause's probes are of providers starting with prov (and named
 * name, unless NULL) */
static bool clause_all(const Probe *p, const char *prov, const char *name)
{
	for (int i = 0; i < p->naps; i++) {
		const DProbeName *d = p->aps[i].d;
		if (!d || strncmp(d->prov, prov, strlen(prov)) || (name && strcmp(d->name, name)))
			return false;
	}
	return p->naps > 0;
}

/* sonde builtins that are not D variables: in D they are undefined names */
static const char *const sonde_only[] = {
	"comm", "nsecs", "elapsed", "cgroup", "curtask", "rand", "probe", "kstack", "ustack",
	"pystack", "retval", "cpid", "func", "numaid", "username", "ctx",
};

/* DTrace's built-in variables (dt_open.c's _dtrace_globals): none is
 * writable, so a script cannot make one of them its own variable */
static bool is_builtin_var(const char *n)
{
	static const char *const vars[] = {
		"args", "caller", "chip", "cpu", "curcpu", "curthread", "epid", "errno", "execargs",
		"execname", "gid", "id", "ipl", "lgrp", "pid", "ppid", "probefunc", "probemod",
		"probename", "probeprov", "pset", "regs", "rootdir", "stackdepth", "tid", "timestamp",
		"ucaller", "uid", "uregs", "ustackdepth", "vtimestamp", "walltimestamp",
	};
	if (!strncmp(n, "arg", 3) && n[3] >= '0' && n[3] <= '9' && !n[4])
		return true;
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (!strcmp(n, vars[i]))
			return true;
	return false;
}

/* a store into one of them (base: the target, or the array it indexes) */
static bool builtin_var_store(Rw *rw, const Expr *base, const char *op)
{
	if (!base || base->kind != E_BUILTIN || !is_builtin_var(base->name))
		return false;
	error_at(rw->err, base->loc, "operator %s can only be applied to a writable variable", op);
	return true;
}

static bool is_cur_xlate(const Expr *e)
{
	return e->kind == E_BUILTIN && (!strcmp(e->name, "curpsinfo") || !strcmp(e->name, "curlwpsinfo"));
}

static Expr *rw_expr(Rw *rw, Expr *e);

static Expr *rw_clone_expr(Rw *rw, const Expr *e)
{
	if (!e)
		return NULL;
	Expr *c = expr_new(rw->prog, e->kind, e->loc);
	*c = *e;
	c->a = rw_clone_expr(rw, e->a);
	c->b = rw_clone_expr(rw, e->b);
	c->c = rw_clone_expr(rw, e->c);
	if (e->args.n) {
		c->args.v = arena_alloc(&rw->prog->arena, sizeof(Expr *) * (size_t)e->args.n);
		for (int i = 0; i < e->args.n; i++)
			c->args.v[i] = rw_clone_expr(rw, e->args.v[i]);
	}
	return c;
}

/* an inline's name: a copy of its expression, of its declared type */
static Expr *rw_inline(Rw *rw, const DInlineDecl *d, Loc loc)
{
	if (rw->inline_depth > 16) {
		error_at(rw->err, loc, "inline %s is defined in terms of itself", d->name);
		return NULL;
	}
	rw->inline_depth++;
	Expr *v = rw_expr(rw, rw_clone_expr(rw, d->expr));
	rw->inline_depth--;
	if (!v || !strcmp(d->type, "string"))
		return v;
	Expr *c = mk_cast(rw, d->type, v);
	c->sval = d->name; /* sema names the inline if the types do not fit */
	return c;
}

/* A D variable name: its sonde expression, or e itself */
static Expr *rw_ident(Rw *rw, Expr *e)
{
	for (int i = 0; i < rw->env->ninlines; i++)
		if (!strcmp(rw->env->inlines[i].name, e->name))
			return rw_inline(rw, &rw->env->inlines[i], e->loc);
	static const struct {
		const char *d, *sonde, *cast;
	} simple[] = {
		{"execname", "comm", NULL}, {"timestamp", "nsecs", NULL},
		{"pid", "pid", "int32"},    {"tid", "tid", "int32"},
		{"uid", "uid", "uint32"},   {"gid", "gid", "uint32"},
		{"cpu", "cpu", "int32"},    {"curthread", "curtask", NULL},
	};
	const char *n = e->name;
	if (d_is_ksym(n))
		return d_ksym_expr(rw->prog, rw->env, e, rw->err);
	if (is_global(rw, n)) {
		Expr *m = expr_new(rw->prog, E_MAP, e->loc);
		char buf[256];
		snprintf(buf, sizeof(buf), "`%s", n);
		m->name = arena_strdup(&rw->prog->arena, buf);
		return m;
	}
	for (size_t i = 0; i < sizeof(simple) / sizeof(simple[0]); i++)
		if (!strcmp(n, simple[i].d)) {
			Expr *b = mk_builtin(rw, simple[i].sonde, e->loc);
			return simple[i].cast ? mk_cast(rw, simple[i].cast, b) : b;
		}
	if ((!strcmp(n, "arg0") || !strcmp(n, "arg1")) && clause_all(rw->probe, "profile", NULL))
		return d_args_profile(rw->prog, n, e->loc, rw->err);
	if (!strcmp(n, "arg1") &&
	    (clause_all(rw->probe, "pid", "return") || clause_all(rw->probe, "fbt", "return")))
		return mk_builtin(rw, "retval", e->loc); /* a pid or fbt return probe's value */
	if (!strcmp(n, "NULL")) /* D's inline (void *)0 */
		return mk_int(rw, 0, e->loc);
	if (!strcmp(n, "ppid"))
		return mk_cast(rw, "int32", mk_field(rw, mk_field(rw, mk_builtin(rw, "curtask", e->loc),
								   "real_parent"), "tgid"));
	if (!strcmp(n, "vtimestamp")) /* the thread's CPU time, as the scheduler counts it */
	{
		Expr *se = mk_field(rw, mk_builtin(rw, "curtask", e->loc), "se");
		Expr *rt = mk_field(rw, se, "sum_exec_runtime");
		rt->arrow = false;
		return rt;
	}
	if (!strcmp(n, "walltimestamp")) {
		Expr *add = expr_new(rw->prog, E_BINOP, e->loc);
		add->op = OP_ADD;
		add->a = mk_builtin(rw, "nsecs", e->loc);
		add->b = mk_int(rw, wall_offset_ns(), e->loc);
		return add;
	}
	if (!strcmp(n, "errno")) { /* a return probe's negative return value */
		if (!clause_all(rw->probe, "syscall", "return"))
			return mk_cast(rw, "int32", mk_int(rw, 0, e->loc));
		Expr *neg = expr_new(rw->prog, E_UNOP, e->loc), *lt = expr_new(rw->prog, E_BINOP, e->loc);
		Expr *t = expr_new(rw->prog, E_TERNARY, e->loc);
		neg->op = OP_NEG;
		neg->a = mk_cast(rw, "int64", mk_builtin(rw, "arg0", e->loc));
		lt->op = OP_LT;
		lt->a = mk_cast(rw, "int64", mk_builtin(rw, "arg0", e->loc));
		lt->b = mk_int(rw, 0, e->loc);
		t->a = lt;
		t->b = neg;
		t->c = mk_int(rw, 0, e->loc);
		return mk_cast(rw, "int32", t);
	}
	int cv;
	if (d_args_const(n, &cv))
		return mk_cast(rw, "int32", mk_int(rw, (uint64_t)(int64_t)cv, e->loc));
	if (is_cur_xlate(e)) {
		error_at(rw->err, e->loc, "%s is a pointer to a translated struct: use %s->MEMBER", n, n);
		return NULL;
	}
	for (size_t i = 0; i < sizeof(sonde_only) / sizeof(sonde_only[0]); i++)
		if (!strcmp(n, sonde_only[i])) {
			error_at(rw->err, e->loc, "failed to resolve %s: Unknown variable name", n);
			return NULL;
		}
	return e;
}

static bool rw_list(Rw *rw, ExprList *l)
{
	for (int i = 0; i < l->n; i++)
		if (!(l->v[i] = rw_expr(rw, l->v[i])))
			return false;
	return true;
}

/* self->x, this->x */
static Expr *rw_scoped(Rw *rw, Expr *e)
{
	bool self = !strcmp(e->a->name, "self");
	char buf[256];
	snprintf(buf, sizeof(buf), "%s->%s", e->a->name, e->name);
	Expr *v = expr_new(rw->prog, self ? E_MAP : E_VAR, e->loc);
	v->name = arena_strdup(&rw->prog->arena, buf);
	if (self) {
		v->args.v = arena_alloc(&rw->prog->arena, sizeof(Expr *));
		v->args.v[0] = mk_builtin(rw, "tid", e->loc);
		v->args.n = 1;
	}
	return v;
}

/* args[N] with a constant N */
static bool is_args_n(const Expr *e)
{
	return e->kind == E_INDEX && e->a->kind == E_BUILTIN && !strcmp(e->a->name, "args") &&
	       e->b->kind == E_INT && e->b->ival < 16;
}

/* xlate <TYPE>(x), xlate <TYPE *>(x) (lang/parse_primary.c) */
static bool is_xlate(const Expr *e)
{
	return e->kind == E_CALL && e->sval && !strcmp(e->name, "xlate") && e->args.n == 1;
}

/* something translated: curpsinfo, curlwpsinfo, args[N] of a typed probe,
 * xlate; `arrow`: how its member is reached (xlate <T *> is a pointer) */
static bool is_translated(const Rw *rw, const Expr *e, bool arrow)
{
	if (is_xlate(e))
		return arrow == (strchr(e->sval, '*') != NULL);
	return arrow && (is_cur_xlate(e) || (rw->sig && is_args_n(e)));
}

/* an expression with each E_BUILTIN `name` replaced by `with` (a copy) */
static Expr *subst_ident(Rw *rw, const Expr *e, const char *name, const Expr *with)
{
	if (!e)
		return NULL;
	if (e->kind == E_BUILTIN && !strcmp(e->name, name))
		return rw_clone_expr(rw, with);
	Expr *c = expr_new(rw->prog, e->kind, e->loc);
	*c = *e;
	c->a = subst_ident(rw, e->a, name, with);
	c->b = subst_ident(rw, e->b, name, with);
	c->c = subst_ident(rw, e->c, name, with);
	if (e->args.n) {
		c->args.v = arena_alloc(&rw->prog->arena, sizeof(Expr *) * (size_t)e->args.n);
		for (int i = 0; i < e->args.n; i++)
			c->args.v[i] = subst_ident(rw, e->args.v[i], name, with);
	}
	return c;
}

static const DXlator *user_xlator(const Rw *rw, const char *type)
{
	for (int i = 0; i < rw->env->nxlators; i++)
		if (!strcmp(rw->env->xlators[i].out, type))
			return &rw->env->xlators[i];
	return NULL;
}

/* member (or member.field) of a user translator's output for `in` */
static Expr *user_member(Rw *rw, const DXlator *x, Expr *in, const char *member, Loc loc)
{
	size_t n = strcspn(member, ".");
	for (int i = 0; i < x->members.n; i++) {
		const Stmt *m = x->members.v[i];
		if (strlen(m->target->name) != n || strncmp(m->target->name, member, n))
			continue;
		Expr *v = rw_expr(rw, rw_clone_expr(rw, m->expr));
		if (!v)
			return NULL;
		if (strcmp(x->in, "string"))
			in = mk_cast(rw, x->in, in);
		v = subst_ident(rw, v, x->ident, in);
		for (const char *f = member + n; *f == '.'; f += n + 1) {
			n = strcspn(f + 1, ".");
			v = mk_field(rw, v, arena_strndup(&rw->prog->arena, f + 1, n));
			v->arrow = false;
		}
		return v;
	}
	error_at(rw->err, loc, "translator does not define conversion for member: %.*s", (int)n, member);
	return NULL;
}

static bool have_xlator(const Rw *rw, const char *type)
{
	return user_xlator(rw, type) || d_xlate_builtin_exists(type);
}

/* xlate <type>(in).member: a user translator's, else the built-in one's */
static Expr *xlate_member(Rw *rw, const char *type, Expr *in, const char *member, Expr *e)
{
	const DXlator *x = user_xlator(rw, type);
	if (x)
		return user_member(rw, x, in, member, e->loc);
	Expr *v = d_xlate_builtin(rw->prog, type, "__dt_xlate_in", member, e->loc, rw->err);
	return v ? subst_ident(rw, v, "__dt_xlate_in", in) : NULL;
}

/* the type an xlate translates to, without its '*' */
static const char *xlate_type(Rw *rw, const Expr *x)
{
	size_t n = strcspn(x->sval, "*");
	while (n && x->sval[n - 1] == ' ')
		n--;
	return arena_strndup(&rw->prog->arena, x->sval, n);
}

/* curpsinfo->m, curlwpsinfo->m, args[N]->m, xlate<T>(x).m and their struct
 * members' members (->pr_start.tv_sec): the translator's expression, or e
 * itself when e is none of them */
static Expr *rw_xlate(Rw *rw, Expr *e, bool *done)
{
	char member[160];
	Expr *ptr = e->a;
	*done = true;
	if (!e->arrow && ptr->kind == E_FIELD && is_translated(rw, ptr->a, ptr->arrow)) {
		snprintf(member, sizeof(member), "%s.%s", ptr->name, e->name);
		ptr = ptr->a;
	} else if (is_translated(rw, ptr, e->arrow)) {
		snprintf(member, sizeof(member), "%s", e->name);
	} else {
		*done = false;
		return e;
	}
	if (is_xlate(ptr)) {
		const char *type = xlate_type(rw, ptr);
		if (!have_xlator(rw, type)) { /* sema says so, with the operand's type */
			*done = false;
			return e;
		}
		Expr *in = rw_expr(rw, ptr->args.v[0]);
		return in ? xlate_member(rw, type, in, member, e) : NULL;
	}
	if (is_cur_xlate(ptr)) {
		const char *type = !strcmp(ptr->name, "curpsinfo") ? "psinfo_t" : "lwpsinfo_t";
		return xlate_member(rw, type, mk_builtin(rw, "curtask", e->loc), member, e);
	}
	return d_args_member(rw->prog, rw->sig, (int)ptr->b->ival, member, e->loc, rw->err);
}

/* xlate <struct T>(x) as a value: __xlate_struct(MEMBER's EXPR, ...)
 * (dtrace/dfunc_xlate.c), for a user translator; otherwise left to sema,
 * whose error names the rule (a built-in translator, a pointer) or the
 * missing translator */
static Expr *rw_xlate_whole(Rw *rw, Expr *e)
{
	const char *type = xlate_type(rw, e);
	const DXlator *x = user_xlator(rw, type);
	e->aux = have_xlator(rw, type);
	if (!x || strchr(e->sval, '*'))
		return rw_list(rw, &e->args) ? e : NULL;
	Expr *in = rw_expr(rw, e->args.v[0]);
	if (!in)
		return NULL;
	int n = x->members.n;
	Expr *c = expr_new(rw->prog, E_CALL, x->end); /* where dtrace reports a member of the wrong type */
	c->name = "__xlate_struct";
	c->sval = (char *)type;
	c->args.v = arena_alloc(&rw->prog->arena, sizeof(Expr *) * (size_t)(n ? n : 1));
	const char **names = arena_alloc(&rw->prog->arena, sizeof(char *) * (size_t)(n + 1));
	for (int i = 0; i < n; i++) {
		names[i] = x->members.v[i]->target->name;
		if (!(c->args.v[i] = user_member(rw, x, in, names[i], e->loc)))
			return NULL;
	}
	c->args.n = n;
	c->auxp = names;
	return c;
}

static bool is_self(const Expr *e)
{
	return e->kind == E_FIELD && e->arrow && e->a->kind == E_BUILTIN && !strcmp(e->a->name, "self");
}

/* x[k], x[a, b]: a global associative array; self->x[k]: a thread-local
 * one (keyed by the thread, then the keys) */
static Expr *rw_assoc(Rw *rw, Expr *e)
{
	if (e->a->kind == E_BUILTIN && d_is_ksym(e->a->name)) {
		error_at(rw->err, e->loc, "%s is a kernel variable, not an associative array", e->a->name);
		return NULL;
	}
	Expr *m = is_self(e->a) ? rw_scoped(rw, e->a) : rw_ident(rw, e->a);
	if (!m)
		return NULL;
	ExprList keys = e->args;
	if (!keys.n)
		keys = (ExprList){ &e->b, 1 };
	int n = m->args.n + keys.n;
	Expr **v = arena_alloc(&rw->prog->arena, sizeof(Expr *) * (size_t)n);
	for (int i = 0; i < m->args.n; i++)
		v[i] = m->args.v[i];
	for (int i = 0; i < keys.n; i++)
		if (!(v[m->args.n + i] = rw_expr(rw, keys.v[i])))
			return NULL;
	m->args = (ExprList){ v, n };
	return m;
}

/* a global scalar (`int x[5];`, `char *s;`, or assigned as `s = ...`):
 * x[i] indexes its value */
static bool indexes_value(const Rw *rw, const Expr *base)
{
	const int *v = base->kind == E_BUILTIN ? str_index_find(&rw->globals, base->name) : NULL;
	return v && (*v & G_SCALAR);
}

/* self->x declared a scalar array (`self int x[3];`): self->x[i] is an
 * element of the thread's array, as in DTrace (not an associative array) */
static bool self_scalar_array(const Rw *rw, const Expr *base)
{
	if (!is_self(base))
		return false;
	char buf[256];
	snprintf(buf, sizeof(buf), "self->%s", base->name);
	for (int i = 0; i < rw->prog->nd_vars; i++)
		if (!strcmp(rw->prog->d_vars[i].name, buf))
			return rw->prog->d_vars[i].count > 0;
	return false;
}

static Expr *rw_index(Rw *rw, Expr *e)
{
	Expr *base = e->a;
	if (indexes_value(rw, base) && e->args.n <= 1) { /* x[i]: an element of x's value */
		return (e->a = rw_ident(rw, base)) && (e->b = rw_expr(rw, e->b)) ? e : NULL;
	}
	if (self_scalar_array(rw, base) && e->args.n <= 1)
		return (e->a = rw_scoped(rw, base)) && (e->b = rw_expr(rw, e->b)) ? e : NULL;
	if ((base->kind == E_BUILTIN && is_global(rw, base->name)) || is_self(base))
		return rw_assoc(rw, e);
	if (e->args.n > 1) {
		error_at(rw->err, e->loc, "a tuple index needs an associative array");
		return NULL;
	}
	if (rw->sig && is_args_n(e))
		return d_args_index(rw->prog, rw->sig, (int)e->b->ival, e->loc, rw->err);
	if (base->kind == E_BUILTIN && !strcmp(base->name, "args") && e->b->kind == E_INT &&
	    e->b->ival < 10 && clause_all(rw->probe, "syscall", NULL)) {
		char an[8];
		snprintf(an, sizeof(an), "arg%d", (int)e->b->ival);
		return mk_builtin(rw, an, e->loc);
	}
	if (!(e->a = rw_expr(rw, e->a)) || !(e->b = rw_expr(rw, e->b)))
		return NULL;
	return e;
}

static Expr *rw_expr(Rw *rw, Expr *e)
{
	if (!e)
		return e;
	switch (e->kind) {
	case E_BUILTIN:
		return rw_ident(rw, e);
	case E_INCDEC:
		if (builtin_var_store(rw, e->a, e->op == OP_ADD ? "++" : "--"))
			return NULL;
		break;
	case E_UNOP: /* &`sym: the kernel variable's address */
		if (e->op == OP_ADDR && e->a->kind == E_BUILTIN && d_is_ksym(e->a->name)) {
			Expr *v = d_ksym_expr(rw->prog, rw->env, e->a, rw->err);
			return v ? v->a : NULL;
		}
		break;
	case E_FIELD: {
		bool done;
		Expr *x = rw_xlate(rw, e, &done);
		if (done)
			return x;
		if (e->arrow && e->a->kind == E_BUILTIN &&
		    (!strcmp(e->a->name, "self") || !strcmp(e->a->name, "this")))
			return rw_scoped(rw, e);
		break;
	}
	case E_INDEX:
		return rw_index(rw, e);
	case E_CALL: /* a whole translated struct */
		if (is_xlate(e))
			return rw_xlate_whole(rw, e);
		break;
	default:
		break;
	}
	if ((e->a && !(e->a = rw_expr(rw, e->a))) || (e->b && !(e->b = rw_expr(rw, e->b))) ||
	    (e->c && !(e->c = rw_expr(rw, e->c))) || !rw_list(rw, &e->args))
		return NULL;
	if (e->kind == E_BINOP && !d_check_div(e->op, e->b, rw->err))
		return NULL;
	return e;
}

static bool rw_stmts(Rw *rw, StmtList *l);

/* a variable with a declaration (`struct foo i[int];`): typed without an assignment */
static bool is_declared(const Program *p, const char *name)
{
	for (int i = 0; i < p->nd_vars; i++)
		if (!strcmp(p->d_vars[i].name, name))
			return true;
	return false;
}

/* D frees a thread-local or an array element assigned zero */
static void zero_to_delete(Rw *rw, Stmt *s)
{
	Expr *t = s->target;
	if (!t)
		return;
	bool dvar = t->kind == E_MAP && (t->name[0] == '`' || !strncmp(t->name, "self->", 6));
	if (s->kind != S_ASSIGN || s->op != OP_NONE || !dvar || !t->args.n ||
	    s->expr->kind != E_INT || s->expr->ival)
		return;
	if (!str_index_find(&rw->stored, t->name) && !is_declared(rw->prog, t->name))
		return; /* never given another value: the assignment gives it its type */
	Expr *call = expr_new(rw->prog, E_CALL, s->loc);
	call->name = "delete";
	call->args.v = arena_alloc(&rw->prog->arena, sizeof(Expr *));
	call->args.v[0] = t;
	call->args.n = 1;
	s->kind = S_EXPR;
	s->expr = call;
	s->target = NULL;
}

/* a variable, an array element, or a member, element or pointee of one
 * (sema_store.c says which are writable) */
static bool is_store_target(const Expr *t)
{
	return t->kind == E_MAP || t->kind == E_VAR || t->kind == E_FIELD || t->kind == E_INDEX ||
	       (t->kind == E_UNOP && t->op == OP_DEREF);
}

static bool rw_stmt(Rw *rw, Stmt *s)
{
	const Expr *base = s->target && s->target->kind == E_INDEX ? s->target->a : s->target;
	if (base && base->kind == E_BUILTIN && d_is_ksym(base->name)) /* the kernel's: read-only */
		return error_at(rw->err, s->target->loc, "operator %s requires a writable lvalue",
				s->op == OP_NONE ? "=" : "op=");
	char op[8];
	snprintf(op, sizeof(op), "%s=", s->op == OP_NONE ? "" : op_str(s->op));
	if (s->kind == S_ASSIGN && builtin_var_store(rw, base, op))
		return false;
	if (s->target && !(s->target = rw_expr(rw, s->target)))
		return false;
	if (s->expr && !(s->expr = rw_expr(rw, s->expr)))
		return false;
	if (s->kind == S_ASSIGN && !d_check_div(s->op, s->expr, rw->err))
		return false;
	if (s->target && !is_store_target(s->target))
		return error_at(rw->err, s->target->loc, "operator %s requires a writable lvalue",
				s->op == OP_NONE ? "=" : "op=");
	zero_to_delete(rw, s);
	return rw_stmts(rw, &s->body) && rw_stmts(rw, &s->els);
}

static bool rw_stmts(Rw *rw, StmtList *l)
{
	for (int i = 0; i < l->n; i++)
		if (!rw_stmt(rw, l->v[i]))
			return false;
	return true;
}

/* --- globals: names assigned anywhere --------------------------------------- */

static void note_global(Rw *rw, const Expr *t)
{
	int kind = G_SCALAR;
	if (t && t->kind == E_INDEX) {
		t = t->a;
		kind = G_ASSOC;
	}
	if (t && t->kind == E_BUILTIN && !d_is_ksym(t->name) && !is_builtin_var(t->name)) {
		const int *v = str_index_find(&rw->globals, t->name);
		str_index_put(&rw->globals, t->name, (v ? *v : 0) | kind);
	}
}

static void find_globals_expr(Rw *rw, const Expr *e)
{
	if (!e)
		return;
	if (e->kind == E_INCDEC)
		note_global(rw, e->a);
	find_globals_expr(rw, e->a);
	find_globals_expr(rw, e->b);
	find_globals_expr(rw, e->c);
	for (int i = 0; i < e->args.n; i++)
		find_globals_expr(rw, e->args.v[i]);
}

/* the map name a D target will get (self->x, `x), or NULL */
static void note_stored(Rw *rw, const Stmt *s)
{
	const Expr *t = s->target;
	if (t && t->kind == E_INDEX)
		t = t->a;
	if (!t || (s->expr && s->expr->kind == E_INT && !s->expr->ival && s->op == OP_NONE))
		return;
	char buf[256];
	if (t->kind == E_FIELD && t->arrow && t->a->kind == E_BUILTIN && !strcmp(t->a->name, "self"))
		snprintf(buf, sizeof(buf), "self->%s", t->name);
	else if (t->kind == E_BUILTIN)
		snprintf(buf, sizeof(buf), "`%s", t->name);
	else
		return;
	if (!str_index_find(&rw->stored, buf))
		str_index_put(&rw->stored, arena_strdup(&rw->prog->arena, buf), 1);
}

static void find_globals(Rw *rw, const StmtList *l)
{
	for (int i = 0; i < l->n; i++) {
		const Stmt *s = l->v[i];
		if (s->kind == S_ASSIGN) {
			note_global(rw, s->target);
			note_stored(rw, s);
		}
		find_globals_expr(rw, s->target);
		find_globals_expr(rw, s->expr);
		find_globals(rw, &s->body);
		find_globals(rw, &s->els);
	}
}

/* --- the default output: which clauses record ------------------------------ */

static bool records_expr(const Expr *e)
{
	static const char *const recording[] = {
		"trace", "printf", "printa", "exit", "stack", "ustack", "jstack", "tracemem",
		"print", "system", "freopen", "ftruncate",
	};
	if (!e)
		return false;
	if (e->kind == E_CALL)
		for (size_t i = 0; i < sizeof(recording) / sizeof(recording[0]); i++)
			if (!strcmp(e->name, recording[i]))
				return true;
	if (records_expr(e->a) || records_expr(e->b) || records_expr(e->c))
		return true;
	for (int i = 0; i < e->args.n; i++)
		if (records_expr(e->args.v[i]))
			return true;
	return false;
}

static bool records(const StmtList *l)
{
	for (int i = 0; i < l->n; i++) {
		const Stmt *s = l->v[i];
		if (records_expr(s->expr) || records(&s->body) || records(&s->els))
			return true;
	}
	return false;
}

/* the probes' own filter (proc:::start: the child's return from clone)
 * goes before the clause's predicate */
static bool add_probe_filter(Rw *rw, Probe *pr)
{
	Expr *f = d_args_filter(rw->prog, rw->env->opt->sym, rw->sig, pr->loc, rw->err);
	if (!f)
		return !rw->err->set;
	if (pr->pred) {
		Expr *and = expr_new(rw->prog, E_BINOP, pr->loc);
		and->op = OP_LAND;
		and->a = f;
		and->b = pr->pred;
		f = and;
	}
	pr->pred = f;
	return true;
}

bool d_rewrite(Program *p, const DEnv *env, Error *err)
{
	Rw rw = { .prog = p, .env = env, .err = err };
	if (!d_xlate_check(p, env, err))
		return false;
	for (int i = 0; i < p->nprobes; i++)
		find_globals(&rw, &p->probes[i]->body);
	for (int i = 0; i < p->nd_vars; i++) /* declared: `int x;`, `int a[int];` */
		if (p->d_vars[i].name[0] == '`')
			str_index_put(&rw.globals, p->d_vars[i].name + 1,
				      p->d_vars[i].assoc ? G_ASSOC : G_SCALAR);
	bool ok = true;
	for (int i = 0; ok && i < p->nprobes; i++) {
		Probe *pr = p->probes[i];
		rw.probe = pr;
		const DProbeName *d = pr->naps ? pr->aps[0].d : NULL;
		rw.sig = d ? d_args_of(d->prov, d->name, pr->aps[0].text) : NULL;
		pr->d_record = !env->quiet && (!pr->body.n || records(&pr->body));
		d_this_init(p, pr);
		ok = (!pr->pred || (pr->pred = rw_expr(&rw, pr->pred))) && rw_stmts(&rw, &pr->body) &&
		     add_probe_filter(&rw, pr);
	}
	str_index_free(&rw.globals);
	str_index_free(&rw.stored);
	return ok;
}
