/* The tokenizer of the C-declaration parser (cdecl.c): tokens of C
 * definitions and #include/#define lines, and the errors they report. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdecl_int.h"

/* ---- errors ---- */

bool cd_err(CP *p, Loc at, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->file)
		return error_at(p->err, p->inc, "%s:%d:%d: %s", p->file, at.line, at.col, msg);
	at.file = p->src_file;
	return error_at(p->err, at, "%s", msg);
}

/* ---- lexing ---- */

char cd_ch(CP *p, int k)
{
	for (int i = 0; i < k; i++)
		if (!p->s[p->pos + (size_t)i])
			return 0;
	return p->s[p->pos + (size_t)k];
}

void cd_adv(CP *p, int n)
{
	for (int i = 0; i < n && p->s[p->pos]; i++) {
		if (p->s[p->pos] == '\n') {
			p->line++;
			p->col = 1;
			p->bol = true;
		} else {
			p->col++;
		}
		p->pos++;
	}
}

static bool cd_skip_space(CP *p)
{
	for (;;) {
		char c = cd_ch(p, 0);
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
			cd_adv(p, 1);
		} else if (c == '\\' && cd_ch(p, 1) == '\n') {
			cd_adv(p, 2);
		} else if (c == '/' && cd_ch(p, 1) == '/') {
			while (cd_ch(p, 0) && cd_ch(p, 0) != '\n')
				cd_adv(p, 1);
		} else if (c == '/' && cd_ch(p, 1) == '*') {
			Loc at = {p->line, p->col, 2};
			cd_adv(p, 2);
			while (cd_ch(p, 0) && !(cd_ch(p, 0) == '*' && cd_ch(p, 1) == '/'))
				cd_adv(p, 1);
			if (!cd_ch(p, 0))
				return cd_err(p, at, "unterminated comment");
			cd_adv(p, 2);
		} else {
			return true;
		}
	}
}

bool cd_next(CP *p)
{
	p->bol = false;
	if (!cd_skip_space(p))
		return false;
	p->ts = p->s + p->pos;
	p->tloc = (Loc){p->line, p->col, 1};
	char c = cd_ch(p, 0);
	if (!c) {
		p->tk = CT_EOF;
		p->tl = 0;
		return true;
	}
	if (isalpha((unsigned char)c) || c == '_') {
		int n = 0;
		while (isalnum((unsigned char)cd_ch(p, n)) || cd_ch(p, n) == '_')
			n++;
		p->tk = CT_IDENT;
		p->tl = n;
	} else if (isdigit((unsigned char)c)) {
		char *end;
		errno = 0;
		p->num = strtoull(p->ts, &end, 0);
		int n = (int)(end - p->ts);
		while (cd_ch(p, n) == 'u' || cd_ch(p, n) == 'U' || cd_ch(p, n) == 'l' || cd_ch(p, n) == 'L')
			n++;
		if (isalnum((unsigned char)cd_ch(p, n)) || errno)
			return cd_err(p, p->tloc, "bad number");
		p->tk = CT_NUM;
		p->tl = n;
	} else if ((c == '&' || c == '|' || c == '=') && cd_ch(p, 1) == c) {
		p->tk = CT_PUNCT; /* && || == (in #if) */
		p->tl = 2;
	} else if ((c == '!' || c == '<' || c == '>') && cd_ch(p, 1) == '=') {
		p->tk = CT_PUNCT;
		p->tl = 2;
	} else if (c == '"' || c == '<') {
		/* only meaningful after #include; elsewhere '<' is an operator */
		p->tk = CT_PUNCT;
		p->tl = (c == '<' && cd_ch(p, 1) == '<') ? 2 : 1;
		if (c == '"') {
			int n = 1;
			while (cd_ch(p, n) && cd_ch(p, n) != '"' && cd_ch(p, n) != '\n')
				n++;
			if (cd_ch(p, n) != '"')
				return cd_err(p, p->tloc, "unterminated string");
			p->tk = CT_STR;
			p->tl = n + 1;
		}
	} else if (c == '#') {
		p->tk = CT_HASH;
		p->tl = 1;
	} else if ((c == '>' && cd_ch(p, 1) == '>') || (c == '.' && cd_ch(p, 1) == '.')) {
		p->tk = CT_PUNCT;
		p->tl = c == '.' && cd_ch(p, 2) == '.' ? 3 : 2;
	} else if (strchr("{}[]();,*:=-+~!|&^/%>.?", c)) {
		p->tk = CT_PUNCT;
		p->tl = 1;
	} else {
		return cd_err(p, p->tloc, "unexpected character '%c' in a C definition", c);
	}
	p->tloc.len = p->tl;
	cd_adv(p, p->tl);
	return true;
}

bool cd_is(const CP *p, const char *w)
{
	return (p->tk == CT_IDENT || p->tk == CT_PUNCT) && (int)strlen(w) == p->tl &&
	       !strncmp(p->ts, w, (size_t)p->tl);
}

const char *cd_tokdesc(const CP *p, char *buf, size_t n)
{
	if (p->tk == CT_EOF)
		return "end of input";
	snprintf(buf, n, "'%.*s'", p->tl > 30 ? 30 : p->tl, p->ts);
	return buf;
}

bool cd_expect(CP *p, const char *w, const char *what)
{
	if (!cd_is(p, w)) {
		char b[48];
		return cd_err(p, p->tloc, "expected %s, found %s", what, cd_tokdesc(p, b, sizeof(b)));
	}
	return cd_next(p);
}

char *cd_tokdup(CP *p)
{
	return arena_strndup(p->d->arena, p->ts, (size_t)p->tl);
}
