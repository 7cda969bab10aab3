/* The kprobe index (kindex.h): "NAME ADDR FLAG MODULE\n" per traceable
 * function, sorted by name (bytes; one name's lines in file order): ADDR in
 * hex, 0 unless a vmlinux function that exactly one function in kallsyms is
 * named after (a kprobe by address then finds it; ksyms.c); FLAG 'b' when
 * on the kprobe blacklist, else '-'; MODULE '-' for vmlinux.  Searched for
 * a name or a wildcard's literal start (tcp_*) by binary search over the
 * bytes: reading and splitting all of available_filter_functions, matching
 * each name against the wildcard and reading an extract of kallsyms for the
 * addresses cost ~0.2 s of emulated time at every run. */
#include "kindex.h"

#include <stdlib.h>
#include <string.h>

#include "../util/util.h"

typedef struct Sorted {
	const KIndexRow *row;
	int pos; /* in available_filter_functions */
} Sorted;

static int cmp_sorted(const void *a, const void *b)
{
	const Sorted *x = a, *y = b;
	int c = strcmp(x->row->name, y->row->name);
	return c ? c : x->pos - y->pos;
}

static void put_hex_addr(StrBuf *b, uint64_t a)
{
	/* by hand: ~50k printf calls cost a tenth of a second emulated */
	char hex[17];
	int h = 16;
	hex[16] = 0;
	do
		hex[--h] = "0123456789abcdef"[a & 15];
	while (a >>= 4);
	sb_putn(b, hex + h, (size_t)(16 - h));
}

char *kindex_make(const KIndexRow *rows, int n, size_t *len)
{
	Sorted *v = xcalloc((size_t)n + 1, sizeof(*v));
	for (int i = 0; i < n; i++)
		v[i] = (Sorted){&rows[i], i};
	qsort(v, (size_t)n, sizeof(*v), cmp_sorted);
	StrBuf b = {0};
	sb_putn(&b, "", 0);
	for (int i = 0; i < n; i++) {
		const KIndexRow *r = v[i].row;
		sb_putn(&b, r->name, strlen(r->name));
		sb_putn(&b, " ", 1);
		put_hex_addr(&b, r->addr);
		sb_putn(&b, r->black ? " b " : " - ", 3);
		const char *mod = r->module ? r->module : "-";
		sb_putn(&b, mod, strlen(mod));
		sb_putn(&b, "\n", 1);
	}
	free(v);
	*len = b.len;
	return b.s;
}

/* The line at p (before end); returns the next line's start */
static const char *index_parse(const char *p, const char *end, KIndexLine *l)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	const char *e = nl ? nl : end;
	const char *field[4] = {p, e, e, e}; /* each field's start */
	for (int i = 1; i < 4; i++) {
		const char *sp = field[i - 1] < e ? memchr(field[i - 1], ' ', (size_t)(e - field[i - 1])) : NULL;
		field[i] = sp ? sp + 1 : e;
	}
	const char *name_end = memchr(p, ' ', (size_t)(e - p));
	*l = (KIndexLine){.name = p, .name_len = (size_t)((name_end ? name_end : e) - p),
			 .black = field[2] < e && *field[2] == 'b'};
	for (const char *c = field[1]; c < e && *c != ' '; c++)
		l->addr = l->addr << 4 | (uint64_t)(*c <= '9' ? *c - '0' : *c - 'a' + 10);
	if (field[3] < e && !(e - field[3] == 1 && *field[3] == '-')) {
		l->module = field[3];
		l->module_len = (size_t)(e - field[3]);
	}
	return nl ? nl + 1 : end;
}

/* strcmp of the NAME of the line at p with key[0..klen) */
static int index_name_cmp(const char *p, const char *end, const char *key, size_t klen)
{
	const char *sp = memchr(p, ' ', (size_t)(end - p));
	size_t n = (size_t)((sp ? sp : end) - p);
	int c = memcmp(p, key, n < klen ? n : klen);
	return c ? c : (n > klen) - (n < klen);
}

/* The first line whose name is not below key (binary search over the bytes,
 * each probe moved to the start of its line) */
static const char *index_lower_bound(const char *text, size_t len, const char *key, size_t klen)
{
	size_t lo = 0, hi = len; /* both at line starts */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *nl = mid > lo ? memrchr(text + lo, '\n', mid - lo) : NULL;
		size_t start = nl ? (size_t)(nl - text) + 1 : lo;
		const char *e = memchr(text + start, '\n', len - start);
		size_t end = e ? (size_t)(e - text) + 1 : len;
		if (index_name_cmp(text + start, text + end, key, klen) < 0)
			lo = end;
		else
			hi = start;
	}
	return text + lo;
}

bool kindex_line_in(const KIndexLine *l, const void *module)
{
	return !module || (l->module && l->module_len == strlen(module) &&
			   !memcmp(l->module, module, l->module_len));
}

bool kindex_find(KIndex ix, const char *func, bool (*want)(const KIndexLine *, const void *),
		 const void *arg, KIndexLine *out)
{
	size_t flen = strlen(func);
	const char *end = ix.text + ix.len;
	for (const char *p = ix.text ? index_lower_bound(ix.text, ix.len, func, flen) : NULL; p && p < end;) {
		p = index_parse(p, end, out);
		if (out->name_len != flen || memcmp(out->name, func, flen))
			return false;
		if (want(out, arg))
			return true;
	}
	return false;
}

int kindex_match(KIndex ix, const char *module, const char *glob, KIndexMatch **out)
{
	size_t plen = strcspn(glob, "*?");
	const char *end = ix.text + ix.len;
	VEC(KIndexMatch) v = {0};
	char name[512];
	for (const char *p = ix.text ? index_lower_bound(ix.text, ix.len, glob, plen) : NULL; p && p < end;) {
		KIndexLine l;
		p = index_parse(p, end, &l);
		if (l.name_len < plen || memcmp(l.name, glob, plen))
			break; /* past the names that start as the wildcard does */
		if (l.name_len >= sizeof(name) || !kindex_line_in(&l, module))
			continue;
		memcpy(name, l.name, l.name_len);
		name[l.name_len] = 0;
		KIndexMatch *last = v.n ? &v.v[v.n - 1] : NULL;
		if (last && !strcmp(last->name, name)) { /* one name's lines: the vmlinux one's address */
			if (!last->addr && !l.module)
				last->addr = l.addr;
			continue;
		}
		/* .part/.cold pieces are not functions one can enter */
		if (strstr(name, ".part.") || strstr(name, ".cold") || !glob_match(glob, name))
			continue;
		vec_push(&v, ((KIndexMatch){xstrdup(name), l.module ? 0 : l.addr, l.black}));
	}
	*out = v.v;
	return v.n;
}

void kindex_match_free(KIndexMatch *v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}
