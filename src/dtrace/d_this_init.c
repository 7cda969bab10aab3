/* Clause-local variables that a clause reads before it gives them a value:
 * DTrace starts each at zero (dtrace-utils' tests: a declared `this int x;`
 * read first is 0; `++this->x` and `this->x++` with nothing assigned
 * before read 0).  Such a variable gets `this->x = 0` ("" for a string)
 * at the top of the clause, before the D front end rewrites it.  A
 * clause-local read with neither a declaration nor an increment stays
 * DTrace's D_VAR_UNDEF. */
#include <stdlib.h>
#include <string.h>

#include "dtrace.h"

typedef struct Need {
	const Program *prog;
	VEC(const char *) names;    /* this->NAME's NAME needing a zero, once each */
	VEC(const char *) assigned; /* given a value at the clause's top level so far */
} Need;

static bool is_this(const Expr *e)
{
	return e && e->kind == E_FIELD && e->arrow && e->a->kind == E_BUILTIN &&
	       !strcmp(e->a->name, "this");
}

static const DVarDecl *this_var_decl(const Program *p, const char *name)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "this->%s", name);
	for (int i = 0; i < p->nd_vars; i++)
		if (!strcmp(p->d_vars[i].name, buf))
			return &p->d_vars[i];
	return NULL;
}

static bool in(const char *const *v, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			return true;
	return false;
}

/* `inc`: e is changed in place (++, --, op=), so read first */
static void walk_expr(Need *n, const Expr *e, bool inc)
{
	if (!e)
		return;
	if (is_this(e) && (inc || this_var_decl(n->prog, e->name)) &&
	    !in(n->assigned.v, n->assigned.n, e->name) && !in(n->names.v, n->names.n, e->name))
		vec_push(&n->names, e->name);
	walk_expr(n, e->a, e->kind == E_INCDEC);
	walk_expr(n, e->b, false);
	walk_expr(n, e->c, false);
	for (int i = 0; i < e->args.n; i++)
		walk_expr(n, e->args.v[i], false);
}

/* in statement order; an assignment inside an if or a loop may not run, so
 * only the top level's count as giving a value */
static void walk_stmts(Need *n, const StmtList *l, bool top)
{
	for (int i = 0; i < l->n; i++) {
		const Stmt *s = l->v[i];
		bool plain = s->kind == S_ASSIGN && s->op == OP_NONE && is_this(s->target);
		if (!plain)
			walk_expr(n, s->target, s->kind == S_ASSIGN && s->op != OP_NONE);
		walk_expr(n, s->expr, false);
		if (plain && top)
			vec_push(&n->assigned, s->target->name);
		walk_stmts(n, &s->body, false);
		walk_stmts(n, &s->els, false);
	}
}

/* this->NAME = 0 ("" for a declared string; a declared struct, union or array
 * assigned 0 is zeroed, sema.c) */
static Stmt *zero_init(Program *p, const char *name, Loc loc)
{
	const DVarDecl *d = this_var_decl(p, name);
	bool str = d && !d->count && !strcmp(d->type, "string"); /* an array is zeroed */
	Expr *self = arena_alloc(&p->arena, sizeof(Expr));
	*self = (Expr){ .kind = E_BUILTIN, .loc = loc, .name = "this" };
	Expr *t = arena_alloc(&p->arena, sizeof(Expr));
	*t = (Expr){ .kind = E_FIELD, .loc = loc, .arrow = true, .a = self, .name = (char *)name };
	Expr *v = arena_alloc(&p->arena, sizeof(Expr));
	*v = str ? (Expr){ .kind = E_STR, .loc = loc, .sval = "" } : (Expr){ .kind = E_INT, .loc = loc };
	Stmt *s = arena_alloc(&p->arena, sizeof(Stmt));
	*s = (Stmt){ .kind = S_ASSIGN, .loc = loc, .op_loc = loc, .op = OP_NONE, .target = t, .expr = v };
	return s;
}

/* the zeros go in a block with the clause's first statement, so that
 * dtrace's action numbers (a fault's "action #N") stay the script's */
void d_this_init(Program *p, Probe *pr)
{
	Need n = { .prog = p };
	walk_expr(&n, pr->pred, false);
	walk_stmts(&n, &pr->body, true);
	if (n.names.n && pr->body.n) {
		Stmt **v = arena_alloc(&p->arena, sizeof(Stmt *) * (size_t)(n.names.n + 1));
		int k = 0;
		for (int i = 0; i < n.names.n; i++)
			v[k++] = zero_init(p, n.names.v[i], pr->loc);
		v[k++] = pr->body.v[0];
		Stmt *b = arena_alloc(&p->arena, sizeof(Stmt));
		*b = (Stmt){ .kind = S_BLOCK, .loc = pr->body.v[0]->loc, .body = { v, k } };
		pr->body.v[0] = b;
	}
	vec_free(&n.names);
	vec_free(&n.assigned);
}
