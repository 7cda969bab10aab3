/* Printing whole maps as bpftrace 0.17 does, at exit and for print(@m).
 *
 * Rules found by running bpftrace 0.17:
 *  - text: the entries are joined with "\n" and the map ends with "\n",
 *    plus one more "\n" for avg() and stats() maps.  A hist entry is
 *    "@h[k]: \n" followed by its bar lines, so hist maps get a blank line
 *    after every entry.  An empty map therefore prints "\n" ("\n\n" for
 *    avg/stats); in json an empty map prints nothing.
 *  - order: count/sum/min/max/int values ascending by value; avg and
 *    stats by average; hist/lhist by the sum of their buckets; everything
 *    else by key.  Keys compare element by element, ints as unsigned
 *    64-bit, strings bytewise.  bpftrace leaves ties in hash order (it
 *    varies run to run); we break them by key so output is stable.
 *  - print(@m, top, div): keep the last `top` after sorting; divide values
 *    (C division).  stats ignores both; lhist ignores div; hist divides
 *    the printed counts only (bars and trimming use the raw counts).
 *  - max(): entries whose value is negative are not printed (a bpftrace
 *    0.17 quirk; min() is fine).
 *  - clear() empties keyless maps too; an empty keyless count() map
 *    prints 0 (other empty maps print "\n", or nothing in json). */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <stdlib.h>
#include <string.h>

#include "frontend_rt.h"
#include "output.h"
#include "tseries_print.h"
#include "../util/bytes.h"

static void wr64(void *p, int64_t v)
{
	memcpy(p, &v, 8);
}

static int nbuckets(const Type *t)
{
	switch (t->kind) {
	case TY_HIST: return hist_nbuckets(t);
	case TY_QUANTIZE: return QUANT_BUCKETS;
	case TY_LLQUANTIZE: return llquant_buckets(t);
	default: return lhist_buckets(t);
	}
}

void agg_merge(const Type *t, void *dst, const void *src)
{
	char *d = dst;
	const char *s = src;
	switch (t->kind) {
	case TY_COUNT:
	case TY_SUM:
		wr64(d, rd64(d) + rd64(s));
		break;
	case TY_MIN:
	case TY_MAX: {
		if (!rd64(s + 8))
			break; /* that CPU never saw a value */
		bool better = t->kind == TY_MIN ? rd64(s) < rd64(d) : rd64(s) > rd64(d);
		if (!rd64(d + 8) || better)
			memcpy(d, s, 16);
		break;
	}
	case TY_AVG:
	case TY_STATS:
		wr64(d, rd64(d) + rd64(s));
		wr64(d + 8, rd64(d + 8) + rd64(s + 8));
		break;
	case TY_STDDEV: { /* count, total, then a 128-bit sum of squares */
		unsigned __int128 a, b;
		memcpy(&a, d + 16, 16);
		memcpy(&b, s + 16, 16);
		a += b;
		memcpy(d + 16, &a, 16);
		wr64(d, rd64(d) + rd64(s));
		wr64(d + 8, rd64(d + 8) + rd64(s + 8));
		break;
	}
	case TY_TSERIES:
		tseries_merge(t, d, s);
		break;
	case TY_HIST:
	case TY_LHIST:
	case TY_QUANTIZE:
	case TY_LLQUANTIZE:
		for (int i = 0; i < nbuckets(t); i++)
			wr64(d + 8 * i, rd64(d + 8 * i) + rd64(s + 8 * i));
		break;
	default:
		memcpy(d, s, (size_t)t->size);
		break;
	}
}

/* All keys of the map, key_size bytes each. */
static int read_keys(const MapDesc *m, char **keys_out)
{
	size_t ks = (size_t)(m->key_size > 0 ? m->key_size : 8);
	int n = 0, cap = 64;
	char *keys = xmalloc(cap * ks);
	const void *prev = NULL;
	while (bpf_map_get_next_key(m->fd, prev, keys + n * ks) == 0) {
		prev = keys + n * ks;
		if (++n == cap) {
			cap *= 2;
			keys = xrealloc(keys, cap * ks);
			prev = keys + (n - 1) * ks;
		}
	}
	*keys_out = keys;
	return n;
}

int map_read(const MapDesc *m, MapEntry **entries, void **mem)
{
	return map_read_entries(m, entries, mem, true);
}

void map_delete_key(const MapDesc *m, const void *key)
{
	bpf_map_delete_elem(m->fd, key);
}

int map_read_entries(const MapDesc *m, MapEntry **entries, void **mem, bool bpftrace_zero)
{
	char *tmp;
	int n = read_keys(m, &tmp);
	size_t ks = round8((size_t)(m->key_size > 0 ? m->key_size : 8));
	size_t vs = round8((size_t)m->val_size);
	int ncpu = m->percpu ? libbpf_num_possible_cpus() : 1;
	if (ncpu < 1)
		ncpu = 1;
	/* one block, so the caller frees it with free(): keys, then values */
	char *blk = xcalloc((size_t)n + 1, ks + vs);
	char *keys = blk, *vals = blk + ((size_t)n + 1) * ks;
	char *raw = xmalloc(vs * (size_t)ncpu);
	MapEntry *e = xcalloc((size_t)n + 1, sizeof(MapEntry));
	int got = 0;
	for (int i = 0; i < n; i++) {
		const char *key = tmp + (size_t)i * (size_t)(m->key_size > 0 ? m->key_size : 8);
		if (bpf_map_lookup_elem(m->fd, key, raw) != 0)
			continue; /* deleted while we walked */
		char *k = keys + (size_t)got * ks, *v = vals + (size_t)got * vs;
		memcpy(k, key, (size_t)(m->key_size > 0 ? m->key_size : 8));
		if (!m->percpu)
			memcpy(v, raw, (size_t)m->val_size);
		for (int c = 0; m->percpu && c < ncpu; c++)
			agg_merge(m->val, v, raw + (size_t)c * vs);
		e[got].key = k;
		e[got].val = v;
		got++;
	}
	if (bpftrace_zero && !got && !m->key && m->val->kind == TY_COUNT) {
		/* bpftrace prints a keyless count() map as 0 even when it
		 * holds nothing (never counted, deleted or cleared) */
		e[0].key = keys;
		e[0].val = vals;
		got = 1;
	}
	free(raw);
	free(tmp);
	*mem = blk;
	*entries = e;
	return got;
}

/* ---- ordering ---- */

static int cmp_key_elem(const Type *t, const char *a, const char *b)
{
	switch (t->kind) {
	case TY_INT:
	case TY_SYSCALL: {
		uint64_t x = (uint64_t)rd64(a), y = (uint64_t)rd64(b);
		return x < y ? -1 : x > y;
	}
	case TY_STR:
		return strncmp(a, b, (size_t)t->size);
	case TY_TUPLE:
		for (int i = 0; i < t->nelem; i++) {
			int c = cmp_key_elem(t->elem[i], a + t->offset[i], b + t->offset[i]);
			if (c)
				return c;
		}
		return 0;
	default:
		return memcmp(a, b, (size_t)t->size);
	}
}

static int64_t avg_of(const void *v)
{
	int64_t n = rd64(v), total = rd64((const char *)v + 8);
	return n ? total / n : 0;
}

static uint64_t bucket_sum(const Type *t, const void *v)
{
	uint64_t s = 0;
	for (int i = 0; i < nbuckets(t); i++)
		s += (uint64_t)rd64((const char *)v + 8 * i);
	return s;
}

/* The number a map is sorted by; false: sort by key. */
static bool sort_value(const Type *t, const void *v, int64_t *out, bool *is_signed)
{
	*is_signed = t->is_signed;
	switch (t->kind) {
	case TY_COUNT:
		*is_signed = false;
		/* fall through */
	case TY_SUM:
	case TY_MIN:
	case TY_MAX:
	case TY_INT:
		*out = rd64(v);
		return true;
	case TY_AVG:
	case TY_STATS:
		*out = avg_of(v);
		*is_signed = true;
		return true;
	case TY_HIST:
	case TY_LHIST:
		*out = (int64_t)bucket_sum(t, v);
		*is_signed = false;
		return true;
	default:
		return false;
	}
}

static int cmp_entry(const void *pa, const void *pb, void *ctx)
{
	const MapDesc *m = ctx;
	const MapEntry *a = pa, *b = pb;
	int64_t x, y;
	bool sg;
	if (sort_value(m->val, a->val, &x, &sg)) {
		sort_value(m->val, b->val, &y, &sg);
		int c = sg ? (x < y ? -1 : x > y) : ((uint64_t)x < (uint64_t)y ? -1 : (uint64_t)x > (uint64_t)y);
		if (c)
			return c;
	}
	return m->key ? cmp_key_elem(m->key, a->key, b->key) : 0;
}

/* ---- text pieces ---- */

static int64_t divide(const Type *t, int64_t v, int div)
{
	if (div <= 1)
		return v;
	if (t->is_signed && t->kind != TY_COUNT)
		return v / div;
	return (int64_t)((uint64_t)v / (uint64_t)div);
}

/* Map keys are always shown in text form, even inside json. */
static void format_key(StrBuf *sb, const OutCtx *o, const MapDesc *m, const void *key, bool json)
{
	OutCtx text = *o;
	text.fmt = OUT_TEXT;
	const Type *k = m->key;
	if (k->kind != TY_TUPLE || k->names) { /* a record prints whole */
		value_format(sb, &text, k, key, true);
		return;
	}
	for (int i = 0; i < k->nelem; i++) { /* a multi-key map */
		if (i)
			sb_puts(sb, json ? "," : ", ");
		value_format(sb, &text, k->elem[i], (const char *)key + k->offset[i], true);
	}
}

/* bpftrace 0.26's json key: its text with no space, even inside a string */
static void drop_spaces(StrBuf *sb)
{
	size_t n = 0;
	for (size_t i = 0; i < sb->len; i++)
		if (sb->s[i] != ' ')
			sb->s[n++] = sb->s[i];
	sb->len = n;
	if (sb->s)
		sb->s[n] = 0;
}

/* 1024-multiples get a suffix: 2048 -> 2K, 3145728 -> 3M, 2000 stays. */
static void put_size(StrBuf *sb, uint64_t v)
{
	static const char suf[] = "KMGTPE";
	int s = -1;
	while (v >= 1024 && v % 1024 == 0 && s < 5) {
		v /= 1024;
		s++;
	}
	if (s < 0)
		sb_printf(sb, "%llu", (unsigned long long)v);
	else
		sb_printf(sb, "%llu%c", (unsigned long long)v, suf[s]);
}

/* 2^k with its suffix, valid up to k = 64. */
static void put_pow2(StrBuf *sb, int k)
{
	if (k < 10)
		sb_printf(sb, "%llu", 1ULL << k);
	else
		sb_printf(sb, "%llu%c", 1ULL << (k % 10), "KMGTPE"[k / 10 - 1]);
}

/* a 0.26 hist's bucket: [low, next low), or [low] when it holds one value */
static void wide_label(StrBuf *sb, const Type *t, int i)
{
	uint64_t lo = hist_low(t, i), end = hist_low(t, i + 1);
	sb_putc(sb, '[');
	put_size(sb, lo);
	if (end - lo > 1) {
		sb_puts(sb, ", ");
		put_size(sb, end);
		sb_putc(sb, ')');
	} else {
		sb_putc(sb, ']');
	}
}

static void bucket_label(StrBuf *sb, const Type *t, int i)
{
	if (t->kind == TY_HIST && t->hist_wide && i > 0) {
		wide_label(sb, t, i);
		return;
	}
	if (t->kind == TY_HIST) {
		if (i == 0)
			sb_puts(sb, "(..., 0)");
		else if (i == 1 || i == 2)
			sb_puts(sb, i == 1 ? "[0]" : "[1]");
		else {
			sb_putc(sb, '[');
			put_pow2(sb, i - 2);
			sb_puts(sb, ", ");
			put_pow2(sb, i - 1);
			sb_putc(sb, ')');
		}
		return;
	}
	int nb = lhist_buckets(t);
	int64_t lo = t->lh_min + (int64_t)(i - 1) * t->lh_step;
	sb_puts(sb, i == 0 ? "(..., " : "[");
	put_size(sb, (uint64_t)(i == 0 ? t->lh_min : i == nb - 1 ? t->lh_max : lo));
	if (i == 0) {
		sb_putc(sb, ')');
	} else if (i == nb - 1) {
		sb_puts(sb, ", ...)");
	} else {
		sb_puts(sb, ", ");
		put_size(sb, (uint64_t)(lo + t->lh_step));
		sb_putc(sb, ')');
	}
}

/* First and last non-empty bucket; false when all are empty. */
static bool bucket_range(const Type *t, const void *v, int *first, int *last)
{
	int nb = nbuckets(t);
	*first = *last = -1;
	for (int i = 0; i < nb; i++) {
		if (rd64((const char *)v + 8 * i)) {
			if (*first < 0)
				*first = i;
			*last = i;
		}
	}
	return *first >= 0;
}

static void hist_text(StrBuf *sb, const Type *t, const void *v, int div)
{
	int first, last;
	if (!bucket_range(t, v, &first, &last))
		return;
	uint64_t max = 0;
	for (int i = first; i <= last; i++)
		if ((uint64_t)rd64((const char *)v + 8 * i) > max)
			max = (uint64_t)rd64((const char *)v + 8 * i);
	StrBuf label = {0};
	for (int i = first; i <= last; i++) {
		uint64_t c = (uint64_t)rd64((const char *)v + 8 * i);
		int bar = (int)((unsigned __int128)c * 52 / max);
		sb_reset(&label);
		bucket_label(&label, t, i);
		sb_printf(sb, "%-16s%8llu |%.*s%*s|\n", label.s, (unsigned long long)(c / (uint64_t)div),
			  bar, "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@", 52 - bar, "");
	}
	sb_free(&label);
}

/* json bucket bounds: bpftrace computes 2^k in 32-bit ints (x86 shift
 * semantics), so [2G, 4G) shows as min -2147483648, max 0. */
static void hist_json_bounds(StrBuf *sb, const Type *t, int i)
{
	if (t->kind == TY_HIST && t->hist_wide && i > 0) {
		sb_printf(sb, "\"min\": %llu, \"max\": %llu, ", (unsigned long long)hist_low(t, i),
			  (unsigned long long)hist_low(t, i + 1) - 1);
		return;
	}
	if (t->kind == TY_HIST) {
		if (i == 0) {
			sb_puts(sb, "\"max\": -1, ");
		} else if (i == 1) {
			sb_puts(sb, "\"min\": 0, \"max\": 0, ");
		} else {
			int k = i - 2;
			int32_t lo = (int32_t)(1u << (k & 31)), hi = (int32_t)(1u << ((k + 1) & 31)) - 1;
			sb_printf(sb, "\"min\": %d, \"max\": %d, ", lo, hi);
		}
		return;
	}
	int nb = lhist_buckets(t);
	int64_t lo = t->lh_min + (int64_t)(i - 1) * t->lh_step;
	if (i == 0)
		sb_printf(sb, "\"max\": %lld, ", (long long)(t->lh_min - 1));
	else if (i == nb - 1)
		sb_printf(sb, "\"min\": %lld, ", (long long)t->lh_max);
	else
		sb_printf(sb, "\"min\": %lld, \"max\": %lld, ", (long long)lo,
			  (long long)(lo + t->lh_step - 1));
}

static void hist_json(StrBuf *sb, const Type *t, const void *v, int div)
{
	int first, last;
	sb_putc(sb, '[');
	if (bucket_range(t, v, &first, &last)) {
		for (int i = first; i <= last; i++) {
			if (i > first)
				sb_puts(sb, ", ");
			sb_putc(sb, '{');
			hist_json_bounds(sb, t, i);
			sb_printf(sb, "\"count\": %llu}",
				  (unsigned long long)((uint64_t)rd64((const char *)v + 8 * i) / (uint64_t)div));
		}
	}
	sb_putc(sb, ']');
}

/* The value part of one entry (after "@m[k]: " or the json key). */
static void format_val(StrBuf *sb, const OutCtx *o, const Type *t, const void *v, int div)
{
	bool json = o->fmt == OUT_JSON;
	switch (t->kind) {
	case TY_COUNT:
		sb_printf(sb, "%llu", (unsigned long long)divide(t, rd64(v), div));
		break;
	case TY_SUM:
	case TY_MIN:
	case TY_MAX:
		sb_printf(sb, t->is_signed ? "%lld" : "%llu", (long long)divide(t, rd64(v), div));
		break;
	case TY_AVG:
		sb_printf(sb, "%lld", (long long)(div > 1 ? avg_of(v) / div : avg_of(v)));
		break;
	case TY_STATS:
		sb_printf(sb, json ? "{\"count\": %lld, \"average\": %lld, \"total\": %lld}"
			  : frontend_rt(o)->stats_as_record ? "{ .count = %lld, .average = %lld, .total = %lld }"
							  : "count %lld, average %lld, total %lld",
			  (long long)rd64(v), (long long)avg_of(v), (long long)rd64((const char *)v + 8));
		break;
	case TY_TSERIES:
		if (json)
			tseries_json(sb, t, v);
		else
			sb_putc(sb, '\n'), tseries_text(sb, t, v);
		break;
	case TY_HIST:
	case TY_LHIST:
		if (json)
			hist_json(sb, t, v, div);
		else
			sb_putc(sb, '\n'), hist_text(sb, t, v, div);
		break;
	case TY_INT:
		if (div > 1) {
			int64_t x = divide(t, rd64(v), div);
			value_format(sb, o, t, &x, false);
			break;
		}
		/* fall through */
	default:
		value_format(sb, o, t, v, false);
		break;
	}
}

/* ---- whole maps ---- */

static const char *json_kind(const Type *t)
{
	switch (t->kind) {
	case TY_AVG:
	case TY_STATS:
		return "stats";
	case TY_HIST:
	case TY_LHIST:
		return "hist";
	case TY_TSERIES:
		return "tseries";
	default:
		return "map";
	}
}

/* Drops entries bpftrace 0.17 does not print; returns the new count. */
static int filter_entries(const MapDesc *m, MapEntry *e, int n)
{
	if (m->val->kind != TY_MAX)
		return n;
	int k = 0;
	for (int i = 0; i < n; i++)
		if (rd64(e[i].val) >= 0)
			e[k++] = e[i];
	return k;
}

static void print_text(StrBuf *sb, const OutCtx *o, const MapDesc *m, const MapEntry *e, int n,
		       int div)
{
	for (int i = 0; i < n; i++) {
		if (i)
			sb_putc(sb, '\n');
		sb_puts(sb, m->name);
		if (m->key) {
			sb_putc(sb, '[');
			format_key(sb, o, m, e[i].key, false);
			sb_putc(sb, ']');
		}
		bool hist = m->val->kind == TY_HIST || m->val->kind == TY_LHIST;
		bool bare = (hist && frontend_rt(o)->hist_heading_bare) || m->val->kind == TY_TSERIES;
		sb_puts(sb, bare ? ":" : ": ");
		format_val(sb, o, m->val, e[i].val, div);
	}
	sb_putc(sb, '\n');
	if (m->val->kind == TY_AVG || m->val->kind == TY_STATS)
		sb_putc(sb, '\n');
}

static void print_json(StrBuf *sb, const OutCtx *o, const MapDesc *m, const MapEntry *e, int n,
		       int div)
{
	sb_printf(sb, "{\"type\": \"%s\", \"data\": {", json_kind(m->val));
	json_quoted(sb, m->name, strlen(m->name));
	sb_puts(sb, ": ");
	if (m->key)
		sb_putc(sb, '{');
	StrBuf key = {0};
	for (int i = 0; i < n; i++) {
		if (m->key) {
			if (i)
				sb_puts(sb, ", ");
			sb_reset(&key);
			format_key(&key, o, m, e[i].key, true);
			if (frontend_rt(o)->json_keys_unspaced)
				drop_spaces(&key);
			sb_putc(sb, '"');
			json_escape(sb, key.s ? key.s : "", key.len);
			sb_puts(sb, "\": ");
		}
		format_val(sb, o, m->val, e[i].val, div);
	}
	sb_free(&key);
	sb_puts(sb, m->key ? "}}}\n" : "}}\n");
}

void map_print_entries(const OutCtx *o, const MapDesc *m, MapEntry *e, int n, int top, int div)
{
	TypeKind vk = m->val->kind;
	if (vk == TY_STATS)
		top = div = 0; /* bpftrace ignores both (and warns) */
	if (vk == TY_LHIST)
		div = 0;
	if (div <= 0)
		div = 1;
	n = filter_entries(m, e, n);
	if (n > 1)
		qsort_r(e, (size_t)n, sizeof(*e), cmp_entry, (void *)m);
	if (top > 0 && n > top) {
		e += n - top;
		n = top;
	}
	if (o->fmt == OUT_JSON && !n)
		return;
	if (o->fmt == OUT_FOLDED && (!n || map_print_folded(o, m, e, n)))
		return; /* folded output holds only stacks (and non-empty maps) */
	StrBuf sb = {0};
	if (o->fmt == OUT_JSON)
		print_json(&sb, o, m, e, n, div);
	else
		print_text(&sb, o, m, e, n, div);
	fwrite(sb.s, 1, sb.len, o->f);
	sb_free(&sb);
}

void map_print(const OutCtx *o, const MapDesc *m, int top, int div)
{
	MapEntry *e = NULL;
	void *mem = NULL;
	int n = map_read(m, &e, &mem);
	map_print_entries(o, m, e, n < 0 ? 0 : n, top, div);
	free(e);
	free(mem);
}

void map_clear(const MapDesc *m)
{
	/* a keyless map is emptied too (a keyless count() map still prints
	 * 0: see map_read) */
	char *keys;
	int n = read_keys(m, &keys);
	size_t ks = (size_t)(m->key_size > 0 ? m->key_size : 8);
	for (int i = 0; i < n; i++)
		bpf_map_delete_elem(m->fd, keys + (size_t)i * ks);
	free(keys);
}

void map_zero(const MapDesc *m)
{
	char *keys;
	int n = read_keys(m, &keys);
	size_t ks = (size_t)(m->key_size > 0 ? m->key_size : 8);
	int ncpu = m->percpu ? libbpf_num_possible_cpus() : 1;
	char *zero = xcalloc((size_t)(ncpu < 1 ? 1 : ncpu), round8((size_t)m->val_size));
	for (int i = 0; i < n; i++)
		bpf_map_update_elem(m->fd, keys + (size_t)i * ks, zero, BPF_EXIST);
	free(zero);
	free(keys);
}
