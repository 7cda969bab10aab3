/* Types in casts and sizeof: bpftrace's ("uint8", "struct task_struct *",
 * typedef names told by shape) and D's C type words. */
#include <stdio.h>
#include <string.h>

#include "parser_int.h"

static const char *const type_names[] = {
	"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
	"uint64", "int", "uint", "char", "struct", "union", "enum",
};

/* D: a typedef name (D's lexer knows them; here, by the C library's `_t`
 * convention) followed by ')' or '*' */
static bool d_typedef_ahead(Parser *ps)
{
	if (ps->tok.kind != T_IDENT || ps->tok.len < 3 || strncmp(ps->tok.text + ps->tok.len - 2, "_t", 2))
		return false;
	Lexer lx = ps->lx;
	Token tok = ps->tok;
	Error saved = *ps->err;
	bool type = ps_advance(ps) && (ps->tok.kind == T_RPAREN || ps->tok.kind == T_STAR);
	ps->lx = lx;
	ps->tok = tok;
	*ps->err = saved;
	return type;
}

bool ps_type_ahead(Parser *ps, bool sizeof_ctx)
{
	if (ps->d_syntax && (ps_d_type_word(&ps->tok) || d_typedef_ahead(ps)))
		return true;
	return TOK_IN(&ps->tok, type_names) || ps_typedef_cast_ahead(ps, sizeof_ctx);
}

/* D: "unsigned long long", "const char *": C's type words, qualifiers
 * dropped, or a tag and its name, or one typedef name; then the stars */
char *ps_d_type(Parser *ps)
{
	StrBuf b = { 0 };
	bool base = false;
	while (ps->tok.kind == T_IDENT && (ps_d_type_word(&ps->tok) || !base)) {
		bool tagged = ps_tok_is(&ps->tok, "struct") || ps_tok_is(&ps->tok, "union") || ps_tok_is(&ps->tok, "enum");
		bool qual = ps_tok_is(&ps->tok, "const") || ps_tok_is(&ps->tok, "volatile");
		if (!qual) {
			if (b.len)
				sb_putc(&b, ' ');
			sb_putn(&b, ps->tok.text, (size_t)ps->tok.len);
		}
		bool named = !qual && !ps_d_type_word(&ps->tok); /* a typedef name ends it */
		base = base || !qual;
		if (!ps_advance(ps)) {
			sb_free(&b);
			return NULL;
		}
		if (tagged) {
			if (ps->tok.kind != T_IDENT) {
				sb_free(&b);
				return ps_unexpected(ps, "a type name"), NULL;
			}
			sb_putc(&b, ' ');
			sb_putn(&b, ps->tok.text, (size_t)ps->tok.len);
			if (!ps_advance(ps)) {
				sb_free(&b);
				return NULL;
			}
			break;
		}
		if (named)
			break;
	}
	for (bool first = true; ps->tok.kind == T_STAR; first = false) {
		sb_puts(&b, first ? " *" : "*");
		if (!ps_advance(ps)) {
			sb_free(&b);
			return NULL;
		}
	}
	char *t = arena_strndup(&ps->prog->arena, b.s ? b.s : "", b.len);
	sb_free(&b);
	if (!base)
		return ps_unexpected(ps, "a type name"), NULL;
	return t;
}

/* "uint8", "int64 *", "struct task_struct **". */
char *ps_type(Parser *ps)
{
	if (ps->d_syntax)
		return ps_d_type(ps);
	Token base = ps->tok, tag = { 0 };
	if (!ps_advance(ps))
		return NULL;
	bool tagged = ps_tok_is(&base, "struct") || ps_tok_is(&base, "union") || ps_tok_is(&base, "enum");
	if (tagged) {
		tag = ps->tok;
		if (tag.kind != T_IDENT || ps_keyword(&tag))
			return ps_unexpected(ps, "a type name"), NULL;
		if (!ps_advance(ps))
			return NULL;
	}
	int stars = 0;
	while (ps->tok.kind == T_STAR) {
		stars++;
		if (!ps_advance(ps))
			return NULL;
	}
	size_t n = (size_t)base.len + (size_t)tag.len + (size_t)stars + 3;
	char *s = arena_alloc(&ps->prog->arena, n);
	int off = snprintf(s, n, "%.*s", base.len, base.text);
	if (tagged)
		off += snprintf(s + off, n - off, " %.*s", tag.len, tag.text);
	if (stars)
		s[off++] = ' ';
	memset(s + off, '*', (size_t)stars);
	return s;
}

/* Typedef names in casts ("(task_t *)p", "(u32)x") and sizeof.  The parser
 * does not know which names are types (script typedefs are parsed in sema,
 * kernel ones live in BTF), so instead of a callback it decides by shape,
 * looking ahead without consuming: IDENT followed by one or more '*' and
 * ')' is never an expression, and "(IDENT)" directly followed by the start
 * of an operand (a name, number, variable, map, '(', '!', '~', $N) is not
 * one either -- both were syntax errors before, so no valid script changes
 * meaning.  Sema then resolves the name and says if it is not a type.
 * "(name) -x", "(name) *p" and "(name) &x" stay binary expressions, as
 * they can be without types; write "(name)(-x)" to cast those. */
bool ps_typedef_cast_ahead(Parser *ps, bool sizeof_ctx)
{
	if (ps->tok.kind != T_IDENT || ps_keyword(&ps->tok))
		return false;
	Lexer lx = ps->lx;
	Token tok = ps->tok;
	Error saved = *ps->err;
	int stars = 0;
	bool ok = ps_advance(ps);
	while (ok && ps->tok.kind == T_STAR) {
		stars++;
		ok = ps_advance(ps);
	}
	bool cast = ok && ps->tok.kind == T_RPAREN;
	if (cast && !stars) {
		TokKind k = T_EOF;
		if (!sizeof_ctx && (ok = ps_advance(ps)))
			k = ps->tok.kind;
		cast = ok && (k == T_IDENT || k == T_INT || k == T_VAR || k == T_MAP ||
			      k == T_LPAREN || k == T_BANG || k == T_TILDE || k == T_POSPARAM) &&
		       !(k == T_IDENT && ps_keyword(&ps->tok) && !ps_tok_is(&ps->tok, "sizeof"));
	}
	if (sizeof_ctx && !stars)
		cast = false; /* sizeof(name) stays an expression: sema looks it up */
	ps->lx = lx;
	ps->tok = tok;
	*ps->err = saved;
	return cast;
}

/* ParseOpts.typeof_types: `typeof` starts a type */
bool ps_typeof_ahead(Parser *ps)
{
	return ps->lx.opts->typeof_types && ps_tok_is(&ps->tok, "typeof");
}

/* typeof(TYPE) or typeof(EXPR), the type of the E_CAST `cast`: a type's
 * text in cast->name, an expression in cast->b (never run: sema takes its
 * type).  A lone name stays an expression, as in sizeof: a macro's
 * parameter or a typedef, which sema tells apart. */
bool ps_typeof(Parser *ps, Expr *cast)
{
	if (!ps_advance(ps))
		return false;
	Loc open = ps->tok.loc;
	if (!ps_expect(ps, T_LPAREN, "'(' after 'typeof'"))
		return false;
	if (ps_type_ahead(ps, true))
		cast->name = ps_type(ps);
	else
		cast->b = ps_expr(ps);
	return (cast->name || cast->b) && ps_expect_close(ps, T_RPAREN, open, "()");
}
