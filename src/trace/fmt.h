/* Fast appends to a StrBuf for the trace printer's hot paths: integers,
 * hex and literals without the printf family (one line is formatted per
 * traced call, a million times a second). */
#pragma once
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../util/util.h"

/* room for n more bytes (and the NUL); returns the write position */
static inline char *fb_room(StrBuf *b, size_t n)
{
	if (__builtin_expect(b->len + n + 1 > b->cap, 0)) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n + 1)
			cap *= 2;
		b->s = xrealloc(b->s, cap);
		b->cap = cap;
	}
	return b->s + b->len;
}

static inline void fb_done(StrBuf *b, char *end)
{
	b->len = (size_t)(end - b->s);
	*end = 0;
}

static inline void fb_putn(StrBuf *b, const char *s, size_t n)
{
	char *w = fb_room(b, n);
	memcpy(w, s, n);
	fb_done(b, w + n);
}

#define fb_lit(b, s) fb_putn((b), (s), sizeof(s) - 1)

static inline void fb_puts(StrBuf *b, const char *s)
{
	fb_putn(b, s, strlen(s));
}

static inline void fb_putc(StrBuf *b, char c)
{
	char *w = fb_room(b, 1);
	*w++ = c;
	fb_done(b, w);
}

static inline char *fb_w_u64(char *w, uint64_t v)
{
	char t[20];
	int n = 0;
	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*w++ = t[--n];
	return w;
}

/* %llu */
static inline void fb_u64(StrBuf *b, uint64_t v)
{
	fb_done(b, fb_w_u64(fb_room(b, 20), v));
}

/* %lld */
static inline void fb_i64(StrBuf *b, int64_t v)
{
	char *w = fb_room(b, 21);
	if (v < 0) {
		*w++ = '-';
		w = fb_w_u64(w, (uint64_t)0 - (uint64_t)v);
	} else {
		w = fb_w_u64(w, (uint64_t)v);
	}
	fb_done(b, w);
}

/* %#llx: 0x-prefixed lower-case hex, "0" for 0 */
static inline void fb_hex(StrBuf *b, uint64_t v)
{
	char *w = fb_room(b, 18);
	if (!v) {
		*w++ = '0';
	} else {
		int n = (67 - __builtin_clzll(v)) / 4;
		*w++ = '0';
		*w++ = 'x';
		for (int i = n - 1; i >= 0; i--)
			*w++ = "0123456789abcdef"[(v >> (4 * i)) & 15];
	}
	fb_done(b, w);
}
