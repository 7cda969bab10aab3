/* Primary expressions: literals, variables, maps, calls and builtins,
 * sizeof/offsetof, casts, parenthesized expressions and tuples, and D's
 * xlate. */
#include <string.h>

#include "parser_int.h"

/* offsetof's ", a.b": the member path, in the program's arena */
static char *parse_member_path(Parser *ps)
{
	if (!ps_expect(ps, T_COMMA, "',' and a field name in offsetof"))
		return NULL;
	StrBuf path = { 0 };
	for (;;) {
		if (ps->tok.kind != T_IDENT) {
			sb_free(&path);
			return ps_unexpected(ps, "a field name"), NULL;
		}
		if (path.len)
			sb_putc(&path, '.');
		sb_putn(&path, ps->tok.text, (size_t)ps->tok.len);
		if (!ps_advance(ps) || ps->tok.kind != T_DOT)
			break;
		if (!ps_advance(ps)) {
			sb_free(&path);
			return NULL;
		}
	}
	char *s = arena_strndup(&ps->prog->arena, path.s ? path.s : "", path.len);
	sb_free(&path);
	return s;
}

/* sizeof(TYPE | EXPR), and offsetof(TYPE | EXPR, a.b) (offsetof set): an
 * E_SIZEOF holding the type name or the expression, and offsetof's member
 * path in sval (sema turns it into a constant). */
static Expr *parse_sizeof(Parser *ps, bool offsetof)
{
	bool saved = ps->pred_slash;
	Expr *e = ps_expr_new(ps, E_SIZEOF, ps->tok.loc);
	if (!ps_advance(ps))
		return NULL;
	Loc open = ps->tok.loc;
	if (!ps_expect(ps, T_LPAREN, offsetof ? "'(' after 'offsetof'" : "'(' after 'sizeof'"))
		return NULL;
	ps->pred_slash = false;
	if (ps_type_ahead(ps, true))
		e->name = ps_type(ps);
	else
		e->a = ps_expr(ps);
	if (!e->name && !e->a)
		return NULL;
	if (offsetof && !(e->sval = parse_member_path(ps)))
		return NULL;
	if (!ps_expect_close(ps, T_RPAREN, open, "()"))
		return NULL;
	ps->pred_slash = saved;
	return e;
}

static Expr *parse_cast(Parser *ps, Loc open)
{
	Expr *e = ps_expr_new(ps, E_CAST, open); /* bpftrace's place: the '(' */
	if (ps_typeof_ahead(ps) ? !ps_typeof(ps, e) : !(e->name = ps_type(ps)))
		return NULL;
	Loc close = ps->tok.loc;
	if (!ps_expect_close(ps, T_RPAREN, open, "()"))
		return NULL;
	e->loc.len = e->name ? (int)strlen(e->name) + 2
		     : close.line == open.line ? close.col + 1 - open.col : 1;
	if (!ps_enter(ps))
		return NULL;
	e->a = ps_unary(ps);
	ps_leave(ps);
	return e->a ? e : NULL;
}

/* '(' starts a cast, a tuple or a parenthesized expression. */
static Expr *parse_paren(Parser *ps)
{
	Loc open = ps->tok.loc;
	if (!ps_advance(ps))
		return NULL;
	if (ps_type_ahead(ps, false) || ps_typeof_ahead(ps))
		return parse_cast(ps, open);
	bool saved = ps->pred_slash;
	ps->pred_slash = false;
	if (ps->lx.opts->records && record_ahead(ps)) {
		Expr *r = parse_record(ps, open);
		ps->pred_slash = saved;
		return r;
	}
	Expr *e = ps_expr(ps);
	if (!e)
		return NULL;
	if (ps->tok.kind == T_COMMA) {
		Expr *t = ps_expr_new(ps, E_TUPLE, open);
		ps_expr_push(ps, &t->args, e);
		if (!ps_advance(ps) || !ps_list(ps, &t->args, T_RPAREN, open, "()",
						"an expression"))
			return NULL;
		ps->pred_slash = saved;
		return t;
	}
	if (!ps_expect_close(ps, T_RPAREN, open, "()"))
		return NULL;
	ps->pred_slash = saved;
	return e;
}

/* D: xlate <TYPE>(expr), an E_CALL "xlate" with the type's text in sval
 * (the D front end turns its members into the translator's expressions) */
static Expr *parse_xlate(Parser *ps)
{
	Expr *e = ps_expr_new(ps, E_CALL, ps->tok.loc);
	e->name = "xlate";
	if (!ps_advance(ps))
		return NULL;
	if (ps->tok.kind != T_LT)
		return ps_unexpected(ps, "'<'"), NULL;
	if (!ps_advance(ps) || !(e->sval = ps_d_type(ps)))
		return NULL;
	if (ps->tok.kind != T_GT)
		return ps_unexpected(ps, "'>'"), NULL;
	if (!ps_advance(ps))
		return NULL;
	if (ps->tok.kind != T_LPAREN)
		return ps_unexpected(ps, "'('"), NULL;
	Loc open = ps->tok.loc;
	if (!ps_advance(ps) || !ps_list(ps, &e->args, T_RPAREN, open, "()", NULL))
		return NULL;
	if (e->args.n != 1)
		return error_at(ps->err, e->loc, "xlate takes one expression"), NULL;
	return e;
}

/* ParseOpts.bool_literals: `true`, `false` */
static Expr *parse_bool(Parser *ps)
{
	Expr *e = ps_expr_new(ps, E_INT, ps->tok.loc);
	e->ival = ps_is(ps, "true");
	e->lit = LIT_BOOL;
	return ps_advance(ps) ? e : NULL;
}

/* ParseOpts.comptime: `comptime EXPR` as a call of the function comptime
 * (builtins/introspect.c), EXPR a unary expression as bpftrace parses it */
static Expr *parse_comptime(Parser *ps)
{
	Expr *e = ps_expr_new(ps, E_CALL, ps->tok.loc);
	e->name = "comptime";
	e->args.v = arena_alloc(&ps->prog->arena, sizeof(Expr *));
	e->args.n = 1;
	if (!ps_advance(ps) || !(e->args.v[0] = ps_unary(ps)))
		return NULL;
	return e;
}

static Expr *parse_ident(Parser *ps)
{
	if (ps->d_syntax && ps_tok_is(&ps->tok, "xlate"))
		return parse_xlate(ps);
	if (ps_tok_is(&ps->tok, "sizeof") || ps_tok_is(&ps->tok, "offsetof"))
		return parse_sizeof(ps, ps_tok_is(&ps->tok, "offsetof"));
	if (ps->lx.opts->block_exprs && ps_is(ps, "if"))
		return ps_if_expr(ps);
	if (ps->lx.opts->comptime && ps_is(ps, "comptime"))
		return parse_comptime(ps);
	if (ps_keyword(&ps->tok))
		return ps_unexpected(ps, "an expression"), NULL;
	if (ps->lx.opts->bool_literals && (ps_is(ps, "true") || ps_is(ps, "false")))
		return parse_bool(ps);
	Expr *e = ps_expr_new(ps, E_BUILTIN, ps->tok.loc);
	e->name = ps_strdup(ps, 0);
	if (!ps_advance(ps))
		return NULL;
	if (ps->tok.kind != T_LPAREN)
		return e;
	Loc open = ps->tok.loc;
	e->kind = E_CALL;
	if (!ps_advance(ps) || !ps_list(ps, &e->args, T_RPAREN, open, "()", NULL))
		return NULL;
	return e;
}

static Expr *parse_map(Parser *ps)
{
	Expr *e = ps_expr_new(ps, E_MAP, ps->tok.loc);
	e->name = ps_strdup(ps, 1);
	if (!ps_advance(ps))
		return NULL;
	if (ps->tok.kind != T_LBRACKET)
		return e;
	Loc open = ps->tok.loc;
	if (!ps_advance(ps) || !ps_list(ps, &e->args, T_RBRACKET, open, "[]", "a map key"))
		return NULL;
	return e;
}

/* Tokens that stand alone as an expression. */
static Expr *parse_atom(Parser *ps)
{
	Token t = ps->tok;
	Expr *e = NULL;
	switch (t.kind) {
	case T_INT:
		e = ps_expr_new(ps, E_INT, t.loc);
		e->ival = t.ival;
		e->lit = t.lit;
		break;
	case T_STR:
		e = ps_expr_new(ps, E_STR, t.loc);
		e->sval = t.sval;
		e->slen = t.slen;
		break;
	case T_POSPARAM:
		e = ps_expr_new(ps, E_POSPARAM, t.loc);
		e->ival = t.ival;
		break;
	case T_POSCOUNT:
		e = ps_expr_new(ps, E_POSCOUNT, t.loc);
		break;
	case T_VAR:
		e = ps_expr_new(ps, E_VAR, t.loc);
		e->name = ps_strdup(ps, 1);
		break;
	default:
		return ps_unexpected(ps, "an expression"), NULL;
	}
	return ps_advance(ps) ? e : NULL;
}

Expr *ps_primary(Parser *ps)
{
	switch (ps->tok.kind) {
	case T_IDENT:
		return parse_ident(ps);
	case T_MAP:
		return parse_map(ps);
	case T_LPAREN:
		return parse_paren(ps);
	case T_LBRACE:
		if (ps->lx.opts->block_exprs)
			return ps_block_expr(ps);
		return parse_atom(ps);
	default:
		return parse_atom(ps);
	}
}

