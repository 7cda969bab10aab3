#include "util.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void oom(void)
{
	fputs("sonde: out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);
	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

struct ArenaBlock {
	ArenaBlock *next;
	size_t used, cap;
	_Alignas(16) unsigned char data[];
};

void *arena_alloc(Arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	ArenaBlock *b = a->head;
	if (!b || b->used + n > b->cap) {
		size_t cap = n > 65536 ? n : 65536;
		b = xmalloc(sizeof(*b) + cap);
		b->next = a->head;
		b->used = 0;
		b->cap = cap;
		a->head = b;
	}
	void *p = b->data + b->used;
	b->used += n;
	memset(p, 0, n);
	return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

void *arena_grow(Arena *a, void *v, int n, size_t elsz)
{
	if (n != 0 && (n < 4 || (n & (n - 1)) != 0))
		return v;
	size_t cap = n ? (size_t)n * 2 : 4;
	void *nv = arena_alloc(a, cap * elsz);
	if (n)
		memcpy(nv, v, (size_t)n * elsz);
	return nv;
}

char *arena_strdup(Arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

void arena_free(Arena *a)
{
	ArenaBlock *b = a->head;
	while (b) {
		ArenaBlock *next = b->next;
		free(b);
		b = next;
	}
	a->head = NULL;
}

static void sb_grow(StrBuf *b, size_t extra)
{
	if (b->len + extra + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < b->len + extra + 1)
		cap *= 2;
	b->s = xrealloc(b->s, cap);
	b->cap = cap;
}

void sb_putn(StrBuf *b, const char *s, size_t n)
{
	sb_grow(b, n);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

void sb_putc(StrBuf *b, char c)
{
	sb_putn(b, &c, 1);
}

void sb_puts(StrBuf *b, const char *s)
{
	sb_putn(b, s, strlen(s));
}

void sb_vprintf(StrBuf *b, const char *fmt, va_list ap)
{
	/* format straight into the room left, and only when the text did not
	 * fit grow and format again: most calls format once */
	va_list ap2;
	va_copy(ap2, ap);
	size_t room = b->cap > b->len ? b->cap - b->len : 0;
	int n = vsnprintf(room ? b->s + b->len : NULL, room, fmt, ap2);
	va_end(ap2);
	if (n < 0) {
		if (b->s)
			b->s[b->len] = 0;
		return;
	}
	if ((size_t)n >= room) {
		sb_grow(b, (size_t)n);
		vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	}
	b->len += (size_t)n;
}

void sb_printf(StrBuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(b, fmt, ap);
	va_end(ap);
}

void sb_reset(StrBuf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = 0;
}

void sb_free(StrBuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

bool glob_match(const char *p, const char *s)
{
	const char *star = NULL, *ss = NULL;
	while (*s) {
		if (*p == '?' || *p == *s) {
			p++;
			s++;
		} else if (*p == '*') {
			star = p++;
			ss = s;
		} else if (star) {
			p = star + 1;
			s = ++ss;
		} else {
			return false;
		}
	}
	while (*p == '*')
		p++;
	return !*p;
}

bool has_wildcard(const char *s)
{
	return strpbrk(s, "*?") != NULL;
}

bool is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

bool str_in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

bool is_ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

const char *path_basename(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *read_file_all(const char *path, size_t *len_out)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f)
		return NULL;
	StrBuf b = {0};
	char tmp[65536];
	size_t n;
	while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0)
		sb_putn(&b, tmp, n);
	int err = ferror(f) ? EIO : 0;
	if (f != stdin)
		fclose(f);
	if (err) {
		sb_free(&b);
		errno = err;
		return NULL;
	}
	if (!b.s)
		sb_putn(&b, "", 0);
	if (len_out)
		*len_out = b.len;
	return b.s;
}

void handle_signals(void (*handler)(int), const int *sigs)
{
	struct sigaction sa = {.sa_handler = handler};
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigset_t set;
	sigemptyset(&set);
	for (; *sigs; sigs++) {
		sigaction(*sigs, &sa, NULL);
		sigaddset(&set, *sigs);
	}
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}
