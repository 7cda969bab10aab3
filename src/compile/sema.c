/* Semantic analysis of a probe: its predicate and statements.  Expressions
 * are sema_expr.c's (operators sema_ops.c, maps sema_map.c, variables
 * sema_var.c, assignments sema_assign.c, messages sema_diag.c, stored types
 * sema_storage.c); functions and builtins live in their own tables
 * (sema_call.c, sema_builtin.c). */
#include "sema_int.h"

#include <string.h>

static bool sema_stmts(Sema *s, const StmtList *l);
static bool sema_scope(Sema *s, const StmtList *l);

/* `c ? printf(...) : exit();` as a statement: the arms are statements (void
 * calls are allowed there, as in bpftrace), so it becomes if/else. */
static StmtList one_stmt(Sema *s, Expr *e)
{
	Arena *a = &s->sc->ast->arena;
	Stmt *st = arena_alloc(a, sizeof(Stmt));
	st->kind = S_EXPR;
	st->loc = e->loc;
	st->expr = e;
	StmtList l = {arena_alloc(a, sizeof(Stmt *)), 1};
	l.v[0] = st;
	return l;
}

/* a call without a value, or a ?: of such calls */
static bool is_void_call(const Expr *e)
{
	if (e->kind == E_TERNARY)
		return is_void_call(e->b) && is_void_call(e->c);
	const FuncDef *f = e->kind == E_CALL ? func_find(e->name) : NULL;
	return f && f->kind == FK_STMT;
}

/* one arm a void call, the other a value: bpftrace's error */
static bool void_arm_error(Sema *s, Expr *t)
{
	Expr *v = is_void_call(t->b) ? t->c : t->b;
	if (!sema_expr(s, v))
		return false;
	const char *vk = v->type->kind == TY_INT ? "integer" : v->type->kind == TY_STR ? "string"
			 : tn(v->type);
	bool first = v == t->b;
	return sema_error(s, t->a->loc, "Ternary operator must return the same type: have '%s' and "
			  "'%s'", first ? vk : "none", first ? "none" : vk);
}

static void ternary_to_if(Sema *s, Stmt *st)
{
	Expr *t = st->expr;
	st->kind = S_IF;
	st->expr = t->a;
	st->body = one_stmt(s, t->b);
	st->els = one_stmt(s, t->c);
}

/* `jstack();` alone prints the stack, as in DTrace: print(jstack()); the
 * dialect's list (SemaHooks.stack_actions) says which calls do so */
static bool is_stack_action(const Sema *s, const Expr *e)
{
	if (e->kind != E_CALL)
		return false;
	for (const char *const *a = sema_hooks(s)->stack_actions; a && *a; a++)
		if (!strcmp(e->name, *a))
			return true;
	return false;
}

static void jstack_to_print(Sema *s, Stmt *st)
{
	Arena *a = &s->sc->ast->arena;
	Expr *p = arena_alloc(a, sizeof(Expr));
	p->kind = E_CALL;
	p->loc = st->expr->loc;
	p->name = (char *)sema_hooks(s)->stack_print;
	p->args.v = arena_alloc(a, sizeof(Expr *));
	p->args.v[0] = st->expr;
	p->args.n = 1;
	st->expr = p;
}

/* a branch that a constant condition never runs is checked as dead */
static bool sema_branch(Sema *s, StmtList *body, bool dead)
{
	s->dead += dead;
	bool ok = sema_scope(s, body);
	s->dead -= dead;
	return ok;
}

/* `if comptime (c)`: c is known while compiling, and the if becomes a
 * block of the branch it picks; the other is never checked (it may use
 * types this one rules out, as bpftrace 0.26 allows) */
static bool sema_comptime_if(Sema *s, Stmt *st)
{
	int64_t v = 0;
	if (!sema_comptime_value(s, st->expr, &v))
		return false;
	st->kind = S_BLOCK;
	st->body = v ? st->body : st->els;
	st->els = (StmtList){0};
	st->expr = NULL;
	return sema_scope(s, &st->body);
}

static bool sema_if(Sema *s, Stmt *st)
{
	if (st->comptime)
		return sema_comptime_if(s, st);
	bool ok = sema_need_cond(s, st->expr, COND_IF, "an if condition");
	if (!ok && !s->all)
		return false;
	int64_t v = 0;
	bool known = sema_const_int(s, st->expr, &v);
	ok = sema_branch(s, &st->body, known && !v) && ok;
	if (!ok && !s->all)
		return false;
	return sema_branch(s, &st->els, known && v) && ok;
}

static bool sema_stmt(Sema *s, Stmt *st)
{
	switch (st->kind) {
	case S_EXPR:
		if (is_stack_action(s, st->expr))
			jstack_to_print(s, st);
		if (st->expr->kind == E_CALL)
			return sema_call(s, st->expr, CALL_STMT);
		if (st->expr->kind == E_TERNARY && (is_void_call(st->expr->b) ||
						    is_void_call(st->expr->c))) {
			if (!is_void_call(st->expr->b) || !is_void_call(st->expr->c))
				return void_arm_error(s, st->expr);
			ternary_to_if(s, st);
			return sema_stmt(s, st);
		}
		return sema_expr(s, st->expr);
	case S_ASSIGN:
		if (st->target->kind == E_VAR)
			return sema_assign_var(s, st);
		return st->target->kind == E_MAP ? sema_assign_map(s, st) : sema_store_assign(s, st);
	case S_IF:
		return sema_if(s, st);
	case S_UNROLL:
		if (st->expr->kind == E_POSPARAM && !sema_posparam_literal(s, st->expr))
			return false;
		if (st->expr->kind != E_INT)
			return sema_error(s, st->expr->loc, "unroll needs a literal count from 1 to 100");
		if (st->expr->ival < 1 || st->expr->ival > 100) /* bpftrace's words */
			return sema_error(s, st->expr->loc, "unroll %s value is %s", st->expr->ival < 1
					  ? "minimum" : "maximum", st->expr->ival < 1 ? "1" : "100");
		return sema_stmts(s, &st->body);
	case S_WHILE: {
		bool ok = sema_need_int(s, st->expr, "a while condition");
		if (!ok && !s->all)
			return false;
		s->loop_depth++;
		ok = sema_scope(s, &st->body) && ok;
		s->loop_depth--;
		return ok;
	}
	case S_BREAK:
	case S_CONTINUE:
		if (!s->loop_depth)
			return sema_error(s, st->loc, "%s used outside of a loop",
					  st->kind == S_BREAK ? "break" : "continue");
		return true;
	case S_RETURN:
		return true;
	case S_BLOCK:
		return sema_scope(s, &st->body);
	case S_FOR:
		return sema_for(s, st, sema_scope);
	case S_LET:
		return sema_let(s, st);
	}
	return true;
}

static bool sema_stmts(Sema *s, const StmtList *l)
{
	bool ok = true;
	for (int i = 0; i < l->n && (ok || s->all); i++)
		ok = sema_stmt(s, l->v[i]) && ok;
	return ok;
}

/* SemaHooks.block_scoping: the variables a block made are gone after it */
static void scope_end(Sema *s, int mark)
{
	if (!sema_hooks(s)->block_scoping)
		return;
	for (int i = mark; i < s->vars.n; i++)
		s->vars.v[i]->out_of_scope = true;
}

static bool sema_scope(Sema *s, const StmtList *l)
{
	int mark = s->vars.n;
	bool ok = sema_stmts(s, l);
	scope_end(s, mark);
	return ok;
}

/* `{ stmts; v }` as a value (bpftrace 0.26): the statements, then v's type */
bool sema_block(Sema *s, Expr *e)
{
	int mark = s->vars.n;
	bool ok = sema_stmts(s, &e->block);
	ok = (ok || s->all) && sema_expr(s, e->a) && ok;
	scope_end(s, mark);
	if (!ok)
		return false;
	e->type = e->a->type;
	return true;
}

bool sema_probe(Sema *s, const Probe *p, const ProbeSpec *spec)
{
	s->probe = p;
	s->spec = spec;
	if (!++s->visit)
		s->visit = 1;
	s->loop_depth = 0;
	s->for_depth = 0;
	s->d_clause = 0;
	sema_reset_vars(s);
	bool ok = !p->pred || sema_need_cond(s, p->pred, COND_PRED, "a predicate");
	if (!ok && !s->all)
		return false;
	return sema_stmts(s, &p->body) && ok;
}
