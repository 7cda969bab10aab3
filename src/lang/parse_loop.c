/* bpftrace 0.26's for loops: `for ($kv : @map) { ... }` over a map's
 * elements, `for ($i : start..end) { ... }` over integers (start..end are
 * unary expressions, the end excluded).  The parser's state is
 * parser_int.h's Parser. */
#include "parser_int.h"

#include <string.h>

/* start..end: the two dots touch (lexed as two T_DOTs; parse_expr.c's postfix
 * loop stops at a '.' that another follows) */
static Expr *parse_range(Parser *ps, Expr *start)
{
	Expr *r = expr_new(ps_prog(ps), E_RANGE, ps_tok(ps)->loc);
	r->a = start;
	if (!ps_advance(ps))
		return NULL;
	if (ps_tok(ps)->kind != T_DOT)
		return ps_unexpected(ps, "'..' in a range"), NULL;
	r->loc.len = 2;
	if (!ps_advance(ps) || !(r->b = ps_unary(ps)))
		return NULL;
	return r;
}

/* the iterable: a map (no keys) or a range */
static Expr *parse_iterable(Parser *ps)
{
	if (ps_tok(ps)->kind == T_MAP) {
		const Token *t = ps_tok(ps);
		Expr *m = expr_new(ps_prog(ps), E_MAP, t->loc);
		m->name = arena_strndup(&ps_prog(ps)->arena, t->text + 1, (size_t)t->len - 1);
		if (!ps_advance(ps))
			return NULL;
		if (ps_tok(ps)->kind != T_DOT)
			return m;
		return parse_range(ps, m);
	}
	Expr *start = ps_unary(ps);
	if (!start)
		return NULL;
	if (ps_tok(ps)->kind != T_DOT)
		return ps_unexpected(ps, "'..' in a range, or a map"), NULL;
	return parse_range(ps, start);
}

Stmt *parse_for(Parser *ps)
{
	Stmt *s = ps_stmt_new(ps, S_FOR, ps_tok(ps)->loc);
	if (!ps_advance(ps))
		return NULL;
	Loc open = ps_tok(ps)->loc;
	/* ParseOpts.bare_conditions: `for $kv : @m { }` */
	bool paren = ps_tok(ps)->kind == T_LPAREN || !ps_lexer(ps)->opts->bare_conditions;
	if (paren && !ps_expect(ps, T_LPAREN, "'(' after 'for'"))
		return NULL;
	const Token *t = ps_tok(ps);
	if (t->kind != T_VAR)
		return ps_unexpected(ps, "a variable"), NULL;
	s->target = expr_new(ps_prog(ps), E_VAR, t->loc);
	s->target->name = arena_strndup(&ps_prog(ps)->arena, t->text + 1, (size_t)t->len - 1);
	if (!ps_advance(ps) || !ps_expect(ps, T_COLON, "':'"))
		return NULL;
	if (!(s->expr = parse_iterable(ps)) || (paren && !ps_expect_close(ps, T_RPAREN, open, "()")))
		return NULL;
	return ps_block(ps, &s->body, "for") ? s : NULL;
}
