/* Expressions above the primaries: postfix (fields, indexes, ++/--),
 * prefix operators, binary operators by precedence, and ?:. */
#include <string.h>

#include "parser_int.h"

/* Comma-separated expressions up to `close`; an empty list only when
 * allowed.  '/' is division again inside the brackets. */
bool ps_list(Parser *ps, ExprList *out, TokKind close, Loc open,
		       const char *pair, const char *empty_msg)
{
	bool saved = ps->pred_slash;
	ps->pred_slash = false;
	if (ps->tok.kind == close && empty_msg)
		return ps_unexpected(ps, empty_msg);
	while (ps->tok.kind != close) {
		Expr *e = ps_expr(ps);
		if (!e)
			return false;
		ps_expr_push(ps, out, e);
		if (ps->tok.kind != T_COMMA)
			break;
		if (!ps_advance(ps))
			return false;
		if (ps->tok.kind == close)
			return ps_unexpected(ps, "an expression");
	}
	ps->pred_slash = saved;
	return ps_expect_close(ps, close, open, pair);
}

/* .name, .0, ->name */
static Expr *parse_field(Parser *ps, Expr *base)
{
	bool arrow = ps->tok.kind == T_ARROW;
	if (!ps_advance(ps))
		return NULL;
	Token t = ps->tok;
	bool index = !arrow && t.kind == T_INT && strspn(t.text, "0123456789") == (size_t)t.len;
	if (t.kind != T_IDENT && !index)
		return ps_unexpected(ps, arrow ? "a field name after '->'"
					    : "a field name or tuple index after '.'"), NULL;
	Expr *e = ps_expr_new(ps, E_FIELD, t.loc);
	e->arrow = arrow;
	e->a = base;
	e->name = ps_strdup(ps, 0);
	return ps_advance(ps) ? e : NULL;
}

static Expr *parse_postfix(Parser *ps)
{
	Expr *e = ps_primary(ps);
	while (e) {
		TokKind k = ps->tok.kind;
		if (k == T_DOT && lex_peek(&ps->lx, 0) == '.')
			break; /* a range's `..` (parse_loop.c) */
		if (k == T_DOT || k == T_ARROW) {
			e = parse_field(ps, e);
		} else if (k == T_LBRACKET) {
			Expr *ix = ps_expr_new(ps, E_INDEX, ps->tok.loc);
			ExprList l = { 0 };
			ix->a = e;
			if (!ps_advance(ps) ||
			    !ps_list(ps, &l, T_RBRACKET, ix->loc, "[]", "an index"))
				return NULL;
			if (l.n != 1 && !ps->d_syntax) /* D: x[a, b], an array keyed by a tuple */
				return error_at(ps->err, ix->loc, "an index takes one expression"),
				       NULL;
			ix->b = l.v[0];
			if (l.n > 1)
				ix->args = l;
			e = ix;
		} else if (k == T_INC || k == T_DEC) {
			Expr *id = ps_expr_new(ps, E_INCDEC, ps->tok.loc);
			id->op = k == T_INC ? OP_ADD : OP_SUB;
			id->post = true;
			id->a = e;
			e = ps_advance(ps) ? id : NULL;
		} else {
			break;
		}
	}
	return e;
}

static Op prefix_op(TokKind k)
{
	switch (k) {
	case T_MINUS: return OP_NEG;
	case T_BANG: return OP_LNOT;
	case T_TILDE: return OP_BNOT;
	case T_STAR: return OP_DEREF;
	case T_AMP: return OP_ADDR;
	case T_INC: return OP_ADD;
	case T_DEC: return OP_SUB;
	default: return OP_NONE;
	}
}

Expr *ps_unary(Parser *ps)
{
	TokKind k = ps->tok.kind;
	Op op = prefix_op(k);
	if (op == OP_NONE)
		return parse_postfix(ps);
	Expr *e = ps_expr_new(ps, k == T_INC || k == T_DEC ? E_INCDEC : E_UNOP, ps->tok.loc);
	e->op = op;
	if (!ps_enter(ps) || !ps_advance(ps))
		return NULL;
	e->a = ps_unary(ps);
	ps_leave(ps);
	return e->a ? e : NULL;
}

/* Binding strength of a binary operator token (0: not one). */
static int binop_prec(const Parser *ps, Op *op)
{
	static const struct { TokKind k; Op op; int prec; } tab[] = {
		{ T_OROR, OP_LOR, 1 },   { T_XORXOR, OP_NONE, 2 },
		{ T_ANDAND, OP_LAND, 3 },
		{ T_PIPE, OP_BOR, 4 },   { T_CARET, OP_BXOR, 5 },
		{ T_AMP, OP_BAND, 6 },   { T_EQ, OP_EQ, 7 },
		{ T_NE, OP_NE, 7 },      { T_LT, OP_LT, 8 },
		{ T_LE, OP_LE, 8 },      { T_GT, OP_GT, 8 },
		{ T_GE, OP_GE, 8 },      { T_SHL, OP_SHL, 9 },
		{ T_SHR, OP_SHR, 9 },    { T_PLUS, OP_ADD, 10 },
		{ T_MINUS, OP_SUB, 10 }, { T_STAR, OP_MUL, 11 },
		{ T_SLASH, OP_DIV, 11 }, { T_PERCENT, OP_MOD, 11 },
	};
	if (ps->tok.kind == T_SLASH && ps->pred_slash)
		return 0;
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if (tab[i].k == ps->tok.kind) {
			*op = tab[i].op;
			return tab[i].prec;
		}
	}
	return 0;
}

static void xor_as_ne(Parser *ps, Expr *e)
{
	Expr *na = ps_expr_new(ps, E_UNOP, e->a->loc), *nb = ps_expr_new(ps, E_UNOP, e->b->loc);
	na->op = nb->op = OP_LNOT;
	na->a = e->a;
	nb->a = e->b;
	e->op = OP_NE;
	e->a = na;
	e->b = nb;
}

/* Precedence climbing; recursion is bounded by the number of levels. */
static Expr *parse_binary(Parser *ps, int min_prec)
{
	Expr *lhs = ps_unary(ps);
	while (lhs) {
		Op op = OP_NONE;
		int prec = binop_prec(ps, &op);
		if (prec < min_prec || prec == 0)
			break;
		bool lxor = ps->tok.kind == T_XORXOR;
		Expr *e = ps_expr_new(ps, E_BINOP, ps->tok.loc);
		e->op = op;
		e->a = lhs;
		if (!ps_advance(ps) || !(e->b = parse_binary(ps, prec + 1)))
			return NULL;
		if (lxor) /* a ^^ b is (!a) != (!b): both sides evaluated */
			xor_as_ne(ps, e);
		lhs = e;
	}
	return lhs;
}

static Expr *parse_ternary(Parser *ps)
{
	Expr *cond = parse_binary(ps, 1);
	if (!cond || ps->tok.kind != T_QUESTION)
		return cond;
	Expr *e = ps_expr_new(ps, E_TERNARY, ps->tok.loc);
	e->a = cond;
	if (!ps_advance(ps))
		return NULL;
	if (ps->tok.kind == T_COLON && ps->lx.opts->elvis)
		e->b = cond; /* `a ?: c`: a's value when it is true */
	else if (!(e->b = ps_expr(ps)))
		return NULL;
	if (!ps_expect(ps, T_COLON, "':' in a ?: expression"))
		return NULL;
	e->c = ps_expr(ps);
	return e->c ? e : NULL;
}

Expr *ps_expr(Parser *ps)
{
	if (!ps_enter(ps))
		return NULL;
	Expr *e = parse_ternary(ps);
	ps_leave(ps);
	return e;
}
