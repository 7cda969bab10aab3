/* bpftrace 0.26's records: `(a = 1, b = "x")`, a tuple whose elements
 * have names (Expr.names), read with `.a`.  The parser's state is
 * parser_int.h's Parser. */
#include "parser_int.h"

#include <string.h>

/* at the token after '(': NAME '=' starts a record (no expression does) */
bool record_ahead(Parser *ps)
{
	if (ps_tok(ps)->kind != T_IDENT)
		return false;
	Lexer lx = *ps_lexer(ps);
	Token t;
	Error quiet = {0};
	lx.err = &quiet; /* a lexing error here is found again when parsed */
	return lex_next(&lx, &t) && t.kind == T_ASSIGN && t.op == OP_NONE;
}

/* NAME = EXPR, ... ')' (the '(' at open, consumed) */
Expr *parse_record(Parser *ps, Loc open)
{
	Program *p = ps_prog(ps);
	Expr *r = expr_new(p, E_TUPLE, open);
	for (;;) {
		const Token *t = ps_tok(ps);
		if (t->kind != T_IDENT)
			return ps_unexpected(ps, "a field name"), NULL;
		char *name = arena_strndup(&p->arena, t->text, (size_t)t->len);
		for (int i = 0; i < r->args.n; i++)
			if (!strcmp(r->names[i], name))
				return error_at(ps_err(ps), t->loc, "Named argument list already "
						"contains name: %s", name), NULL;
		if (!ps_advance(ps) || !ps_expect(ps, T_ASSIGN, "'='"))
			return NULL;
		Expr *v = ps_expr(ps);
		if (!v)
			return NULL;
		r->names = arena_grow(&p->arena, r->names, r->args.n, sizeof(*r->names));
		r->args.v = arena_grow(&p->arena, r->args.v, r->args.n, sizeof(*r->args.v));
		r->names[r->args.n] = name;
		r->args.v[r->args.n++] = v;
		if (ps_tok(ps)->kind != T_COMMA)
			break;
		if (!ps_advance(ps))
			return NULL;
	}
	return ps_expect_close(ps, T_RPAREN, open, "()") ? r : NULL;
}
