/* <system> headers of C definitions (cdecl_pp.c): bpftrace hands them to
 * clang; sonde takes from them what a script can use without a C compiler,
 * their object-like #define constants (`#include <sys/socket.h>` then
 * AF_INET).  A header and the headers it includes are scanned line by line
 * for `#define NAME text`; the text is evaluated when a script names the
 * macro (cdecl.c), so a macro defined through another one, or through an
 * enumerator of the kernel, resolves then.  Conditionals are not evaluated
 * here (glibc's need a C compiler's predefined macros): the first
 * definition of a name wins.  Types come from the kernel's BTF instead. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cdecl_int.h"

const char *const cdefs_system_dirs[] = {
	"/usr/local/include",
#if defined(__x86_64__)
	"/usr/include/x86_64-linux-gnu",
#elif defined(__aarch64__)
	"/usr/include/aarch64-linux-gnu",
#endif
	"/usr/include",
	NULL,
};

bool cd_system_header(const char *name, char *path, size_t n)
{
	for (int i = 0; cdefs_system_dirs[i]; i++) {
		snprintf(path, n, "%s/%s", cdefs_system_dirs[i], name);
		if (access(path, R_OK) == 0)
			return true;
	}
	return false;
}

static bool seen(CDefs *d, const char *path)
{
	for (int i = 0; i < d->sys_seen.n; i++)
		if (!strcmp(d->sys_seen.v[i], path))
			return true;
	vec_push(&d->sys_seen, arena_strdup(d->arena, path));
	return false;
}

/* The logical lines of a header: continuations joined, comments blanked
 * (a block comment may span lines). */
static void strip_comments(char *s)
{
	for (char *c = s; *c; c++) {
		if (c[0] == '\\' && c[1] == '\n') {
			c[0] = c[1] = ' ';
		} else if (c[0] == '/' && c[1] == '/') {
			while (*c && *c != '\n')
				*c++ = ' ';
			if (!*c)
				break;
		} else if (c[0] == '/' && c[1] == '*') {
			for (; *c && !(c[0] == '*' && c[1] == '/'); c++)
				if (*c != '\n')
					*c = ' ';
			if (!*c)
				break;
			c[0] = c[1] = ' ';
			c++;
		} else if (*c == '"') { /* a string may hold comment markers */
			for (c++; *c && *c != '"' && *c != '\n'; c++)
				if (*c == '\\' && c[1])
					c++;
			if (!*c)
				break;
		}
	}
}

static char *skip_blank(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static void scan_define(CDefs *d, char *s)
{
	char *name = s;
	while (*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
	       (*s >= '0' && *s <= '9'))
		s++;
	if (s == name || *s == '(') /* function-like macros cannot be constants */
		return;
	char *end = s;
	s = skip_blank(s);
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	char *nm = arena_strndup(d->arena, name, (size_t)(end - name));
	if (!cdefs_defined(d, nm))
		cd_add_macro(d, nm, arena_strndup(d->arena, s, n));
}

/* #include <x> or "x" inside a system header: "x" beside the header first */
static void scan_include(CDefs *d, const char *from, char *s, int depth)
{
	char close = *s == '<' ? '>' : *s == '"' ? '"' : 0;
	char *end = close ? strchr(s + 1, close) : NULL;
	if (!end)
		return;
	*end = 0;
	char path[PATH_MAX];
	const char *slash = strrchr(from, '/');
	if (close == '"' && slash) {
		snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - from), from, s + 1);
		if (access(path, R_OK) == 0) {
			cd_scan_macros(d, path, depth + 1);
			return;
		}
	}
	/* a header that is missing here sits under a conditional not taken */
	if (cd_system_header(s + 1, path, sizeof(path)))
		cd_scan_macros(d, path, depth + 1);
}

void cd_scan_macros(CDefs *d, const char *path, int depth)
{
	if (depth > 32 || seen(d, path))
		return;
	char *text = read_file_all(path, NULL);
	if (!text)
		return;
	strip_comments(text);
	for (char *line = text, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		char *s = skip_blank(line);
		if (*s != '#')
			continue;
		s = skip_blank(s + 1);
		if (!strncmp(s, "define", 6) && (s[6] == ' ' || s[6] == '\t'))
			scan_define(d, skip_blank(s + 6));
		else if (!strncmp(s, "include", 7) && (s[7] == ' ' || s[7] == '\t' || s[7] == '<' ||
							 s[7] == '"'))
			scan_include(d, path, skip_blank(s + 7), depth);
	}
	free(text);
}
