#include "lexer.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../util/util.h"

const ParseOpts parse_opts_017 = {0};

void lexer_init(Lexer *lx, const char *text, Arena *arena, Error *err)
{
	lx->text = text ? text : "";
	lx->pos = 0;
	lx->line = 1;
	lx->col = 1;
	lx->run_line = 1;
	lx->run_col = 1;
	lx->arena = arena;
	lx->err = err;
	lx->hooks = NULL;
	lx->opts = &parse_opts_017;
	lx->file = 0;
	if (!strncmp(lx->text, "#!", 2)) { /* a script's "#!/usr/bin/env sonde" line */
		lx->pos = strcspn(lx->text, "\n");
		lx->col = (int)lx->pos + 1;
	}
}

/* Never reads past the terminating NUL: off only goes beyond the current
 * byte when every byte in between is non-NUL. */
char lex_peek(const Lexer *lx, size_t off)
{
	for (size_t i = 0; i < off; i++)
		if (!lx->text[lx->pos + i])
			return 0;
	return lx->text[lx->pos + off];
}

Loc lex_loc(const Lexer *lx, int len)
{
	bool run = !(lx->hooks && lx->hooks->loc_at_token) && lx->run_line == lx->line;
	return (Loc){ lx->line, lx->col, len > 0 ? len : 1, run ? lx->run_col : 0, .file = lx->file };
}

void lex_advance(Lexer *lx, size_t n)
{
	for (size_t i = 0; i < n && lx->text[lx->pos]; i++) {
		if (lx->text[lx->pos] == '\n') {
			lx->line++;
			lx->col = 1;
		} else {
			lx->col++;
		}
		lx->pos++;
	}
}

static bool is_ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

/* Printable form of a byte for messages: "#" or "\x01". */
static void char_repr(char c, char buf[8])
{
	unsigned char u = (unsigned char)c;
	if (u > 0x20 && u < 0x7f)
		snprintf(buf, 8, "%c", c);
	else
		snprintf(buf, 8, "\\x%02x", u);
}

static bool invalid_char(Lexer *lx)
{
	char r[8];
	char_repr(lex_peek(lx, 0), r);
	return error_at(lx->err, lex_loc(lx, 1), "invalid character '%s'", r);
}

static bool skip_block_comment(Lexer *lx)
{
	Loc start = lex_loc(lx, 2);
	lex_advance(lx, 2);
	while (lex_peek(lx, 0)) {
		if (lex_peek(lx, 0) == '*' && lex_peek(lx, 1) == '/') {
			lex_advance(lx, 2);
			return true;
		}
		lex_advance(lx, 1);
	}
	return error_at(lx->err, start, "unterminated comment");
}

bool lex_skip_space(Lexer *lx)
{
	for (;;) {
		char c = lex_peek(lx, 0);
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
			lex_advance(lx, 1);
			lx->run_line = lx->line;
			lx->run_col = lx->col;
		} else if (c == '/' && lex_peek(lx, 1) == '/') {
			while (lex_peek(lx, 0) && lex_peek(lx, 0) != '\n')
				lex_advance(lx, 1);
		} else if (c == '/' && lex_peek(lx, 1) == '*') {
			if (!skip_block_comment(lx))
				return false;
		} else {
			return true;
		}
	}
}

/* ---- integer literals ---- */

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

/* Parses digits in [s, s+n) with '_' allowed only between two digits.
 * Returns 0 on success, -1 on a malformed literal, -2 on overflow. */
static int parse_digits(const char *s, int n, unsigned base, uint64_t *out)
{
	uint64_t v = 0;
	if (n <= 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (s[i] == '_') {
			if (i == 0 || i == n - 1 || s[i - 1] == '_')
				return -1;
			continue;
		}
		unsigned d = (unsigned)digit_value(s[i]);
		if (d >= base)
			return -1;
		if (v > (UINT64_MAX - d) / base)
			return -2;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

/* Mantissa digits, then an optional "eNN" decimal exponent (bpftrace
 * accepts 1e6 as an integer). */
static int parse_decimal(const char *s, int n, uint64_t *out)
{
	const char *e = memchr(s, 'e', (size_t)n);
	if (!e)
		e = memchr(s, 'E', (size_t)n);
	int mlen = e ? (int)(e - s) : n;
	uint64_t v, exp = 0;
	int rc = parse_digits(s, mlen, 10, &v);
	if (rc == -1 || (e && parse_digits(e + 1, n - mlen - 1, 10, &exp) == -1))
		return -1;
	if (rc == -2)
		return -2;
	if (e && exp > 0 && v != 0) {
		if (exp > 19)
			return -2;
		for (uint64_t i = 0; i < exp; i++) {
			if (v > UINT64_MAX / 10)
				return -2;
			v *= 10;
		}
	}
	*out = v;
	return 0;
}

/* ParseOpts.duration_literals: a decimal literal's unit suffix, its
 * length and nanoseconds (0: none) */
static const struct { const char *unit; uint64_t ns; } durations[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000ULL },
	{ "m", 60000000000ULL }, { "h", 3600000000000ULL }, { "d", 86400000000000ULL },
};

static int duration_suffix(const char *s, int n, uint64_t *ns)
{
	for (size_t i = 0; i < sizeof(durations) / sizeof(durations[0]); i++) {
		int k = (int)strlen(durations[i].unit);
		if (n > k && !strncmp(s + n - k, durations[i].unit, (size_t)k) &&
		    s[n - k - 1] >= '0' && s[n - k - 1] <= '9') {
			*ns = durations[i].ns;
			return k;
		}
	}
	return 0;
}

/* ParseOpts.int_suffixes: C's U, L, LL, UL, ULL (any case, any order)
 * after a literal's digits: its length */
static int c_int_suffix(const char *s, int n)
{
	int k = 0;
	while (k < 3 && n - k > 1 && strchr("uUlL", s[n - k - 1]))
		k++;
	return k;
}

static bool lex_number(Lexer *lx, Token *t)
{
	const char *s = lx->text + lx->pos;
	int n = 0;
	while (is_ident_char(s[n]))
		n++;
	int rc, digits = n;
	bool hex = n > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	uint64_t unit = 0;
	if (lx->opts->int_suffixes)
		digits -= c_int_suffix(s, n);
	if (lx->opts->duration_literals && !hex && digits == n)
		digits -= duration_suffix(s, n, &unit);
	if (hex)
		rc = parse_digits(s + 2, digits - 2, 16, &t->ival);
	else if (digits > 1 && s[0] == '0')
		rc = parse_digits(s + 1, digits - 1, 8, &t->ival); /* C-style octal */
	else
		rc = parse_decimal(s, digits, &t->ival);
	if (!rc && unit && t->ival > UINT64_MAX / unit)
		rc = -2;
	else if (!rc && unit)
		t->ival *= unit;
	t->kind = T_INT;
	t->loc = lex_loc(lx, n);
	if (rc == -2)
		return error_at(lx->err, t->loc, "integer literal too large");
	if (rc == -1)
		return error_at(lx->err, t->loc, "invalid integer literal '%.*s'",
				n > 40 ? 40 : n, s);
	lex_advance(lx, (size_t)n);
	return true;
}

/* ---- string literals ---- */

static int octal_escape(Lexer *lx, StrBuf *b)
{
	unsigned v = 0;
	int i = 0;
	while (i < 3 && lex_peek(lx, 0) >= '0' && lex_peek(lx, 0) <= '7') {
		v = v * 8 + (unsigned)(lex_peek(lx, 0) - '0');
		lex_advance(lx, 1);
		i++;
	}
	if (v > 255)
		return -1;
	sb_putc(b, (char)v);
	return 0;
}

static int hex_escape(Lexer *lx, StrBuf *b)
{
	unsigned v = 0;
	int i = 0;
	while (i < 2 && digit_value(lex_peek(lx, 0)) < 16) {
		v = v * 16 + (unsigned)digit_value(lex_peek(lx, 0));
		lex_advance(lx, 1);
		i++;
	}
	if (i == 0)
		return -1;
	sb_putc(b, (char)v);
	return 0;
}


bool lex_escape(Lexer *lx, StrBuf *b)
{
	Loc at = lex_loc(lx, 2);
	char c = lex_peek(lx, 1);
	char simple = lx->hooks && lx->hooks->escape ? lx->hooks->escape(c) : 0;
	switch (c) {
	case 'n': simple = '\n'; break;
	case 't': simple = '\t'; break;
	case 'r': simple = '\r'; break;
	case '\\': case '"': case '\'': simple = c; break;
	}
	if (simple) {
		sb_putc(b, simple);
		lex_advance(lx, 2);
		return true;
	}
	if (c >= '0' && c <= '7') {
		lex_advance(lx, 1);
		if (octal_escape(lx, b) == 0)
			return true;
		at.len = 4;
		return error_at(lx->err, at, "octal escape sequence out of range");
	}
	if (c == 'x') {
		lex_advance(lx, 2);
		if (hex_escape(lx, b) == 0)
			return true;
		return error_at(lx->err, at, "invalid escape sequence '\\x': expected hex digits");
	}
	char r[8];
	char_repr(c, r);
	return error_at(lx->err, at, "invalid escape sequence '\\%s' in string literal", r);
}

static bool lex_string(Lexer *lx, Token *t)
{
	Loc start = lex_loc(lx, 1);
	size_t p0 = lx->pos;
	StrBuf b = { 0 };
	lex_advance(lx, 1);
	for (;;) {
		char c = lex_peek(lx, 0);
		if (c == 0 || c == '\n') {
			sb_free(&b);
			return error_at(lx->err, start, "unterminated string literal");
		}
		if (c == '"')
			break;
		if (c == '\\') {
			if (!lex_escape(lx, &b)) {
				sb_free(&b);
				return false;
			}
			continue;
		}
		sb_putc(&b, c);
		lex_advance(lx, 1);
	}
	lex_advance(lx, 1);
	t->kind = T_STR;
	t->loc = start;
	t->loc.len = (int)(lx->pos - p0);
	t->slen = b.len;
	t->sval = arena_strndup(lx->arena, b.s ? b.s : "", b.len);
	sb_free(&b);
	return true;
}

/* ---- identifiers, variables, maps ---- */

static int ident_len(const char *s)
{
	int n = 0;
	if (!is_ident_start(s[0]))
		return 0;
	while (is_ident_char(s[n]))
		n++;
	return n;
}

static bool lex_dollar(Lexer *lx, Token *t)
{
	const char *s = lx->text + lx->pos;
	int n;
	if (s[1] == '#') {
		t->kind = T_POSCOUNT;
		n = 2;
	} else if (isdigit((unsigned char)s[1])) {
		n = 1;
		while (isdigit((unsigned char)s[n]))
			n++;
		t->kind = T_POSPARAM;
		if (parse_digits(s + 1, n - 1, 10, &t->ival) != 0 || t->ival > INT32_MAX)
			return error_at(lx->err, lex_loc(lx, n),
					"positional parameter number too large");
	} else if ((n = ident_len(s + 1)) > 0) {
		t->kind = T_VAR;
		n++;
	} else {
		return error_at(lx->err, lex_loc(lx, 1),
				"expected a variable name, a number or '#' after '$'");
	}
	t->loc = lex_loc(lx, n);
	t->len = n;
	lex_advance(lx, (size_t)n);
	return true;
}

static bool lex_word(Lexer *lx, Token *t, TokKind kind, int skip)
{
	const char *s = lx->text + lx->pos;
	int n = skip;
	while (is_ident_char(s[n]))
		n++;
	t->kind = kind;
	t->loc = lex_loc(lx, n);
	t->len = n;
	lex_advance(lx, (size_t)n);
	return true;
}

/* ---- punctuation ---- */

static const struct {
	const char *s;
	TokKind kind;
	Op op;
} puncts[] = {
	{ "<<=", T_ASSIGN, OP_SHL }, { ">>=", T_ASSIGN, OP_SHR },
	{ "->", T_ARROW, 0 },        { "++", T_INC, 0 },
	{ "--", T_DEC, 0 },          { "==", T_EQ, 0 },
	{ "!=", T_NE, 0 },           { "<=", T_LE, 0 },
	{ ">=", T_GE, 0 },           { "&&", T_ANDAND, 0 },
	{ "||", T_OROR, 0 },         { "<<", T_SHL, 0 },
	{ ">>", T_SHR, 0 },          { "+=", T_ASSIGN, OP_ADD },
	{ "-=", T_ASSIGN, OP_SUB },  { "*=", T_ASSIGN, OP_MUL },
	{ "/=", T_ASSIGN, OP_DIV },  { "%=", T_ASSIGN, OP_MOD },
	{ "&=", T_ASSIGN, OP_BAND }, { "|=", T_ASSIGN, OP_BOR },
	{ "^=", T_ASSIGN, OP_BXOR }, { "(", T_LPAREN, 0 },
	{ ")", T_RPAREN, 0 },        { "{", T_LBRACE, 0 },
	{ "}", T_RBRACE, 0 },        { "[", T_LBRACKET, 0 },
	{ "]", T_RBRACKET, 0 },      { ",", T_COMMA, 0 },
	{ ";", T_SEMI, 0 },          { ":", T_COLON, 0 },
	{ "?", T_QUESTION, 0 },      { ".", T_DOT, 0 },
	{ "+", T_PLUS, 0 },          { "-", T_MINUS, 0 },
	{ "*", T_STAR, 0 },          { "/", T_SLASH, 0 },
	{ "%", T_PERCENT, 0 },       { "&", T_AMP, 0 },
	{ "|", T_PIPE, 0 },          { "^", T_CARET, 0 },
	{ "~", T_TILDE, 0 },         { "!", T_BANG, 0 },
	{ "<", T_LT, 0 },            { ">", T_GT, 0 },
	{ "=", T_ASSIGN, OP_NONE },
};

static bool lex_punct(Lexer *lx, Token *t)
{
	const char *s = lx->text + lx->pos;
	for (size_t i = 0; i < sizeof(puncts) / sizeof(puncts[0]); i++) {
		size_t n = strlen(puncts[i].s);
		if (strncmp(s, puncts[i].s, n) != 0)
			continue;
		t->kind = puncts[i].kind;
		t->op = puncts[i].op;
		t->loc = lex_loc(lx, (int)n);
		t->len = (int)n;
		lex_advance(lx, n);
		return true;
	}
	return invalid_char(lx);
}

bool lex_next(Lexer *lx, Token *t)
{
	memset(t, 0, sizeof(*t));
	if (!lex_skip_space(lx))
		return false;
	char c = lex_peek(lx, 0);
	size_t p0 = lx->pos;
	bool ok;
	t->text = lx->text + p0;
	if (c == 0) {
		t->kind = T_EOF;
		t->loc = lex_loc(lx, 1);
		return true;
	}
	if (lx->hooks && lx->hooks->token && lx->hooks->token(lx, t, &ok))
		; /* the dialect's own */
	else if (isdigit((unsigned char)c))
		ok = lex_number(lx, t);
	else if (is_ident_start(c))
		ok = lex_word(lx, t, T_IDENT, 0);
	else if (c == '"')
		ok = lex_string(lx, t);
	else if (c == '$')
		ok = lex_dollar(lx, t);
	else if (c == '@')
		ok = lex_word(lx, t, T_MAP, 1);
	else
		ok = lex_punct(lx, t);
	t->len = (int)(lx->pos - p0);
	return ok;
}

/* ---- attach points ---- */

static bool ap_start_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '*' || c == '"' || c == '?';
}

static bool ap_end_char(char c)
{
	return c == 0 || c == ',' || c == '{' || c == '}' || isspace((unsigned char)c);
}

/* A '/' inside a file path (a ':' part starting with '/', '.' or '~', or
 * the file part of a user-space probe) belongs to the attach point; anywhere else it opens the predicate, so
 * kprobe:f/pid == 1/ works (bpftrace would read "f/pid" as the name). */
static bool ap_slash_ends(const Lexer *lx, const StrBuf *b, size_t seg)
{
	if (b->len == seg)
		return false;
	char c0 = b->s[seg];
	if (c0 == '/' || c0 == '.' || c0 == '~')
		return false;
	/* the file part of a provider that takes one (uprobe, usdt) is a path
	 * wherever its '/'s are (uprobe:testprogs/x:f, as bpftrace reads it) */
	const char *colon = memchr(b->s, ':', b->len);
	if (!colon || (size_t)(colon - b->s) + 1 != seg)
		return true; /* not the part right after the provider */
	bool (*path_provider)(const char *, size_t) = lx->opts->path_provider;
	return !path_provider || !path_provider(b->s, (size_t)(colon - b->s));
}

/* A quoted part of an attach point, e.g. the path in uprobe:"/a b":f. */
static bool ap_quoted(Lexer *lx, StrBuf *b)
{
	Loc start = lex_loc(lx, 1);
	lex_advance(lx, 1);
	while (lex_peek(lx, 0) != '"') {
		char c = lex_peek(lx, 0);
		if (c == 0 || c == '\n')
			return error_at(lx->err, start, "unterminated string literal");
		sb_putc(b, c);
		lex_advance(lx, 1);
	}
	lex_advance(lx, 1);
	return true;
}

bool lex_attach_point(Lexer *lx, Token *t)
{
	memset(t, 0, sizeof(*t));
	t->loc = lex_loc(lx, 1);
	t->text = lx->text + lx->pos;
	char c0 = lex_peek(lx, 0);
	bool param = c0 == '$' && lx->opts->posparam_probes && isdigit((unsigned char)lex_peek(lx, 1));
	if (!ap_start_char(c0) && !param)
		return error_at(lx->err, t->loc,
				"expected an attach point (e.g. tracepoint:sched:sched_switch)");
	StrBuf b = { 0 };
	size_t p0 = lx->pos, seg = 0; /* seg: where the current ':' part starts in b */
	bool ok = true;
	while (ok && !ap_end_char(lex_peek(lx, 0))) {
		unsigned char c = (unsigned char)lex_peek(lx, 0);
		if (c == '/' && ap_slash_ends(lx, &b, seg))
			break;
		if (c == '"') {
			ok = ap_quoted(lx, &b);
		} else if (c < 0x20 || c == 0x7f) {
			ok = invalid_char(lx);
		} else {
			sb_putc(&b, (char)c);
			lex_advance(lx, 1);
			if (c == ':')
				seg = b.len;
		}
	}
	if (ok) {
		t->loc.len = (int)(lx->pos - p0);
		t->len = t->loc.len;
		t->sval = arena_strndup(lx->arena, b.s ? b.s : "", b.len);
		t->slen = b.len;
	}
	sb_free(&b);
	return ok;
}

/* ---- C definitions ---- */

static const char *const c_def_words[] = { "struct", "union", "enum", "typedef" };

bool lex_at_c_def(const Lexer *lx)
{
	const char *s = lx->text + lx->pos;
	if (*s == '#')
		return true;
	int n = ident_len(s);
	for (size_t i = 0; i < sizeof(c_def_words) / sizeof(c_def_words[0]); i++)
		if ((size_t)n == strlen(c_def_words[i]) && !strncmp(s, c_def_words[i], (size_t)n))
			return true;
	return false;
}

/* A preprocessor line, honouring backslash-newline continuations. */
static void c_def_pp_line(Lexer *lx)
{
	while (lex_peek(lx, 0) && lex_peek(lx, 0) != '\n') {
		if (lex_peek(lx, 0) == '\\' && lex_peek(lx, 1) == '\n')
			lex_advance(lx, 1);
		lex_advance(lx, 1);
	}
}

/* Skips a C string/char literal so a ';' or brace inside it is ignored. */
static void c_def_skip_quoted(Lexer *lx)
{
	char q = lex_peek(lx, 0);
	lex_advance(lx, 1);
	while (lex_peek(lx, 0) && lex_peek(lx, 0) != q && lex_peek(lx, 0) != '\n') {
		if (lex_peek(lx, 0) == '\\' && lex_peek(lx, 1))
			lex_advance(lx, 1);
		lex_advance(lx, 1);
	}
	lex_advance(lx, 1);
}

/* After the '}' closing a struct body at depth 0: does a declarator follow
 * ("} x;"), or is this bpftrace's "struct Foo { ... }" without ';'? */
static bool c_def_ends_at_brace(const Lexer *lx)
{
	const char *s = lx->text + lx->pos;
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	if (*s == ';' || *s == '*')
		return false;
	int n = ident_len(s);
	if (!n)
		return true;
	if (n == 13 && !strncmp(s, "__attribute__", 13))
		return false; /* "} __attribute__((packed));" */
	s += n;
	while (*s == ' ' || *s == '\t')
		s++;
	return !(*s == ';' || *s == ',' || *s == '[' || *s == '=');
}

/* A declaration up to the ';' that ends it at brace depth 0. */
static bool c_def_decl(Lexer *lx, Loc start)
{
	int depth = 0;
	bool td = !strncmp(lx->text + lx->pos, "typedef", 7);
	for (;;) {
		char c = lex_peek(lx, 0);
		if (c == 0)
			return error_at(lx->err, start,
					"unterminated C definition: missing ';'");
		if (c == '/' && (lex_peek(lx, 1) == '/' || lex_peek(lx, 1) == '*')) {
			if (!lex_skip_space(lx))
				return false;
			continue;
		}
		if (c == '"' || c == '\'') {
			c_def_skip_quoted(lx);
			continue;
		}
		lex_advance(lx, 1);
		if (c == '{')
			depth++;
		else if (c == '}' && --depth == 0 && !td && c_def_ends_at_brace(lx))
			return true;
		else if (c == ';' && depth <= 0)
			return true;
	}
}

bool lex_c_def(Lexer *lx, StrBuf *out)
{
	size_t p0 = lx->pos;
	int n = ident_len(lx->text + lx->pos);
	Loc start = lex_loc(lx, n ? n : 1);
	if (lex_peek(lx, 0) == '#')
		c_def_pp_line(lx);
	else if (!c_def_decl(lx, start))
		return false;
	sb_putn(out, lx->text + p0, lx->pos - p0);
	sb_putc(out, '\n');
	return true;
}

void tok_describe(const Token *t, char *buf, size_t size)
{
	if (t->kind == T_EOF)
		snprintf(buf, size, "end of file");
	else if (t->kind == T_STR)
		snprintf(buf, size, "string literal");
	else if (t->len > 24)
		snprintf(buf, size, "'%.21s...'", t->text);
	else
		snprintf(buf, size, "'%.*s'", t->len, t->text);
}

/* bpftrace 0.17's lexer makes these words builtins, keywords or stack
 * modes; its (bison) messages name the token kind, not the text. */
static const char *const bison_builtins[] = {
	"pid", "tid", "cgroup", "uid", "gid", "nsecs", "elapsed", "numaid", "cpu", "curtask",
	"rand", "ctx", "comm", "kstack", "ustack", "retval", "func", "probe", "username",
	"args", "cpid",
};
static const char *const bison_keywords[] = {
	"if", "else", "unroll", "while", "return", "continue", "break", "sizeof", "offsetof",
	"struct", "union", "enum",
};

static bool word_in(const Token *t, const char *const *words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(words[i]) == (size_t)t->len && !strncmp(words[i], t->text, (size_t)t->len))
			return true;
	return false;
}

static bool is_argn(const Token *t)
{
	int skip = t->len > 4 && !strncmp(t->text, "sarg", 4) ? 4
		   : t->len > 3 && !strncmp(t->text, "arg", 3) ? 3 : 0;
	if (!skip)
		return false;
	for (int i = skip; i < t->len; i++)
		if (t->text[i] < '0' || t->text[i] > '9')
			return false;
	return true;
}

void tok_bison_name(const Token *t, char *buf, size_t size)
{
	const char *kind = NULL;
	switch (t->kind) {
	case T_EOF: kind = "end of file"; break;
	case T_INT: kind = "integer"; break;
	case T_STR: kind = "string"; break;
	case T_VAR: kind = "variable"; break;
	case T_MAP: kind = "map"; break;
	case T_POSPARAM: kind = "positional parameter"; break;
	case T_POSCOUNT: kind = "positional parameter count"; break;
	case T_IDENT:
		if (word_in(t, bison_builtins, sizeof(bison_builtins) / sizeof(*bison_builtins)) ||
		    is_argn(t))
			kind = "builtin";
		else if (!word_in(t, bison_keywords, sizeof(bison_keywords) / sizeof(*bison_keywords)))
			kind = "identifier";
		break;
	default: break;
	}
	if (kind)
		snprintf(buf, size, "%s", kind);
	else if (t->len == 1 && t->text[0] == ',') /* bison keeps quotes around "," */
		snprintf(buf, size, "\",\"");
	else
		snprintf(buf, size, "%.*s", t->len > 24 ? 24 : t->len, t->text);
}
