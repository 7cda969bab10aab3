/* Statements and blocks: if/else, while, unroll, break/continue/return,
 * assignments and expression statements (for loops: parse_loop.c). */
#include <stdio.h>
#include <string.h>

#include "parser_int.h"

/* "(expr)" after if/while/unroll; ParseOpts.bare_conditions: any
 * expression after if/while (a parenthesized one among them) */
Expr *ps_cond(Parser *ps, const char *kw)
{
	if (ps->lx.opts->bare_conditions && strcmp(kw, "unroll"))
		return ps_expr(ps);
	char want[48];
	snprintf(want, sizeof(want), "'(' after '%s'", kw);
	Loc open = ps->tok.loc;
	if (!ps_expect(ps, T_LPAREN, want))
		return NULL;
	Expr *e = ps_expr(ps);
	if (!e || !ps_expect_close(ps, T_RPAREN, open, "()"))
		return NULL;
	return e;
}

/* the arm just parsed ends with a value (Stmt.valued) */
static bool arm_valued(const Parser *ps, const StmtList *l)
{
	const Stmt *last = l->n ? l->v[l->n - 1] : NULL;
	return last && !ps->semi_last && (last->kind == S_EXPR || (last->kind == S_IF && last->valued));
}

Stmt *ps_if(Parser *ps)
{
	Stmt *s = ps_stmt_new(ps, S_IF, ps->tok.loc);
	if (!ps_enter(ps) || !ps_advance(ps))
		return NULL;
	s->comptime = ps->lx.opts->comptime && ps_tok_is(&ps->tok, "comptime");
	if (!(s->expr = ps_cond(ps, "if")) ||
	    !ps_block(ps, &s->body, "if"))
		return NULL;
	s->valued = arm_valued(ps, &s->body);
	if (ps_tok_is(&ps->tok, "else")) {
		if (!ps_advance(ps))
			return NULL;
		if (ps_tok_is(&ps->tok, "if")) {
			Stmt *elif = ps_if(ps);
			if (!elif)
				return NULL;
			ps_stmt_push(ps, &s->els, elif);
			s->valued &= elif->valued;
		} else if (!ps_block(ps, &s->els, "else")) {
			return NULL;
		} else {
			s->valued &= arm_valued(ps, &s->els);
		}
	} else {
		s->valued = false;
	}
	ps_leave(ps);
	return s;
}

static Stmt *parse_loop(Parser *ps, StmtKind kind, const char *kw)
{
	Stmt *s = ps_stmt_new(ps, kind, ps->tok.loc);
	if (!ps_advance(ps) || !(s->expr = ps_cond(ps, kw)) || !ps_block(ps, &s->body, kw))
		return NULL;
	return s;
}

/* ParseOpts.let_decls: `let $x;` (S_LET), `let $x = e;` (an assignment),
 * `let $x: TYPE [= e];` (the value, or 0, cast to TYPE) */
static Stmt *parse_let(Parser *ps)
{
	Stmt *s = ps_stmt_new(ps, S_LET, ps->tok.loc);
	if (!ps_advance(ps))
		return NULL;
	if (ps->tok.kind != T_VAR)
		return ps_unexpected(ps, "a variable after 'let'"), NULL;
	s->target = ps_expr_new(ps, E_VAR, ps->tok.loc);
	s->target->name = ps_strdup(ps, 1);
	Expr *cast = NULL;
	if (!ps_advance(ps))
		return NULL;
	if (ps->tok.kind == T_COLON) {
		if (!ps_advance(ps))
			return NULL;
		bool of = ps_typeof_ahead(ps);
		if (!of && !ps_type_ahead(ps, false))
			return ps_unexpected(ps, "a type after ':'"), NULL;
		cast = ps_expr_new(ps, E_CAST, ps->tok.loc);
		if (of ? !ps_typeof(ps, cast) : !(cast->name = ps_type(ps)))
			return NULL;
		/* without a value: 0; a typeof's zero is its type's, made by sema */
		cast->a = of ? NULL : ps_expr_new(ps, E_INT, cast->loc);
	}
	if (ps->tok.kind == T_ASSIGN && ps->tok.op == OP_NONE) {
		s->op_loc = ps->tok.loc;
		if (!ps_advance(ps) || !(s->expr = ps_expr(ps)))
			return NULL;
	}
	if (cast && s->expr)
		cast->a = s->expr;
	if (cast)
		s->expr = cast;
	if (s->expr)
		s->kind = S_ASSIGN;
	s->let_decl = true;
	return s;
}

static Stmt *parse_simple(Parser *ps, StmtKind kind)
{
	Stmt *s = ps_stmt_new(ps, kind, ps->tok.loc);
	if (!ps_advance(ps))
		return NULL;
	if (kind == S_RETURN && ps->tok.kind != T_SEMI && ps->tok.kind != T_RBRACE &&
	    !(s->expr = ps_expr(ps)))
		return NULL;
	return s;
}

/* ParseOpts.discard_assign: `_ = ` */
static bool is_discard(const Parser *ps, const Expr *e)
{
	return ps->lx.opts->discard_assign && e->kind == E_BUILTIN && !strcmp(e->name, "_") &&
	       ps->tok.op == OP_NONE;
}

/* An expression statement or an assignment to a map or variable. */
static Stmt *parse_expr_stmt(Parser *ps)
{
	Stmt *s = ps_stmt_new(ps, S_EXPR, ps->tok.loc);
	Expr *e = ps_expr(ps);
	if (!e)
		return NULL;
	if (ps->tok.kind != T_ASSIGN) {
		s->expr = e;
		return s;
	}
	if (is_discard(ps, e)) /* `_ = e;`: e's value is dropped */
		return ps_advance(ps) && (s->expr = ps_expr(ps)) ? s : NULL;
	bool d_target = ps->d_syntax && (e->kind == E_BUILTIN || e->kind == E_FIELD ||
					  e->kind == E_INDEX || (e->kind == E_UNOP && e->op == OP_DEREF));
	if (e->kind != E_MAP && e->kind != E_VAR && !d_target)
		return error_at(ps->err, ps->tok.loc,
				"can only assign to a map or a variable"), NULL;
	s->kind = S_ASSIGN;
	s->op = ps->tok.op;
	s->op_loc = ps->tok.loc;
	s->target = e;
	if (!ps_advance(ps) || !(s->expr = ps_expr(ps)))
		return NULL;
	return s;
}

static Stmt *parse_stmt(Parser *ps)
{
	const Token *t = &ps->tok;
	if (t->kind == T_LBRACE) {
		Stmt *s = ps_stmt_new(ps, S_BLOCK, t->loc);
		return ps_block(ps, &s->body, "block") ? s : NULL;
	}
	if (ps_tok_is(t, "if"))
		return ps_if(ps);
	if (ps_tok_is(t, "while"))
		return parse_loop(ps, S_WHILE, "while");
	if (ps_tok_is(t, "unroll"))
		return parse_loop(ps, S_UNROLL, "unroll");
	if (ps_tok_is(t, "break"))
		return parse_simple(ps, S_BREAK);
	if (ps_tok_is(t, "continue"))
		return parse_simple(ps, S_CONTINUE);
	if (ps_tok_is(t, "return"))
		return parse_simple(ps, S_RETURN);
	if (ps_tok_is(t, "let") && ps->lx.opts->let_decls)
		return parse_let(ps);
	if (ps_tok_is(t, "for") && ps->lx.opts->for_loops)
		return parse_for(ps);
	return parse_expr_stmt(ps);
}

static bool is_compound(const Stmt *s)
{
	return s->kind == S_IF || s->kind == S_WHILE || s->kind == S_UNROLL ||
	       s->kind == S_BLOCK || s->kind == S_FOR;
}

/* Statements after a '{' (at `open`) up to, not past, the matching '}'. */
bool ps_stmts(Parser *ps, StmtList *out, Loc open)
{
	for (;;) {
		if (ps->tok.kind == T_SEMI) {
			ps->semi_last = true;
			if (!ps_advance(ps))
				return false;
			continue;
		}
		if (ps->tok.kind == T_RBRACE)
			return true;
		if (ps->tok.kind == T_EOF)
			return error_at(ps->err, open, "missing '}' to close '{'");
		Stmt *s = parse_stmt(ps);
		if (!s)
			return false;
		ps_stmt_push(ps, out, s);
		ps->semi_last = false;
		if (is_compound(s) || ps->tok.kind == T_SEMI || ps->tok.kind == T_RBRACE)
			continue;
		if (ps->tok.kind == T_EOF)
			return error_at(ps->err, open, "missing '}' to close '{'");
		return ps_unexpected(ps, "';' or '}'");
	}
}

bool ps_block(Parser *ps, StmtList *out, const char *what)
{
	if (ps->tok.kind != T_LBRACE)
		return error_at(ps->err, ps->tok.loc, "expected '{' to start the %s body", what);
	Loc open = ps->tok.loc;
	if (!ps_enter(ps) || !ps_advance(ps) || !ps_stmts(ps, out, open) || !ps_advance(ps))
		return false;
	ps_leave(ps);
	return true;
}
