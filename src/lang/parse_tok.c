/* The parser's tokens (parser_int.h): stepping, bpftrace's syntax-error
 * messages, the nesting bound, the arena allocations every parse
 * function makes, and the word lists several parse files share. */
#include <stdio.h>
#include <string.h>

#include "parser_int.h"

/* Deep enough for any real script, shallow enough that recursion on
 * hostile input cannot exhaust the stack. */
#define MAX_DEPTH 100

static const char *const keywords[] = {
	"if", "else", "while", "unroll", "break", "continue", "return", "sizeof",
};

bool ps_tok_is(const Token *t, const char *word)
{
	return t->kind == T_IDENT && (size_t)t->len == strlen(word) &&
	       !strncmp(t->text, word, (size_t)t->len);
}

bool ps_tok_in(const Token *t, const char *const *words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ps_tok_is(t, words[i]))
			return true;
	return false;
}

bool ps_advance(Parser *ps)
{
	return lex_next(&ps->lx, &ps->tok);
}

/* What bpftrace's parser adds as ", expecting X" for the places where
 * sonde's own expectation is one of these; elsewhere it lists none. */
static const struct {
	const char *sonde, *bison;
} bison_expecting[] = {
	{"';' or '}'", "}"},
	{"'(' after 'if'", "("},
	{"':' in a ?: expression", ":"},
	{"'/' to end the predicate", "end predicate"},
	{"')'", ") or \",\""},
};

/* bpftrace's first line ("syntax error, unexpected ;[, expecting X]"),
 * then sonde's own expectation as a hint when bpftrace names none. */
bool ps_unexpected(Parser *ps, const char *expecting)
{
	char d[64];
	tok_bison_name(&ps->tok, d, sizeof(d));
	for (size_t i = 0; i < sizeof(bison_expecting) / sizeof(*bison_expecting); i++)
		if (!strcmp(expecting, bison_expecting[i].sonde))
			return error_at(ps->err, ps->tok.loc, "syntax error, unexpected %s, expecting %s",
					d, bison_expecting[i].bison);
	return error_at(ps->err, ps->tok.loc, "syntax error, unexpected %s\nhint: expecting %s", d,
			expecting);
}

/* Consumes the token if it has the given kind, else reports it. */
bool ps_tok_unexpected(const Token *t, Error *err, const char *want)
{
	return error_at(err, t->loc, "syntax error, unexpected %.*s, expecting %s",
			t->kind == T_EOF ? 3 : t->len, t->kind == T_EOF ? "end" : t->text, want);
}

bool ps_expect(Parser *ps, TokKind kind, const char *expecting)
{
	if (ps->tok.kind != kind)
		return ps_unexpected(ps, expecting);
	return ps_advance(ps);
}

/* A missing closer: point at the opener when the input clearly ran on
 * past it, otherwise at the token that is in the way. */
bool ps_expect_close(Parser *ps, TokKind kind, Loc open, const char *pair)
{
	if (ps->tok.kind == kind)
		return ps_advance(ps);
	TokKind k = ps->tok.kind;
	if (!ps->d_syntax && (k == T_EOF || k == T_SEMI || k == T_LBRACE || k == T_RBRACE ||
			      k == T_RPAREN || k == T_RBRACKET))
		return error_at(ps->err, open, "missing '%c' to close '%c'", pair[1], pair[0]);
	char want[8];
	snprintf(want, sizeof(want), "'%c'", pair[1]);
	return ps_unexpected(ps, want);
}

bool ps_enter(Parser *ps)
{
	if (++ps->depth > MAX_DEPTH)
		return error_at(ps->err, ps->tok.loc, "nesting too deep");
	return true;
}

void ps_leave(Parser *ps)
{
	ps->depth--;
}

/* Arena arrays grow by doubling at powers of two, so the capacity never
 * needs storing; the abandoned copies stay in the arena until it is freed. */
void ps_expr_push(Parser *ps, ExprList *l, Expr *e)
{
	l->v = arena_grow(&ps->prog->arena, l->v, l->n, sizeof(*l->v));
	l->v[l->n++] = e;
}

void ps_stmt_push(Parser *ps, StmtList *l, Stmt *s)
{
	l->v = arena_grow(&ps->prog->arena, l->v, l->n, sizeof(*l->v));
	l->v[l->n++] = s;
}

Expr *ps_expr_new(Parser *ps, ExprKind kind, Loc loc)
{
	return expr_new(ps->prog, kind, loc);
}

Stmt *ps_stmt_new(Parser *ps, StmtKind kind, Loc loc)
{
	Stmt *s = arena_alloc(&ps->prog->arena, sizeof(*s));
	s->kind = kind;
	s->loc = loc;
	return s;
}

char *ps_strdup(Parser *ps, int skip)
{
	return arena_strndup(&ps->prog->arena, ps->tok.text + skip,
			     (size_t)(ps->tok.len - skip));
}

/* D's C type words: a cast or sizeof starts with one (D's lexer makes
 * them keywords) */
static const char *const d_type_words[] = {
	"char", "short", "int", "long", "signed", "unsigned", "void", "const", "volatile",
	"struct", "union", "enum", "float", "double",
};

bool ps_keyword(const Token *t)
{
	return TOK_IN(t, keywords);
}

bool ps_d_type_word(const Token *t)
{
	return TOK_IN(t, d_type_words);
}

bool ps_is(const Parser *ps, const char *word)
{
	return ps_tok_is(&ps->tok, word);
}
