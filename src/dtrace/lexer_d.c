/* D's tokens (the D front end's lexer hooks, d_lex_hooks): integer constants with
 * C's bases and suffixes, typed as DTrace types them, and character
 * constants.  Messages and their order follow DTrace's lexer (dt_lex.l)
 * and dt_node_int(). */
#include <ctype.h>
#include <string.h>

#include "../lang/lexer.h"
#include "dtrace.h"

/* DTrace's table: int, unsigned int, long, unsigned long, long long,
 * unsigned long long (long and long long are both 64-bit on Linux) */
static const struct {
	IntLit lit;
	uint64_t limit;
} int_types[] = {
	{LIT_INT, INT32_MAX}, {LIT_UINT, UINT32_MAX}, {LIT_LONG, INT64_MAX},
	{LIT_ULONG, UINT64_MAX}, {LIT_LONG, INT64_MAX}, {LIT_ULONG, UINT64_MAX},
};

/* The first type of the list the base and suffix choose that holds v:
 * each 'u' moves one place, each 'l' two; decimal constants (and a
 * lowercase-'u' suffix) then skip the unsigned or signed entries. */
static IntLit int_lit_type(uint64_t v, bool decimal, const char *suffix, int slen)
{
	int i = 0, step = (decimal || (slen && suffix[0] == 'u')) + 1;
	for (int k = 0; k < slen; k++)
		i += suffix[k] == 'u' || suffix[k] == 'U' ? 1 : 2;
	for (; i < (int)(sizeof(int_types) / sizeof(int_types[0])); i += step)
		if (v <= int_types[i].limit)
			return int_types[i].lit;
	return LIT_NONE;
}

/* [uU]?[lL]?[lL]? after the digits */
static int suffix_len(const char *s)
{
	int n = 0;
	if (s[n] == 'u' || s[n] == 'U')
		n++;
	for (int k = 0; k < 2 && (s[n] == 'l' || s[n] == 'L'); k++)
		n++;
	return n;
}

static int digits_len(const char *s)
{
	int n = 0;
	while (isdigit((unsigned char)s[n]))
		n++;
	return n;
}

/* the length of dt_lex.l's RGX_FP at s, 0 for none:
 * ([0-9]+"."?[0-9]*|"."[0-9]+)((e|E)("+"|-)?[0-9]+)?[fFlL]? */
static int float_len(const char *s)
{
	int n = digits_len(s);
	if (n)
		n += s[n] == '.' ? 1 + digits_len(s + n + 1) : 0;
	else if (s[0] == '.' && isdigit((unsigned char)s[1]))
		n = 1 + digits_len(s + 1);
	else
		return 0;
	if (s[n] == 'e' || s[n] == 'E') {
		int m = n + 1 + (s[n + 1] == '+' || s[n + 1] == '-');
		if (isdigit((unsigned char)s[m]))
			n = m + digits_len(s + m);
	}
	return n + (s[n] && strchr("fFlL", s[n]) != NULL);
}

/* dtrace's lexer takes the longest match, an integer's when as long: a
 * floating-point constant longer than the integer here is an error */
static bool float_error(Lexer *lx, int int_len)
{
	int n = float_len(lx->text + lx->pos);
	if (n <= int_len)
		return true;
	return error_at(lx->err, lex_loc(lx, n), "floating-point constants are not permitted");
}

static bool lex_d_number(Lexer *lx, Token *t)
{
	const char *s = lx->text + lx->pos;
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2]);
	int n = hex ? 2 : 0;
	while (hex ? isxdigit((unsigned char)s[n]) : isdigit((unsigned char)s[n]))
		n++;
	int digits = n;
	n += suffix_len(s + n);
	t->kind = T_INT;
	t->loc = lex_loc(lx, n);
	if (!float_error(lx, n))
		return false;
	unsigned base = hex ? 16 : s[0] == '0' ? 8 : 10;
	uint64_t v = 0;
	bool oflow = false;
	for (int i = hex ? 2 : 0; i < digits; i++) {
		unsigned d = (unsigned)(isdigit((unsigned char)s[i]) ? s[i] - '0'
					: (tolower((unsigned char)s[i]) - 'a' + 10));
		if (d >= base) /* 8 or 9 in an octal constant */
			return error_at(lx->err, t->loc, "constant %.*s contains invalid digit %c", n,
					s, s[i]);
		if (v > (UINT64_MAX - d) / base)
			oflow = true;
		v = v * base + d;
	}
	if (oflow)
		return error_at(lx->err, t->loc, "constant %.*s results in integer overflow", n, s);
	t->ival = v;
	t->lit = int_lit_type(v, base == 10, s + digits, n - digits);
	if (t->lit == LIT_NONE)
		return error_at(lx->err, t->loc, "integer constant 0x%llx cannot be represented in "
				"any built-in integral type", (unsigned long long)v);
	lex_advance(lx, (size_t)n);
	return true;
}

/* 'c', '\n', '\0', '\x41', '\101', and up to 8 characters ('ab' is
 * 0x6162): an integer constant typed as a decimal one (int) */
static bool lex_d_char(Lexer *lx, Token *t)
{
	Loc start = lex_loc(lx, 1);
	StrBuf b = {0};
	lex_advance(lx, 1);
	bool ok = true;
	while (ok && lex_peek(lx, 0) != '\'') {
		char c = lex_peek(lx, 0);
		if (c == 0 || c == '\n') { /* dt_lex.l reports it past the newline */
			Loc at = lex_loc(lx, 1);
			if (c == '\n')
				at = (Loc){ at.line + 1, 1, 1 };
			sb_free(&b);
			return error_at(lx->err, at, "newline encountered in character constant");
		}
		if (c == '\\') {
			ok = lex_escape(lx, &b);
		} else {
			sb_putc(&b, c);
			lex_advance(lx, 1);
		}
	}
	size_t n = b.len;
	uint64_t v = 0;
	for (size_t i = 0; i < n && i < 8; i++)
		v = v << 8 | (unsigned char)b.s[i];
	sb_free(&b);
	if (!ok)
		return false;
	lex_advance(lx, 1);
	t->kind = T_INT;
	t->loc = start;
	t->loc.len = (int)(lx->pos - (size_t)(t->text - lx->text));
	if (!n)
		return error_at(lx->err, t->loc, "empty character constant");
	if (n > 8)
		return error_at(lx->err, t->loc, "character constant is too long");
	t->ival = v;
	t->lit = int_lit_type(v, true, "", 0);
	return true;
}

/* D's logical exclusive or */
static bool lex_d_xorxor(Lexer *lx, Token *t)
{
	t->kind = T_XORXOR;
	t->loc = lex_loc(lx, 2);
	t->len = 2;
	lex_advance(lx, 2);
	return true;
}

static bool d_ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool d_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* An identifier, or a kernel symbol with its scope as DTrace's lexer takes
 * them: `name, module`name (one token; the D front end resolves it) */
static bool lex_d_ident(Lexer *lx, Token *t)
{
	const char *s = lx->text + lx->pos;
	int n = s[0] == '`';
	while (d_ident_char(s[n]))
		n++;
	if (s[0] != '`' && s[n] == '`' && d_ident_start(s[n + 1]))
		for (n++; d_ident_char(s[n]); n++)
			;
	t->kind = T_IDENT;
	t->loc = lex_loc(lx, n);
	t->len = n;
	lex_advance(lx, (size_t)n);
	return true;
}

/* C's other escapes, which D has too */
static char d_escape(char c)
{
	switch (c) {
	case 'a': return '\a';
	case 'b': return '\b';
	case 'f': return '\f';
	case 'v': return '\v';
	case '?': return '?';
	default: return 0;
	}
}

static int d_ident_len(const char *s)
{
	int n = 0;
	if (!d_ident_start(s[0]))
		return 0;
	while (d_ident_char(s[n]))
		n++;
	return n;
}

/* D's own tokens: typed integer and character constants (a floating-point
 * one is an error), identifiers with
 * a kernel symbol's scope, ^^ (logical exclusive or), and no control line
 * inside a clause */
static bool d_token(Lexer *lx, Token *t, bool *ok)
{
	char c = lex_peek(lx, 0);
	if (isdigit((unsigned char)c))
		*ok = lex_d_number(lx, t);
	else if (c == '.' && isdigit((unsigned char)lex_peek(lx, 1)))
		*ok = float_error(lx, 0);
	else if (c == '\'')
		*ok = lex_d_char(lx, t);
	else if (c == '#')
		*ok = error_at(lx->err, lex_loc(lx, 1), "invalid control directive: #%.*s",
			       d_ident_len(lx->text + lx->pos + 1), lx->text + lx->pos + 1);
	else if (d_ident_start(c) || (c == '`' && d_ident_start(lex_peek(lx, 1))))
		*ok = lex_d_ident(lx, t);
	else if (c == '^' && lex_peek(lx, 1) == '^')
		*ok = lex_d_xorxor(lx, t);
	else
		return false;
	return true;
}

const LexHooks d_lex_hooks = {.token = d_token, .escape = d_escape, .loc_at_token = true};
