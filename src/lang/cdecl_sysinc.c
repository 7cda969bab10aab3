/* <system> headers of C definitions (cdecl_pp.c): bpftrace hands them to
 * clang; sonde takes from them what a script can use without a C compiler,
 * their object-like #define constants (`#include <sys/socket.h>` then
 * AF_INET).  A header and the headers it includes are scanned line by line
 * for `#define NAME text` and for enumerators (`NAME = value,` inside an
 * `enum {`); the text is evaluated when a script names the
 * macro (cdecl.c), so a macro defined through another one, or through an
 * enumerator of the kernel, resolves then.  Conditionals are not evaluated
 * here (glibc's need a C compiler's predefined macros): the first
 * definition of a name wins.  Types come from the kernel's BTF instead. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cdecl_int.h"

#if defined(__x86_64__)
#define KERNEL_ARCH "x86"
#elif defined(__aarch64__)
#define KERNEL_ARCH "arm64"
#else
#define KERNEL_ARCH "unknown"
#endif

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

/* The kernel's headers, where bpftrace 0.17 finds them: BPFTRACE_KERNEL_SOURCE
 * (and BPFTRACE_KERNEL_BUILD for generated headers), else the running
 * kernel's /lib/modules/RELEASE/source and build (one stands for the other
 * when only one exists).  Their include path (the kernel Makefile's
 * LINUXINCLUDE and USERINCLUDE) comes before the system's, so that
 * `#include <linux/sched.h>` finds the kernel's own header and its
 * constants (TASK_RUNNING), not the UAPI one. */
static bool kernel_src_obj(char *src, char *obj, size_t n)
{
	const char *env = getenv("BPFTRACE_KERNEL_SOURCE");
	if (env) {
		const char *build = getenv("BPFTRACE_KERNEL_BUILD");
		snprintf(src, n, "%s", env);
		snprintf(obj, n, "%s", build ? build : env);
		return true;
	}
	struct utsname u;
	if (uname(&u) != 0)
		return false;
	snprintf(src, n, "/lib/modules/%s/source", u.release);
	snprintf(obj, n, "/lib/modules/%s/build", u.release);
	bool has_src = is_dir(src), has_obj = is_dir(obj);
	if (!has_src && !has_obj)
		return false;
	if (!has_src)
		snprintf(src, n, "%s", obj);
	else if (!has_obj)
		snprintf(obj, n, "%s", src);
	return true;
}

void cdefs_find_kernel_headers(CDefs *d)
{
	static const struct {
		bool obj;
		const char *sub;
	} dirs[] = {
		{false, "arch/" KERNEL_ARCH "/include"},
		{true, "arch/" KERNEL_ARCH "/include/generated"},
		{false, "include"},
		{true, "include"},
		{false, "arch/" KERNEL_ARCH "/include/uapi"},
		{true, "arch/" KERNEL_ARCH "/include/generated/uapi"},
		{false, "include/uapi"},
		{true, "include/generated/uapi"},
	};
	char src[PATH_MAX], obj[PATH_MAX], path[PATH_MAX + 64];
	if (!kernel_src_obj(src, obj, sizeof(src)))
		return;
	int n = (int)(sizeof(dirs) / sizeof(dirs[0]));
	d->kernel_dirs = arena_alloc(d->arena, sizeof(char *) * (size_t)(n + 1));
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dirs[i].obj ? obj : src, dirs[i].sub);
		d->kernel_dirs[i] = arena_strdup(d->arena, path);
	}
	d->kernel_dirs[n] = NULL;
	snprintf(path, sizeof(path), "%s/include/linux/kconfig.h", src);
	if (access(path, R_OK) != 0)
		d->kconfig_missing = arena_strdup(d->arena, path);
}

static bool find_in(const char *const *dirs, const char *name, char *path, size_t n)
{
	for (int i = 0; dirs && dirs[i]; i++) {
		snprintf(path, n, "%s/%s", dirs[i], name);
		if (access(path, R_OK) == 0)
			return true;
	}
	return false;
}

bool cd_system_header(CDefs *d, const char *name, char *path, size_t n)
{
	if (find_in(d->kernel_dirs, name, path, n))
		return true;
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
	if (cd_system_header(d, s + 1, path, sizeof(path)))
		cd_scan_macros(d, path, depth + 1);
}

/* Enumerators of a header's enums, kept as text too ("(PREV)+1" when no
 * value is written): glibc defines some constants only so (SOCK_NONBLOCK,
 * with a `#define SOCK_NONBLOCK SOCK_NONBLOCK` for #ifdef) */
typedef struct EnumScan {
	int state;        /* 0 outside, 1 after `enum` waiting for '{', 2 inside */
	const char *prev; /* the previous enumerator's value text */
} EnumScan;

static void scan_enumerator(CDefs *d, EnumScan *es, char *s)
{
	s = skip_blank(s);
	char *name = s;
	while (is_ident_char(*s))
		s++;
	if (s == name || (*name >= '0' && *name <= '9'))
		return;
	char *nm = arena_strndup(d->arena, name, (size_t)(s - name));
	s = skip_blank(s);
	const char *text;
	if (*s == '=') {
		char *v = skip_blank(s + 1);
		size_t n = strlen(v);
		while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
			n--;
		text = arena_strndup(d->arena, v, n);
	} else {
		StrBuf b = {0};
		sb_printf(&b, es->prev ? "(%s)+1" : "0", es->prev);
		text = arena_strdup(d->arena, b.s);
		sb_free(&b);
	}
	es->prev = text;
	if (!cdefs_defined(d, nm))
		cd_add_macro(d, nm, text);
}

static void scan_enum_line(CDefs *d, EnumScan *es, char *line)
{
	char *s = skip_blank(line);
	if (es->state == 0) {
		if (strncmp(s, "enum", 4) || is_ident_char(s[4]) || strchr(s, ';'))
			return;
		es->state = 1;
		es->prev = NULL;
	}
	if (es->state == 1) {
		char *brace = strchr(s, '{');
		if (!brace)
			return;
		es->state = 2;
		s = brace + 1;
	}
	char *end = strchr(s, '}');
	if (end)
		*end = 0;
	for (char *piece = s, *comma; piece; piece = comma) {
		comma = strchr(piece, ',');
		if (comma)
			*comma++ = 0;
		scan_enumerator(d, es, piece);
	}
	if (end)
		es->state = 0;
}

void cd_scan_macros(CDefs *d, const char *path, int depth)
{
	if (depth > 32 || seen(d, path))
		return;
	char *text = read_file_all(path, NULL);
	if (!text)
		return;
	strip_comments(text);
	EnumScan es = {0};
	for (char *line = text, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		char *s = skip_blank(line);
		if (*s != '#') {
			scan_enum_line(d, &es, s);
			continue;
		}
		s = skip_blank(s + 1);
		if (!strncmp(s, "define", 6) && (s[6] == ' ' || s[6] == '\t'))
			scan_define(d, skip_blank(s + 6));
		else if (!strncmp(s, "include", 7) && (s[7] == ' ' || s[7] == '\t' || s[7] == '<' ||
							 s[7] == '"'))
			scan_include(d, path, skip_blank(s + 7), depth);
	}
	free(text);
}
