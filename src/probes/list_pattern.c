/* The pattern of `-l PATTERN`, checked as bpftrace 0.17 checks it: it parses
 * the pattern as a program made of attach points only, so a character
 * that cannot be in an attach point is its parser's error (same words,
 * same place), and whitespace between attach-point pieces joins them.
 *
 * bpftrace's locations here start after the last whitespace before the
 * culprit (its lexer only moves a location's start on whitespace) and end
 * after the culprit token. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../util/util.h"
#include "list_pattern.h"

typedef struct Scan {
	const char *p;
	size_t i, start; /* position, and where the current location starts */
	StrBuf out;
	Error *err;
} Scan;

static bool scan_fail(Scan *s, size_t end, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool scan_fail(Scan *s, size_t end, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	error_vat(s->err, (Loc){1, (int)s->start + 1, (int)(end - s->start)}, fmt, ap);
	va_end(ap);
	return false;
}

/* characters of attach-point text (names, paths, wildcards, offsets); '?'
 * is sonde's one-character wildcard (bpftrace's parser refuses it) */
static bool ap_char(char c)
{
	return isalnum((unsigned char)c) || strchr("_-./+*[]:,#?", c);
}

/* bpftrace's operator tokens, longest first: "unexpected TOKEN" */
static size_t filter_operator_len(const char *p)
{
	static const char *const two[] = {"==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "->"};
	for (size_t k = 0; k < sizeof(two) / sizeof(two[0]); k++)
		if (!strncmp(p, two[k], 2))
			return 2;
	return strchr("()!%&;<=>^|}~", *p) ? 1 : 0;
}

static size_t ident_end(const char *p, size_t i)
{
	while (isalnum((unsigned char)p[i]) || p[i] == '_')
		i++;
	return i;
}

/* after a '{' or a predicate: bpftrace's listing has no probe bodies */
static bool body(Scan *s)
{
	const char *p = s->p;
	size_t n = strlen(p), e = n;
	while (e > s->i && isspace((unsigned char)p[e - 1]))
		e--;
	if (p[s->i] == '/') { /* a predicate, then a body or the end */
		const char *close = strchr(p + s->i + 1, '/');
		if (!close || !strchr(close, '{'))
			return scan_fail(s, e, "syntax error, unexpected end of file");
		s->i = (size_t)(strchr(close, '{') - p);
	}
	if (e > 0 && p[e - 1] == '}') {
		s->start = 0;
		return scan_fail(s, n, "unexpected listing query format");
	}
	return scan_fail(s, e, "syntax error, unexpected end of file, expecting }");
}

static bool token(Scan *s)
{
	const char *p = s->p;
	char c = p[s->i];
	if (ap_char(c) && !(c == '/' && s->i == s->start && s->out.len)) {
		sb_putc(&s->out, c);
		s->i++;
		return true;
	}
	if (c == '/' || c == '{')
		return body(s);
	if (c == '"') { /* a string's text joins the attach point */
		const char *close = strchr(p + s->i + 1, '"');
		if (!close)
			return scan_fail(s, strlen(p), "unterminated string");
		sb_putn(&s->out, p + s->i + 1, (size_t)(close - p - s->i - 1));
		s->i = (size_t)(close - p) + 1;
		return true;
	}
	if ((c == '$' || c == '@') && (isalpha((unsigned char)p[s->i + 1]) || p[s->i + 1] == '_' ||
				       c == '@'))
		return scan_fail(s, ident_end(p, s->i + 1), "syntax error, unexpected %s, expecting {",
			    c == '@' ? "map" : "variable");
	size_t op = filter_operator_len(p + s->i);
	if (op) {
		char tok[3] = {0};
		memcpy(tok, p + s->i, op);
		return scan_fail(s, s->i + op, "syntax error, unexpected %s, expecting {", tok);
	}
	return scan_fail(s, s->i + 1, "invalid character '%c'", c);
}

char *list_pattern_parse(const char *pattern, Error *err)
{
	Scan s = {pattern, 0, 0, {0}, err};
	while (pattern[s.i]) {
		if (isspace((unsigned char)pattern[s.i])) {
			s.start = ++s.i;
			continue;
		}
		if (!token(&s)) {
			sb_free(&s.out);
			return NULL;
		}
	}
	return s.out.s ? s.out.s : xstrdup("");
}

/* "struct", "union" or "enum" as a word at p */
static bool c_definition_keyword(const char *p)
{
	static const char *const kw[] = {"struct", "union", "enum"};
	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++) {
		size_t n = strlen(kw[i]);
		if (!strncmp(p, kw[i], n) && !isalnum((unsigned char)p[n]) && p[n] != '_')
			return true;
	}
	return false;
}

ListPatternKind list_pattern_kind(const char *pattern)
{
	const char *p = pattern;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return LIST_NO_ATTACH_POINTS;
	if (!c_definition_keyword(p))
		return LIST_PROBES;
	/* without leading blanks or a ':', "struct x" lists types (list_types.c)
	 * and "struct{" finds nothing, quietly */
	return p != pattern || strchr(p, ':') ? LIST_NO_ATTACH_POINTS : LIST_NOTHING;
}

void list_pattern_print_no_attach_points(FILE *out, const char *pattern)
{
	if (!*pattern) {
		fprintf(out, "ERROR: No attach points for probe\n");
		return;
	}
	fprintf(out, "stdin:1:1-1: ERROR: No attach points for probe\n");
	size_t n = strcspn(pattern, "\n");
	if (!n)
		return;
	for (size_t i = 0; i < n; i++) /* tabs as 4 spaces, as in bpftrace's messages */
		fputs(pattern[i] == '\t' ? "    " : (char[2]){pattern[i], 0}, out);
	fputs("\n\n", out);
}
