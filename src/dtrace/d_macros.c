/* D's macro variables and arguments, replaced in the program text before it
 * is parsed, as DTrace's lexer does: $1..$N (the argument's text: an
 * integer or an identifier), $$N (the argument as a string), $target, $pid,
 * $ppid, $uid, $gid, $euid, $egid, $pgid, $sid, $projid, $taskid. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dtrace.h"

static const char *const arg_undef = "macro argument %s is not defined";

/* the value of a named macro variable, or false if there is none by that name */
static bool macro_var(const DEnv *env, const char *name, size_t n, long long *v)
{
	static const char *const names[] = {
		"target", "pid", "ppid", "uid", "gid", "euid", "egid", "pgid", "sid", "projid", "taskid",
	};
	long long vals[] = {
		env->target, getpid(), getppid(), getuid(), getgid(), geteuid(), getegid(),
		getpgrp(), getsid(0), 0, 0,
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n && !strncmp(names[i], name, n)) {
			*v = vals[i];
			return true;
		}
	return false;
}

static void put_quoted(StrBuf *b, const char *s)
{
	sb_putc(b, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			sb_putc(b, '\\');
		sb_putc(b, *s);
	}
	sb_putc(b, '"');
}

/* $N or $$N at s (s[0] == '$'); returns the bytes consumed, 0 if it is not
 * an argument reference, -1 on error */
static int expand_arg(const DEnv *env, const char *s, StrBuf *b, int line, Error *err)
{
	bool str = s[1] == '$';
	const char *d = s + 1 + str;
	if (*d < '0' || *d > '9')
		return 0;
	char *end;
	long n = strtol(d, &end, 10);
	int len = (int)(end - s);
	if (n >= env->argc) {
		if (!env->defaultargs) {
			char ref[32];
			snprintf(ref, sizeof(ref), "%.*s", len, s);
			error_at(err, (Loc){ line, 1, 1 }, arg_undef, ref);
			return -1;
		}
		sb_puts(b, str ? "\"\"" : "0");
		return len;
	}
	if (str)
		put_quoted(b, env->argv[n]);
	else
		sb_puts(b, env->argv[n]);
	return len;
}

/* a string or character literal starting at s: its length */
static size_t quoted_len_d(const char *s)
{
	size_t i = 1;
	while (s[i] && s[i] != s[0] && s[i] != '\n')
		i += s[i] == '\\' && s[i + 1] ? 2 : 1;
	return s[i] == s[0] ? i + 1 : i;
}

static size_t comment_len(const char *s)
{
	if (s[1] == '/')
		return strcspn(s, "\n");
	const char *e = strstr(s + 2, "*/");
	return e ? (size_t)(e + 2 - s) : strlen(s);
}

/* whether the '$' at s ends a numeric constant ("123$pid"): DTrace's lexer
 * makes a macro a token of its own, so a constant followed by one is two
 * constants in a row, a syntax error at the macro */
static bool glued_to_number(const char *text, const char *s)
{
	const char *w = s;
	while (w > text && (isalnum((unsigned char)w[-1]) || w[-1] == '_'))
		w--;
	return w < s && isdigit((unsigned char)*w);
}

/* the macro reference at s ($name, $N, $$N) as the message quotes it */
static bool glued_error(const char *text, const char *s, int n, int line, Error *err)
{
	const char *bol = s;
	while (bol > text && bol[-1] != '\n')
		bol--;
	return error_at(err, (Loc){ line, (int)(s - bol) + 1, 1 }, "syntax error near \"%.*s\"", n, s);
}

char *d_macro_expand(const char *text, const DEnv *env, Error *err)
{
	StrBuf b = {0};
	int line = 1;
	for (const char *s = text; *s;) {
		size_t skip = 0;
		if (*s == '"' || *s == '\'')
			skip = quoted_len_d(s);
		else if (*s == '/' && (s[1] == '*' || s[1] == '/'))
			skip = comment_len(s);
		if (skip) {
			for (size_t i = 0; i < skip; i++)
				line += s[i] == '\n';
			sb_putn(&b, s, skip);
			s += skip;
			continue;
		}
		if (*s != '$') {
			line += *s == '\n';
			sb_putc(&b, *s++);
			continue;
		}
		int n = expand_arg(env, s, &b, line, err);
		if (n < 0) {
			sb_free(&b);
			return NULL;
		}
		size_t id = strspn(s + 1, "abcdefghijklmnopqrstuvwxyz");
		long long v;
		if (!n && id && macro_var(env, s + 1, id, &v)) {
			char num[32];
			snprintf(num, sizeof(num), "%lld", v);
			sb_puts(&b, num);
			n = (int)id + 1;
		}
		if (!n) {
			sb_putc(&b, *s);
			n = 1;
		} else if (glued_to_number(text, s)) {
			glued_error(text, s, n, line, err);
			sb_free(&b);
			return NULL;
		}
		s += n;
	}
	return b.s ? b.s : xstrdup("");
}
