/* bpftrace 0.26's macros: `macro name($v, @m, e) { statements [value] }`
 * (ParseOpts.macros), each into Program.macros as written; calls are
 * expanded after the parse (macro_expand.c). */
#include <string.h>

#include "parse_macro.h"
#include "parser_int.h"

bool at_macro(Parser *ps)
{
	const Lexer *lx = &ps->lx;
	if (!lx->opts->macros || strncmp(lx->text + lx->pos, "macro", 5))
		return false;
	char c = lx->text[lx->pos + 5];
	return c == ' ' || c == '\t' || c == '\n';
}

/* one parameter at the token: $v, @m or an identifier */
static bool parse_param(Parser *ps, MacroDef *m)
{
	const Token *t = &ps->tok;
	MacroParam p = {.loc = t->loc};
	if (t->kind == T_VAR || t->kind == T_MAP)
		p.kind = t->kind == T_VAR ? MP_VAR : MP_MAP;
	else if (t->kind == T_IDENT && !ps_keyword(t))
		p.kind = MP_EXPR;
	else
		return ps_unexpected(ps, "a macro parameter ($var, @map or identifier)");
	p.name = ps_strdup(ps, p.kind == MP_EXPR ? 0 : 1);
	m->params = arena_grow(&ps->prog->arena, m->params, m->nparams, sizeof(MacroParam));
	m->params[m->nparams++] = p;
	return ps_advance(ps);
}

/* `(p, ...)` at its '(' (optional: `macro name { }` takes none) */
static bool parse_params(Parser *ps, MacroDef *m)
{
	if (ps->tok.kind != T_LPAREN)
		return true;
	Loc open = ps->tok.loc;
	if (!ps_advance(ps))
		return false;
	while (ps->tok.kind != T_RPAREN) {
		if (m->nparams && !ps_expect(ps, T_COMMA, "',' or ')'"))
			return false;
		if (!parse_param(ps, m))
			return false;
	}
	return ps_expect_close(ps, T_RPAREN, open, "()");
}

/* The body gives a value when it ends in an expression statement with no
 * ';' before the '}' (the lexer is just past that '}') */
static bool body_has_value(const Parser *ps, const StmtList *body)
{
	if (!body->n || body->v[body->n - 1]->kind != S_EXPR)
		return false;
	const char *text = ps->lx.text;
	size_t i = ps->lx.pos - 1; /* the '}' */
	while (i > 0 && strchr(" \t\r\n", text[i - 1]))
		i--;
	return i > 0 && text[i - 1] != ';';
}

bool parse_macro(Parser *ps, StrBuf *cdefs)
{
	(void)cdefs;
	MacroDef m = {0};
	lex_advance(&ps->lx, 5);
	if (!ps_advance(ps))
		return false;
	if (ps->tok.kind != T_IDENT || ps_keyword(&ps->tok))
		return ps_unexpected(ps, "the macro's name");
	m.name = ps_strdup(ps, 0);
	m.loc = ps->tok.loc;
	if (!ps_advance(ps) || !parse_params(ps, &m))
		return false;
	if (ps->tok.kind != T_LBRACE)
		return error_at(ps->err, ps->tok.loc, "expected '{' to start the macro body");
	Loc open = ps->tok.loc;
	/* like a probe's, the closing '}' stays the token: the next item is
	 * scanned raw */
	if (!ps_advance(ps) || !ps_stmts(ps, &m.body, open))
		return false;
	Stmt *last = m.body.n ? m.body.v[m.body.n - 1] : NULL;
	if (last && last->kind == S_IF && last->valued) { /* `if c { a } else { b }` */
		last->expr = ps_if_value(ps, last);
		last->kind = S_EXPR;
		last->body = last->els = (StmtList){0};
	}
	m.has_value = body_has_value(ps, &m.body);
	Program *prog = ps->prog;
	prog->macros = arena_grow(&prog->arena, prog->macros, prog->nmacros, sizeof(MacroDef));
	prog->macros[prog->nmacros++] = m;
	return true;
}
