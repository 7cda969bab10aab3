/* Small helpers shared by every module: checked allocation, an arena for
 * AST-lifetime objects, growable buffers and a string builder. */
#pragma once
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Arena: everything the front end allocates lives until arena_free(). */
typedef struct ArenaBlock ArenaBlock;
typedef struct Arena {
	ArenaBlock *head;
} Arena;
void *arena_alloc(Arena *a, size_t n); /* zeroed */
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
/* An arena array of n elements with room for one more: v itself while its
 * capacity (4, 8, 16, ...) lasts, else a copy twice as big. */
void *arena_grow(Arena *a, void *v, int n, size_t elsz);
void arena_free(Arena *a);

/* Growable array of T: `VEC(int) v = {0}; vec_push(&v, 3);` */
#define VEC(T)                                                                 \
	struct {                                                               \
		T *v;                                                          \
		int n, cap;                                                    \
	}
#define vec_push(vec, x)                                                       \
	do {                                                                   \
		if ((vec)->n == (vec)->cap) {                                  \
			(vec)->cap = (vec)->cap ? (vec)->cap * 2 : 8;          \
			(vec)->v = xrealloc((vec)->v,                          \
					    sizeof(*(vec)->v) * (vec)->cap);   \
		}                                                              \
		(vec)->v[(vec)->n++] = (x);                                    \
	} while (0)
#define vec_free(vec)                                                          \
	do {                                                                   \
		free((vec)->v);                                                \
		(vec)->v = NULL;                                               \
		(vec)->n = (vec)->cap = 0;                                     \
	} while (0)

/* String builder. */
typedef struct StrBuf {
	char *s;
	size_t len, cap;
} StrBuf;
void sb_putc(StrBuf *b, char c);
void sb_puts(StrBuf *b, const char *s);
void sb_putn(StrBuf *b, const char *s, size_t n);
void sb_printf(StrBuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_vprintf(StrBuf *b, const char *fmt, va_list ap);
void sb_reset(StrBuf *b);
void sb_free(StrBuf *b);

/* Shell-style glob with '*' and '?' (probe wildcards). */
/* handler for each signal of sigs (0-terminated), with SA_RESTART: a write
 * blocked on a slow pipe must not fail with EINTR (stdio would drop the
 * buffered output); an epoll_wait is never restarted, so it still returns.
 * The signals are unblocked too: a mask inherited from the caller (a CI
 * runner, a service manager) would otherwise keep them pending for ever,
 * and sonde would write to a closed pipe (EPIPE) or ignore SIGHUP */
void handle_signals(void (*handler)(int), const int *sigs);

bool glob_match(const char *pat, const char *s);
bool has_wildcard(const char *s);
/* s is an fnmatch(3) pattern: it has '*', '?' or '[' */
bool is_glob(const char *s);
/* s is one of list's strings (list ends with NULL) */
bool str_in_list(const char *s, const char *const *list);
/* c can be part of a C identifier: a letter, a digit or '_' */
bool is_ident_char(char c);

/* n rounded up to a multiple of 8 (a per-CPU value's slot, a map key's) */
static inline size_t round8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* The file name of a path: what follows its last '/'. */
const char *path_basename(const char *path);
/* path names a directory (following symbolic links) */
bool is_dir(const char *path);

char *read_file_all(const char *path, size_t *len_out); /* NULL + errno on failure */
