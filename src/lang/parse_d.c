/* The D front end's entry points into the shared grammar (src/dtrace):
 * a clause's predicate and body, `inline` and variable declarations. */
#include <stdio.h>
#include <string.h>

#include "parser_int.h"

/* D clauses (src/dtrace): after the probe descriptions, an optional
 * /predicate/ and an optional { body } (D allows either to be left out). */
bool parse_d_clause(Lexer *lx, Program *prog, Probe *pr, Error *err)
{
	Parser ps = { .lx = *lx, .prog = prog, .err = err, .d_syntax = true };
	bool ok = true;
	if (lex_peek(&ps.lx, 0) == '/') {
		ok = ps_predicate(&ps, pr);
	} else if (lex_peek(&ps.lx, 0) == '{') {
		ok = ps_advance(&ps);
	} else {
		*lx = ps.lx;
		return true;
	}
	if (ok && ps.tok.kind == T_LBRACE) {
		Loc open = ps.tok.loc;
		/* on success the lexer stands right after the closing '}' */
		ok = ps_advance(&ps) && ps_stmts(&ps, &pr->body, open);
	} else if (ok) { /* a predicate without a body: back to the token's start */
		ps.lx.pos = (size_t)(ps.tok.text - ps.lx.text);
		ps.lx.line = ps.tok.loc.line;
		ps.lx.col = ps.tok.loc.col;
	}
	*lx = ps.lx;
	return ok;
}

/* D's `inline TYPE NAME = EXPR;` (the lexer at `inline`); leaves the lexer
 * after the ';' */
bool parse_d_inline(Lexer *lx, Program *prog, DInlineDecl *out, Error *err)
{
	Parser ps = { .lx = *lx, .prog = prog, .err = err, .d_syntax = true };
	out->loc = lex_loc(lx, 6);
	if (!ps_advance(&ps) || !ps_advance(&ps)) /* past `inline`, at the type */
		return false;
	if (!ps_d_type_word(&ps.tok) && ps.tok.kind != T_IDENT)
		return ps_unexpected(&ps, "a type name");
	if (ps_tok_is(&ps.tok, "string")) {
		out->type = "string";
		if (!ps_advance(&ps))
			return false;
	} else if (!(out->type = ps_d_type(&ps))) {
		return false;
	}
	if (ps.tok.kind != T_IDENT)
		return ps_unexpected(&ps, "a name");
	out->name = ps_strdup(&ps, 0);
	out->name_loc = ps.tok.loc;
	if (!ps_advance(&ps))
		return false;
	if (ps.tok.kind != T_ASSIGN || ps.tok.op != OP_NONE)
		return ps_unexpected(&ps, "'='");
	if (!ps_advance(&ps) || !(out->expr = ps_expr(&ps)))
		return false;
	if (ps.tok.kind != T_SEMI)
		return ps_unexpected(&ps, "';'");
	/* the lexer stands right after the ';' */
	*lx = ps.lx;
	return true;
}

/* `long struct x`, `unsigned float`: the size and sign words apply to
 * integers only (long also to double), refused as dtrace's dt_decl_spec()
 * does: at the token after the type's name (yacc's lookahead, which is
 * the line dtrace names) */
static bool d_type_words_ok(const Parser *ps)
{
	bool lng = false, sign = false;
	Lexer lx = ps->lx;
	Token t = ps->tok;
	for (;;) {
		lng |= ps_tok_is(&t, "long");
		sign |= ps_tok_is(&t, "signed") || ps_tok_is(&t, "unsigned");
		bool tagged = ps_tok_is(&t, "struct") || ps_tok_is(&t, "union") || ps_tok_is(&t, "enum");
		bool other = tagged || ps_tok_is(&t, "void") || ps_tok_is(&t, "string");
		const char *bad = NULL;
		if (lng && (other || ps_tok_is(&t, "float")))
			bad = "long and long long may only be used with integer or floating-point type";
		else if (sign && (other || ps_tok_is(&t, "float") || ps_tok_is(&t, "double")))
			bad = "signed and unsigned may only be used with integer type";
		if (bad) {
			if (!lex_next(&lx, &t) || (tagged && !lex_next(&lx, &t)))
				return true; /* the parser says what is wrong there */
			return error_at(ps->err, t.loc, "invalid type declaration: %s", bad);
		}
		if (t.kind != T_IDENT || tagged || !(lng || sign) || !lex_next(&lx, &t))
			return true;
	}
}

/* a D declaration's type: C's words, or `string` */
static char *parse_d_decl_type(Parser *ps)
{
	if (!d_type_words_ok(ps))
		return NULL;
	if (!ps_tok_is(&ps->tok, "string"))
		return ps_d_type(ps);
	char *t = "string";
	return ps_advance(ps) ? t : NULL;
}

/* is the token after the current one an integer constant? */
static bool peek_int(const Parser *ps)
{
	Lexer lx = ps->lx;
	Token t;
	return lex_next(&lx, &t) && t.kind == T_INT;
}

/* the text after the current token, past blanks */
static const char *text_after(const Parser *ps)
{
	const char *s = ps->lx.text + ps->lx.pos;
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	return s;
}

/* NAME[KEY TYPES] at its '[', refused where dtrace's dt_decl_prototype()
 * refuses an array's prototype: empty, `...`, a void key; and in a
 * clause-local (this->) variable */
static bool parse_d_keys(Parser *ps, const DVarDecl *d, const char *name, bool local)
{
	if (local)
		return error_at(ps->err, d->loc, "associative arrays may not be declared as local "
				"variables: %s", name);
	if (*text_after(ps) == ']')
		return error_at(ps->err, d->loc, "array declaration requires array dimension or "
				"tuple signature: %s", name);
	int nkey = 0;
	do {
		nkey++;
		if (!strncmp(text_after(ps), "...", 3))
			return error_at(ps->err, d->loc, "array prototype may not use a "
					"variable-length argument list");
		if (!ps_advance(ps))
			return false;
		if (ps_tok_is(&ps->tok, "void") && (*text_after(ps) == ',' || *text_after(ps) == ']'))
			return error_at(ps->err, ps->tok.loc, "array prototype may not use parameter "
					"of type void: (anonymous), parameter #%d", nkey);
		if (!parse_d_decl_type(ps))
			return false;
	} while (ps->tok.kind == T_COMMA);
	if (ps->tok.kind != T_RBRACKET)
		return ps_unexpected(ps, "']'");
	return ps_advance(ps);
}

/* one declarator: NAME, NAME[KEY TYPES] (an associative array) or NAME[N]
 * (a scalar array: a read copies it whole, hence the bound) */
#define D_ARRAY_MAX 4096
static bool parse_d_declarator(Parser *ps, const char *scope, const char *type)
{
	if (ps->tok.kind != T_IDENT || ps_d_type_word(&ps->tok))
		return ps_unexpected(ps, "a name");
	Program *p = ps->prog;
	DVarDecl d = { .type = type, .loc = ps->tok.loc };
	char buf[256];
	snprintf(buf, sizeof(buf), "%s%.*s", scope, ps->tok.len, ps->tok.text);
	d.name = arena_strdup(&p->arena, buf);
	if (!ps_advance(ps))
		return false;
	if (ps->tok.kind == T_LBRACKET && peek_int(ps)) { /* a scalar array: `int x[5];` */
		if (!ps_advance(ps))
			return false;
		if (!ps->tok.ival || ps->tok.ival > D_ARRAY_MAX)
			return error_at(ps->err, ps->tok.loc, "array dimension %llu is out of range "
					"(1 to %d)", (unsigned long long)ps->tok.ival, D_ARRAY_MAX);
		d.count = (int)ps->tok.ival;
		if (!ps_advance(ps))
			return false;
		if (ps->tok.kind != T_RBRACKET)
			return ps_unexpected(ps, "']'");
		if (!ps_advance(ps))
			return false;
	} else if (ps->tok.kind == T_LBRACKET) { /* the key types are what the keys' uses give */
		d.assoc = true;
		if (!parse_d_keys(ps, &d, buf + strlen(scope), !strcmp(scope, "this->")))
			return false;
	}
	for (int i = 0; i < p->nd_vars; i++)
		if (!strcmp(p->d_vars[i].name, d.name) && strcmp(p->d_vars[i].type, d.type))
			return error_at(ps->err, d.loc, "identifier redeclared: %s", buf + strlen(scope));
	p->d_vars = arena_grow(&p->arena, p->d_vars, p->nd_vars, sizeof(*p->d_vars));
	p->d_vars[p->nd_vars++] = d;
	return true;
}

bool parse_d_decl(Lexer *lx, Program *prog, Error *err)
{
	Parser ps = { .lx = *lx, .prog = prog, .err = err, .d_syntax = true };
	if (!ps_advance(&ps))
		return false;
	const char *scope = "`";
	if (ps_tok_is(&ps.tok, "self") || ps_tok_is(&ps.tok, "this")) {
		scope = ps_tok_is(&ps.tok, "self") ? "self->" : "this->";
		if (!ps_advance(&ps))
			return false;
	}
	/* `self x;`, `this x, y;`: a name and no type declares an int (DTrace) */
	const char *after = ps.lx.text + ps.lx.pos;
	while (*after == ' ' || *after == '\t')
		after++;
	bool untyped = *scope != '`' && ps.tok.kind == T_IDENT && !ps_d_type_word(&ps.tok) &&
		       !ps_tok_is(&ps.tok, "string") && (*after == ';' || *after == ',');
	char *type = untyped ? "int" : parse_d_decl_type(&ps);
	if (!type)
		return false;
	for (;;) {
		if (!parse_d_declarator(&ps, scope, type))
			return false;
		if (ps.tok.kind != T_COMMA)
			break;
		if (!ps_advance(&ps))
			return false;
	}
	if (ps.tok.kind != T_SEMI)
		return ps_unexpected(&ps, "';'");
	*lx = ps.lx; /* right after the ';' */
	return true;
}
