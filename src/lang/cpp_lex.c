/* Preprocessing tokens of a file (cpp.h): identifiers (with '$', as gcc
 * allows: D's $target and pid$target stay whole), pp-numbers, string and
 * character literals, punctuators; comments and backslash-newlines are
 * white space; each token knows its line, column and whether white space
 * or a line start came before it. */
#include <ctype.h>
#include <string.h>

#include "cpp_int.h"

static bool ident_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_' || ch == '$';
}

static int quoted_len(const char *s)
{
	int i = 1;
	while (s[i] && s[i] != s[0] && s[i] != '\n')
		i += s[i] == '\\' && s[i + 1] && s[i + 1] != '\n' ? 2 : 1;
	return s[i] == s[0] ? i + 1 : i; /* unterminated: to the line's end, as cpp */
}

static int pp_number_len(const char *s)
{
	int i = 1;
	for (;;) {
		if ((s[i] == '+' || s[i] == '-') && strchr("eEpP", s[i - 1]))
			i++;
		else if (ident_char(s[i]) || s[i] == '.')
			i++;
		else
			return i;
	}
}

int cpp_lex_one(const char *s, PTKind *kind)
{
	static const char *const puncts[] = {
		"%:%:", "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
		"&&", "||", "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##", "<:", ":>",
		"<%", "%>", "%:",
	};
	if (!*s)
		return *kind = PT_EOF, 0;
	if (ident_char(*s) && !isdigit((unsigned char)*s)) {
		int i = 1;
		while (ident_char(s[i]))
			i++;
		/* L'x', u"x", U'x', u8"x": one literal (glibc's bits/wchar.h tests L'\0') */
		bool prefix = (i == 1 && (*s == 'L' || *s == 'u' || *s == 'U')) || (i == 2 && !strncmp(s, "u8", 2));
		if (prefix && (s[i] == '"' || s[i] == '\''))
			return *kind = s[i] == '"' ? PT_STR : PT_CHAR, i + quoted_len(s + i);
		return *kind = PT_IDENT, i;
	}
	if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1])))
		return *kind = PT_NUM, pp_number_len(s);
	if (*s == '"' || *s == '\'')
		return *kind = *s == '"' ? PT_STR : PT_CHAR, quoted_len(s);
	for (size_t i = 0; i < sizeof(puncts) / sizeof(puncts[0]); i++)
		if (!strncmp(s, puncts[i], strlen(puncts[i])))
			return *kind = PT_PUNCT, (int)strlen(puncts[i]);
	*kind = strchr("[](){}.&*+-~!/%<>^|?:;=,#", *s) ? PT_PUNCT : PT_OTHER;
	return 1;
}

bool cpp_is(const PTok *t, const char *s)
{
	return t->kind != PT_EOF && (int)strlen(s) == t->len && !memcmp(t->s, s, (size_t)t->len);
}

PTok *cpp_tok_copy(Cpp *c, const PTok *t)
{
	PTok *n = arena_alloc(c->a, sizeof(*n));
	*n = *t;
	n->next = NULL;
	return n;
}

PTok *cpp_eof(Cpp *c, const PTok *at)
{
	PTok *t = cpp_tok_copy(c, at);
	t->kind = PT_EOF;
	t->len = 0;
	t->bol = true;
	return t;
}

char *cpp_tok_str(Cpp *c, const PTok *t)
{
	return arena_strndup(c->a, t->s, (size_t)t->len);
}

typedef struct Lex {
	const char *p, *line_start;
	int line;
} Lex;

/* white space and comments before the next token; true if any */
static bool skip_space(Cpp *c, Lex *lx, bool *newline, const char *file)
{
	bool any = false;
	for (;;) {
		const char *p = lx->p;
		if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v') {
			lx->p++;
		} else if (p[0] == '\\' && (p[1] == '\n' || (p[1] == '\r' && p[2] == '\n'))) {
			lx->p += p[1] == '\n' ? 2 : 3;
			lx->line++;
			lx->line_start = lx->p;
		} else if (*p == '\n') {
			lx->p++;
			lx->line++;
			lx->line_start = lx->p;
			*newline = true;
			any = false;
			continue;
		} else if (p[0] == '/' && p[1] == '/') {
			while (*lx->p && *lx->p != '\n')
				lx->p++;
		} else if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			if (!e) {
				PTok at = {.file = file, .line = lx->line, .col = (int)(p - lx->line_start) + 1};
				cpp_fail(c, &at, false, "unterminated comment");
			}
			for (; p < e; p++)
				if (*p == '\n') {
					lx->line++;
					lx->line_start = p + 1;
				}
			lx->p = e + 2;
		} else {
			return any;
		}
		any = true;
	}
}

PTok *cpp_lex(Cpp *c, const char *text, const char *file)
{
	PTok head = {0}, *tail = &head;
	Lex lx = {text, text, 1};
	bool newline = true;
	for (;;) {
		bool space = skip_space(c, &lx, &newline, file);
		PTok *t = arena_alloc(c->a, sizeof(*t));
		t->s = lx.p;
		t->len = cpp_lex_one(lx.p, &t->kind);
		t->bol = newline;
		t->space = space;
		t->file = file;
		t->line = lx.line;
		t->col = (int)(lx.p - lx.line_start) + 1;
		t->lead = newline ? t->col - 1 : -1; /* indentation, kept in the output as cpp does */
		newline = false;
		tail = tail->next = t;
		if (t->kind == PT_EOF)
			return head.next;
		lx.p += t->len;
	}
}
