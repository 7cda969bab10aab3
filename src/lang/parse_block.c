/* bpftrace 0.26's blocks and `if` as expressions (ParseOpts.block_exprs):
 * `{ stmts; value }` is an E_BLOCK whose value is its last statement, an
 * expression with no ';' after it; `if c { a } else { b }` is a ?: of two
 * such blocks (`else if` chains nest). */
#include "parser_int.h"

static Expr *arm_value(Parser *ps, StmtList *l);

/* an `if` statement whose arms end with values (Stmt.valued) as a ?: */
Expr *ps_if_value(Parser *ps, Stmt *st)
{
	Expr *e = ps_expr_new(ps, E_TERNARY, st->loc);
	e->comptime = st->comptime;
	e->a = st->expr;
	e->b = arm_value(ps, &st->body);
	e->c = arm_value(ps, &st->els);
	return e;
}

/* the value of a list of statements ending with one: its last statement
 * taken off; the others stay, run before it */
static Expr *arm_value(Parser *ps, StmtList *l)
{
	Stmt *last = l->v[--l->n];
	Expr *v = last->kind == S_IF ? ps_if_value(ps, last) : last->expr;
	if (!l->n)
		return v;
	Expr *e = ps_expr_new(ps, E_BLOCK, l->v[0]->loc);
	e->block = *l;
	e->a = v;
	return e;
}

/* the block's last statement as its value: an expression (or an if
 * whose arms end with one), no ';' after */
static bool take_value(Parser *ps, Expr *e, Loc close)
{
	StmtList *l = &e->block;
	Stmt *last = l->n ? l->v[l->n - 1] : NULL;
	bool valued = last && (last->kind == S_EXPR || (last->kind == S_IF && last->valued));
	if (!valued || ps->semi_last)
		return error_at(ps->err, close, "a block used as a value must end with an "
				"expression, without ';'");
	l->n--;
	e->a = last->kind == S_IF ? ps_if_value(ps, last) : last->expr;
	return true;
}

Expr *ps_block_expr(Parser *ps)
{
	Expr *e = ps_expr_new(ps, E_BLOCK, ps->tok.loc);
	Loc open = ps->tok.loc;
	ps->semi_last = false;
	if (!ps_enter(ps) || !ps_advance(ps) || !ps_stmts(ps, &e->block, open))
		return NULL;
	Loc close = ps->tok.loc;
	if (!take_value(ps, e, close) || !ps_advance(ps))
		return NULL;
	ps_leave(ps);
	return e->block.n ? e : e->a; /* `{ v }` is v */
}

Expr *ps_if_expr(Parser *ps)
{
	Loc at = ps->tok.loc;
	Stmt *st = ps_if(ps);
	if (st && !st->valued)
		return error_at(ps->err, at, "an if used as a value needs an else, and each arm "
				"must end with an expression, without ';'"), NULL;
	return st ? ps_if_value(ps, st) : NULL;
}
