/* Kernel symbols from /proc/kallsyms: text (t/T/w/W) for addresses to
 * names, text and data (b/B/d/D/r/R) for names to addresses (kaddr()).
 *
 * Loaded once, on first use, and kept for the run (its SymCtx): one big
 * read, then a hand-written pass over the ~150k lines (sscanf per line is
 * several times slower).  Names point into the read buffer. */
#include "ksyms.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util/util.h"
#include "symctx.h"

typedef struct Ksym {
	uint64_t addr;
	const char *name;
} Ksym;

/* what was read, in the run's SymCtx */
typedef struct KsymsCache {
	Ksym *syms; /* text, by address */
	int nsyms;
	Ksym *data; /* data (bss, data, read-only), in file order */
	int ndata;
	bool loaded;
	char *buf; /* the text read: the names point into it */
	const char *buf_end; /* names' "[module]" tails lie before this */
} KsymsCache;

static void ksyms_free(void *cache)
{
	KsymsCache *c = cache;
	free(c->syms);
	free(c->data);
	free(c->buf);
	free(c);
}

enum { SYM_OTHER, SYM_TEXT, SYM_DATA };

static char *read_kallsyms(size_t *len)
{
	int fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	size_t cap = 8 << 20, n = 0;
	char *buf = xmalloc(cap + 1);
	ssize_t r;
	while ((r = read(fd, buf + n, cap - n)) > 0) {
		n += (size_t)r;
		if (n == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
	}
	close(fd);
	buf[n] = 0;
	*len = n;
	return buf;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 32;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* "ADDR TYPE NAME[\t[module]]\n": fills *s, sets *kind (SYM_TEXT for
 * t/T/w/W, SYM_DATA for b/B/d/D/r/R) and returns the start of the next line. */
static char *parse_kallsyms_line(char *p, Ksym *s, int *kind)
{
	uint64_t addr = 0;
	int v;
	for (; (v = hexval(*p)) >= 0; p++)
		addr = addr << 4 | (uint64_t)v;
	char type = p[0] == ' ' ? p[1] : 0;
	*kind = type && strchr("tTwW", type) ? SYM_TEXT : type && strchr("bBdDrR", type) ? SYM_DATA
											   : SYM_OTHER;
	char *name = p[0] && p[1] && p[2] == ' ' ? p + 3 : NULL;
	char *end = strchrnul(p, '\n');
	char *next = *end ? end + 1 : end;
	if (!name || name >= end) {
		*kind = SYM_OTHER;
		return next;
	}
	*end = 0;
	name[strcspn(name, "\t ")] = 0; /* cut "\t[module]" */
	s->addr = addr;
	s->name = name;
	return next;
}

/* By address; at equal addresses keep file order (names point into the
 * buffer in file order), so the first-listed alias is preferred. */
static int cmp_ksym(const void *a, const void *b)
{
	const Ksym *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;
}

static void load_kallsyms(KsymsCache *c)
{
	c->loaded = true;
	size_t len;
	char *buf = read_kallsyms(&len);
	if (!buf)
		return;
	VEC(Ksym) v = {0}, d = {0};
	bool any_addr = false;
	for (char *p = buf; *p;) {
		Ksym s;
		int kind;
		p = parse_kallsyms_line(p, &s, &kind);
		if (kind == SYM_TEXT)
			vec_push(&v, s);
		else if (kind == SYM_DATA)
			vec_push(&d, s);
		any_addr |= kind != SYM_OTHER && s.addr != 0;
	}
	/* kptr_restrict hides addresses (all zero): nothing usable. */
	if (!any_addr) {
		vec_free(&v);
		vec_free(&d);
		free(buf);
		return;
	}
	qsort(v.v, v.n, sizeof(*v.v), cmp_ksym);
	c->buf = buf;
	c->buf_end = buf + len;
	c->syms = v.v;
	c->nsyms = v.n;
	c->data = d.v;
	c->ndata = d.n;
}

/* the run's symbols, read on first use */
static KsymsCache *ksyms(SymCtx *sc)
{
	KsymsCache *c = SYM_CACHE(sc, ksyms, ksyms_free);
	if (!c->loaded)
		load_kallsyms(c);
	return c;
}

const char *ksym_name(SymCtx *sc, uint64_t addr, uint64_t *off)
{
	KsymsCache *c = ksyms(sc);
	const Ksym *syms = c->syms;
	int nsyms = c->nsyms;
	if (!nsyms || addr < syms[0].addr)
		return NULL;
	int lo = 0, hi = nsyms - 1;
	while (lo < hi) { /* last symbol with addr <= target */
		int mid = lo + (hi - lo + 1) / 2;
		if (syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid - 1;
	}
	while (lo > 0 && syms[lo - 1].addr == syms[lo].addr)
		lo--;
	if (off)
		*off = addr - syms[lo].addr;
	return syms[lo].name;
}

/* parse_kallsyms_line cut "name\t[module]" at the tab: the module follows the
 * name's NUL; a name without one is followed by the next line's address */
const char *ksym_module(SymCtx *sc, const char *name, char *buf, size_t len)
{
	const char *m = name + strlen(name) + 1;
	size_t n = m < SYM_CACHE(sc, ksyms, ksyms_free)->buf_end && *m == '[' ? strcspn(m + 1, "]") : 0;
	if (!n)
		return "vmlinux";
	snprintf(buf, len, "%.*s", (int)n, m + 1);
	return buf;
}

/* A linear scan: ~0.3 ms over 120k names, cheaper than building a hash
 * table (~3 ms) for the handful of lookups a script makes.  Scanning in
 * address order resolves a duplicated (static) name to its lowest
 * address.  Data symbols (a few hundred) come after functions. */
uint64_t ksym_addr(SymCtx *sc, const char *name)
{
	KsymsCache *c = ksyms(sc);
	const Ksym *syms = c->syms, *data = c->data;
	int nsyms = c->nsyms, ndata = c->ndata;
	for (int i = 0; i < nsyms; i++)
		if (!strcmp(syms[i].name, name))
			return syms[i].addr;
	for (int i = 0; i < ndata; i++)
		if (!strcmp(data[i].name, name))
			return data[i].addr;
	return 0;
}

/* Bytes from the symbol to the next text symbol at a higher address (an
 * upper bound of a function's size; kallsyms has no sizes), 0 if unknown. */
uint64_t ksym_size(SymCtx *sc, const char *name)
{
	KsymsCache *c = ksyms(sc);
	const Ksym *syms = c->syms;
	int nsyms = c->nsyms;
	for (int i = 0; i < nsyms; i++) {
		if (strcmp(syms[i].name, name))
			continue;
		for (int j = i + 1; j < nsyms; j++)
			if (syms[j].addr > syms[i].addr)
				return syms[j].addr - syms[i].addr;
		return 0;
	}
	return 0;
}

/* Any symbol, data too (kaddr("avenrun")): the text table first, then one
 * pass over /proc/kallsyms for the rare name that is not a function. */
uint64_t ksym_any_addr(SymCtx *sc, const char *name)
{
	uint64_t a = ksym_addr(sc, name);
	if (a)
		return a;
	size_t len, nlen = strlen(name);
	char *buf = read_kallsyms(&len);
	for (char *p = buf; p && *p; p = strchrnul(p, '\n'), p += *p == '\n') {
		char *sp = strchr(p, ' ');
		if (!sp || !sp[1] || sp[2] != ' ' || strncmp(sp + 3, name, nlen))
			continue;
		char c = sp[3 + nlen];
		if (c == '\n' || c == '\t' || c == ' ' || !c) {
			a = strtoull(p, NULL, 16);
			break;
		}
	}
	free(buf);
	return a;
}

/* FNV-1a over a name that ends at '\0', '\n' or '\t' (kallsyms' lines). */
static uint32_t kallsyms_name_hash(const char *s, const char **end)
{
	uint32_t h = 2166136261u;
	for (; *s && *s != '\n' && *s != '\t'; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	*end = s;
	return h;
}

/* The wanted names in an open-addressing table (size a power of two, at
 * least 4x the names), so each kallsyms line costs one hash and a probe or
 * two; counts[i] says how many functions are named names[i]. */
void ksym_unique_addrs(const char *const *names, int n, uint64_t *addrs)
{
	size_t len;
	char *buf = n > 0 ? read_kallsyms(&len) : NULL;
	ksym_unique_addrs_in(buf, names, n, addrs);
	free(buf);
}

void ksym_unique_addrs_in(const char *buf, const char *const *names, int n, uint64_t *addrs)
{
	memset(addrs, 0, sizeof(*addrs) * (size_t)n);
	if (!buf || n <= 0)
		return;
	uint32_t size = 16;
	while (size < 4u * (uint32_t)n)
		size <<= 1;
	int *slot = xcalloc(size, sizeof(*slot)); /* index + 1; 0 is empty */
	int *counts = xcalloc((size_t)n, sizeof(*counts));
	int *first = xcalloc((size_t)n, sizeof(*first)); /* a name asked twice: its first index */
	for (int i = 0; i < n; i++) {
		const char *e;
		uint32_t h = kallsyms_name_hash(names[i], &e) & (size - 1);
		while (slot[h] && strcmp(names[slot[h] - 1], names[i]))
			h = (h + 1) & (size - 1);
		if (!slot[h])
			slot[h] = i + 1;
		first[i] = slot[h] - 1;
	}
	for (const char *p = buf; *p; p = *p ? p + 1 : p) {
		const char *line = p;
		p = strchrnul(p, '\n');
		const char *type = memchr(line, ' ', (size_t)(p - line));
		if (!type || p - type < 4 || !strchr("tTwW", type[1]))
			continue;
		const char *name = type + 3, *end;
		uint32_t h = kallsyms_name_hash(name, &end) & (size - 1);
		size_t nl = (size_t)(end - name);
		for (; slot[h]; h = (h + 1) & (size - 1)) {
			int i = slot[h] - 1;
			if (strncmp(names[i], name, nl) || names[i][nl])
				continue;
			if (++counts[i] == 1) {
				uint64_t a = 0;
				for (const char *c = line; c < type; c++)
					a = a << 4 | (uint64_t)hexval(*c);
				addrs[i] = a;
			}
			break;
		}
	}
	for (int i = 0; i < n; i++)
		addrs[i] = counts[first[i]] == 1 ? addrs[first[i]] : 0;
	free(first);
	free(counts);
	free(slot);
}
