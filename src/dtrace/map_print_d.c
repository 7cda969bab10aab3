/* Aggregations printed as dtrace(1) prints them (the D dialect): at exit,
 * by printa() with and without a format, after trunc()/normalize().
 *
 * The layout follows libdtrace's consumer (Oracle's dtrace-utils, whose
 * output the DTrace test suites check):
 *  - an entry is its keys then its value, then "\n": integer keys " %16lld"
 *    (" %8d", " %5d", " %3d" for 32/16/8-bit types, the narrow ones
 *    unsigned), other keys "  %-50s"; count/sum/min/max/avg " %16lld",
 *    stddev " %16llu"; values divided by normalize()'s factor;
 *  - quantize/lquantize/llquantize print a table under the keys: a header,
 *    the rows from one below the first non-empty bucket to one above the
 *    last, bars of 40 '@' scaled to the sum of the shown rows (both signs:
 *    two half bars around a centre line);
 *  - entries sort by value (then keys), keys compare element by element,
 *    integers unsigned, strings bytewise; aggsortkey sorts by keys first,
 *    aggsortkeypos names the key element compared first, aggsortrev
 *    reverses everything;
 *  - at exit (after the session's "\n") every aggregation printa() never
 *    printed, in the order the script first names them, without blank lines
 *    between. */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/output.h"
#include "../util/bytes.h"

static uint64_t normal_of(const MapDesc *m)
{
	return m->normal > 1 ? (uint64_t)m->normal : 1;
}

/* ---- values ---- */

static int64_t avg_d(const void *v, uint64_t normal)
{
	int64_t n = rd64(v), total = rd64((const char *)v + 8);
	return n ? total / (int64_t)normal / n : 0;
}

static unsigned __int128 isqrt128(unsigned __int128 x)
{
	unsigned __int128 r = 0, bit = (unsigned __int128)1 << 126;
	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

/* sqrt(average of squares - square of average), in integers as DTrace */
uint64_t stddev_d(const void *v, uint64_t normal)
{
	int64_t n = rd64(v), total = rd64((const char *)v + 8);
	if (!n)
		return 0;
	unsigned __int128 sq;
	memcpy(&sq, (const char *)v + 16, 16);
	sq = sq / normal / normal / (uint64_t)n;
	int64_t avg = total / (int64_t)normal / n;
	uint64_t a = (uint64_t)(avg < 0 ? -avg : avg);
	return (uint64_t)isqrt128(sq - (unsigned __int128)a * a);
}

/* count/sum/min/max: DTrace divides the value as unsigned by the factor */
static int64_t scalar_d(const Type *t, const void *v, uint64_t normal)
{
	if (t->kind == TY_AVG || t->kind == TY_STATS)
		return avg_d(v, normal);
	return (int64_t)((uint64_t)rd64(v) / normal);
}

/* ---- distributions ---- */

static int dist_buckets(const Type *t)
{
	switch (t->kind) {
	case TY_QUANTIZE: return QUANT_BUCKETS;
	case TY_LLQUANTIZE: return llquant_buckets(t);
	default: return lhist_buckets(t);
	}
}

/* The lower bound of positive llquantize bin p (1 = the first above the
 * middle); false for the unnamed bins between integers when the low
 * magnitude is 0 and there are more steps than the factor. */
static bool llq_bound(const Type *t, int p, uint64_t *out)
{
	int f = t->llq_factor, steps = t->llq_steps, sf = steps / f, per = steps - sf;
	int m = t->llq_low + (p - 1) / per, j = (p - 1) % per;
	if (m == 0 && steps > f) {
		*out = (uint64_t)(j / sf + 1);
		return j % sf == 0;
	}
	*out = j ? (uint64_t)(sf + j) * llquant_width(t, m) : llquant_pow((uint64_t)f, m);
	return true;
}

/* The label of llquantize bin i, "" when it has none; first: the first
 * bin with data (the middle bin says "abs() <" only when negatives show). */
static void llq_label(char *c, size_t n, const Type *t, int i, int first)
{
	int mid = llquant_half(t) + 1, last = 2 * mid;
	uint64_t top = llquant_pow((uint64_t)t->llq_factor, t->llq_high + 1), b;
	uint64_t low = llquant_pow((uint64_t)t->llq_factor, t->llq_low);
	c[0] = 0;
	if (i == 0)
		snprintf(c, n, "<= -%llu", (unsigned long long)top);
	else if (i == last)
		snprintf(c, n, ">= %llu", (unsigned long long)top);
	else if (i == mid && low == 1)
		snprintf(c, n, "0");
	else if (i == mid)
		snprintf(c, n, first >= mid ? "< %llu" : "abs() < %llu", (unsigned long long)low);
	else if (llq_bound(t, i > mid ? i - mid : mid - i, &b))
		snprintf(c, n, "%s%llu", i < mid ? "-" : "", (unsigned long long)b);
}

static void dist_label(char *c, size_t n, const Type *t, int i, int first)
{
	if (t->kind == TY_QUANTIZE) {
		snprintf(c, n, "%lld", (long long)quant_bucket_value(i));
	} else if (t->kind == TY_LLQUANTIZE) {
		llq_label(c, n, t, i, first);
	} else {
		int levels = lhist_buckets(t) - 2;
		if (i == 0)
			snprintf(c, n, "< %d", (int)t->lh_min);
		else if (i == levels + 1)
			snprintf(c, n, ">= %d", (int)t->lh_max);
		else
			snprintf(c, n, "%d", (int)(t->lh_min + (i - 1) * t->lh_step));
	}
}

/* One row's bar and count. */
static void quantline(StrBuf *sb, int64_t val, uint64_t normal, long double total, bool pos,
		      bool neg)
{
	static const char ats[] = "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@";
	int len = pos && neg ? 20 : 40;
	long double a = val < 0 ? -(long double)val : (long double)val;
	int depth = total > 0 ? (int)(a * len / total + 0.5L) : 0;
	long long shown = (long long)((uint64_t)val / normal);
	if (!neg)
		sb_printf(sb, "|%.*s%*s %-9lld\n", depth, ats, len - depth, "", shown);
	else if (!pos)
		sb_printf(sb, "%*s%.*s| %-9lld\n", len - depth, "", depth, ats, shown);
	else if (val <= 0)
		sb_printf(sb, "%*s%.*s|%*s %-9lld\n", len - depth, "", depth, ats, len, "", shown);
	else
		sb_printf(sb, "%20s|%.*s%*s %-9lld\n", "", depth, ats, len - depth, "", shown);
}

/* The rows shown: one empty bucket around the data (llquantize: the
 * middle's neighbours when all are empty, quantize: 0's). */
static void dist_range(const Type *t, const int64_t *d, int nb, int *first, int *last)
{
	int f = 0, l = nb - 1;
	while (f <= l && !d[f])
		f++;
	if (f > l) { /* around 0: quantize's 0, lquantize's first bins, llquantize's 1 */
		int mid = t->kind == TY_QUANTIZE ? QUANT_ZERO
			  : t->kind == TY_LLQUANTIZE ? llquant_half(t) + 2 : 1;
		*first = mid - 1;
		*last = mid + 1;
		return;
	}
	while (!d[l])
		l--;
	*first = f > 0 ? f - 1 : f;
	*last = l < nb - 1 ? l + 1 : l;
}

/* llquantize's first/last rows may fall on an unnamed bin: they take the
 * name of the nearest named bin outward (Oracle's "ghost bin" rule) */
static void ghost_label(char *c, size_t n, const Type *t, int i, int dir, int first)
{
	int pad = t->llq_low == 0 && t->llq_steps > t->llq_factor ? t->llq_steps / t->llq_factor : 0;
	for (int k = 1; !c[0] && k < pad && i + dir * k >= 0; k++)
		llq_label(c, n, t, i + dir * k, first);
}

static void dist_print(StrBuf *sb, const Type *t, const void *v, uint64_t normal)
{
	int nb = dist_buckets(t), first, last, data_first = 0;
	int64_t *d = xmalloc(sizeof(int64_t) * (size_t)nb);
	memcpy(d, v, sizeof(int64_t) * (size_t)nb);
	dist_range(t, d, nb, &first, &last);
	while (data_first < nb && !d[data_first])
		data_first++;
	bool pos = false, neg = false;
	long double total = 0;
	for (int i = first; i <= last; i++) {
		pos |= d[i] > 0;
		neg |= d[i] < 0;
		total += d[i] < 0 ? -(long double)d[i] : (long double)d[i];
	}
	sb_printf(sb, "\n%16s %41s %-9s\n", "value", "------------- Distribution -------------",
		  "count");
	char c[48];
	for (int i = first; i <= last; i++) {
		dist_label(c, sizeof(c), t, i, data_first);
		if (t->kind == TY_LLQUANTIZE && !c[0] && (i == first || i == last))
			ghost_label(c, sizeof(c), t, i, i == first ? -1 : 1, data_first);
		if (!c[0])
			continue;
		sb_printf(sb, "%16s ", c);
		quantline(sb, d[i], normal, total, pos, neg);
	}
	free(d);
}

static bool is_dist(const Type *t)
{
	return t->kind == TY_QUANTIZE || t->kind == TY_LHIST || t->kind == TY_LLQUANTIZE;
}

/* The value after the keys: " %16lld", or a distribution table. */
static void put_value(StrBuf *sb, const MapDesc *m, const void *v)
{
	uint64_t normal = normal_of(m);
	if (is_dist(m->val))
		dist_print(sb, m->val, v, normal);
	else if (m->val->kind == TY_STDDEV)
		sb_printf(sb, " %16llu", (unsigned long long)stddev_d(v, normal));
	else
		sb_printf(sb, " %16lld", (long long)scalar_d(m->val, v, normal));
}

/* ---- keys ---- */

static void put_key_elem(StrBuf *sb, const OutCtx *o, const Type *t, const void *d)
{
	if (t->kind == TY_INT) {
		int64_t v = rd64(d);
		if (t->bits == 8)
			sb_printf(sb, " %3d", (int)(uint8_t)v);
		else if (t->bits == 16)
			sb_printf(sb, " %5d", (int)(uint16_t)v);
		else if (t->bits == 32)
			sb_printf(sb, " %8d", (int)(int32_t)v);
		else
			sb_printf(sb, " %16lld", (long long)v);
		return;
	}
	if (t->kind == TY_KSTACK || t->kind == TY_USTACK || t->kind == TY_PYSTACK) { /* frames: own lines */
		stack_format_d(sb, o, t, d);
		return;
	}
	StrBuf s = {0};
	OutCtx text = *o;
	text.fmt = OUT_TEXT;
	if (t->kind == TY_STR)
		sb_putn(&s, d, strnlen(d, (size_t)t->size));
	else
		value_format(&s, &text, t, d, true);
	sb_printf(sb, "  %-50s", s.s ? s.s : "");
	sb_free(&s);
}

static void put_keys(StrBuf *sb, const OutCtx *o, const MapDesc *m, const void *key)
{
	const Type *k = m->key;
	if (!k)
		return;
	if (k->kind != TY_TUPLE) {
		put_key_elem(sb, o, k, key);
		return;
	}
	for (int i = 0; i < k->nelem; i++)
		put_key_elem(sb, o, k->elem[i], (const char *)key + k->offset[i]);
}

/* ---- ordering ---- */

static int cmp_num(long double a, long double b)
{
	return a < b ? -1 : a > b;
}

/* The number DTrace sorts a distribution by: the sum of each bucket's
 * value times its count. */
static long double dist_weight(const Type *t, const void *v)
{
	int nb = dist_buckets(t);
	long double w = 0;
	char c[48];
	for (int i = 0; i < nb; i++) {
		int64_t n = rd64((const char *)v + 8 * i);
		if (!n)
			continue;
		long double at;
		if (t->kind == TY_QUANTIZE) {
			at = (long double)quant_bucket_value(i);
		} else if (t->kind == TY_LHIST) {
			at = i == 0 ? (long double)(t->lh_min - 1)
			     : i == nb - 1 ? (long double)(t->lh_max + 1)
					   : (long double)(t->lh_min + (i - 1) * t->lh_step);
		} else {
			dist_label(c, sizeof(c), t, i, 0);
			at = strtold(c[0] == '<' || c[0] == '>' || c[0] == 'a' ? strpbrk(c, "-0123456789") : c, NULL);
			if (i == 0)
				at = -at;
		}
		w += at * (long double)n;
	}
	return w;
}

static int cmp_value(const Type *t, const void *a, const void *b)
{
	if (is_dist(t))
		return cmp_num(dist_weight(t, a), dist_weight(t, b));
	if (t->kind == TY_STDDEV) {
		uint64_t x = stddev_d(a, 1), y = stddev_d(b, 1);
		return x < y ? -1 : x > y;
	}
	int64_t x = scalar_d(t, a, 1), y = scalar_d(t, b, 1);
	return x < y ? -1 : x > y;
}

static int cmp_elem(const Type *t, const char *a, const char *b)
{
	if (t->kind == TY_INT) {
		uint64_t x = (uint64_t)rd64(a), y = (uint64_t)rd64(b);
		return x < y ? -1 : x > y;
	}
	if (t->kind == TY_STR)
		return strncmp(a, b, (size_t)t->size);
	return memcmp(a, b, (size_t)t->size);
}

static int cmp_keys(const MapDesc *m, const AggOpts *ao, const char *a, const char *b)
{
	const Type *k = m->key;
	if (!k)
		return 0;
	if (k->kind != TY_TUPLE)
		return cmp_elem(k, a, b);
	for (int j = 0; j < k->nelem; j++) {
		int i = (j + (ao->sortkeypos > 0 ? ao->sortkeypos : 0)) % k->nelem;
		int c = cmp_elem(k->elem[i], a + k->offset[i], b + k->offset[i]);
		if (c)
			return c;
	}
	return 0;
}

/* ---- printa() formats ---- */

/* One row of a printa(): its keys and each aggregation's value. */
typedef struct Row {
	const void *key;
	const void **vals;
} Row;

typedef struct Join {
	const MapDesc *const *ms; /* the aggregations, in printa()'s order */
	int nm;
	const AggOpts *ao;
} Join;


static void put_dist_or_int(StrBuf *sb, const OutCtx *o, const MapDesc *m, const FmtPiece *p,
			    const void *v)
{
	if (is_dist(m->val)) {
		dist_print(sb, m->val, v, normal_of(m));
		return;
	}
	static const Type i64 = {.kind = TY_INT, .size = 8, .bits = 64, .is_signed = true};
	int64_t x = m->val->kind == TY_STDDEV ? (int64_t)stddev_d(v, normal_of(m))
					     : scalar_d(m->val, v, normal_of(m));
	const Type *tp = &i64;
	const void *ap = &x;
	Fmt one = {(FmtPiece *)p, 1, 1};
	fmt_render(sb, o, &one, &tp, &ap);
}

/* One row through a printa format: conversions marked agg_value (or number
 * `value`) print the next aggregation's value, the others the keys in
 * order (missing keys print 0). */
static void put_formatted(StrBuf *sb, const OutCtx *o, const Join *j, const Fmt *f, int value,
			  const Row *r)
{
	static const int64_t zero[4];
	static const Type i64 = {.kind = TY_INT, .size = 8, .bits = 64, .is_signed = true};
	const Type *k = j->ms[0]->key;
	int nkeys = !k ? 0 : k->kind == TY_TUPLE ? k->nelem : 1;
	int conv = 0, key = 0, agg = 0;
	for (int i = 0; i < f->npieces; i++) {
		const FmtPiece *p = &f->pieces[i];
		if (p->conv == FC_LITERAL) {
			sb_puts(sb, p->text);
			continue;
		}
		if (conv++ == value || p->agg_value) {
			if (agg < j->nm)
				put_dist_or_int(sb, o, j->ms[agg], p, r->vals[agg]);
			agg++;
			continue;
		}
		const Type *t = &i64;
		const void *a = zero;
		if (key < nkeys) {
			t = k->kind == TY_TUPLE ? k->elem[key] : k;
			a = k->kind == TY_TUPLE ? (const char *)r->key + k->offset[key] : r->key;
		}
		key++;
		Fmt one = {(FmtPiece *)p, 1, 1};
		fmt_render(sb, o, &one, &t, &a);
	}
}

/* Rows compare by the aggsortpos'th aggregation's value, then the others'
 * in order, then the keys (aggsortkey: keys first); aggsortrev reverses. */
static int cmp_row(const void *pa, const void *pb, void *ctx)
{
	const Join *j = ctx;
	const Row *a = pa, *b = pb;
	int sp = j->ao->sortpos > 0 ? j->ao->sortpos : 0, c = 0;
	if (sp >= j->nm)
		sp = j->nm - 1;
	if (j->ao->sortkey)
		c = cmp_keys(j->ms[0], j->ao, a->key, b->key);
	for (int k = 0; !c && k < j->nm; k++) {
		int i = k == 0 ? sp : k - 1 < sp ? k - 1 : k;
		c = cmp_value(j->ms[i]->val, a->vals[i], b->vals[i]);
	}
	if (!c)
		c = cmp_keys(j->ms[0], j->ao, a->key, b->key);
	return j->ao->sortrev ? -c : c;
}

static int cmp_entry_d(const void *pa, const void *pb, void *ctx)
{
	const MapEntry *a = pa, *b = pb;
	Row ra = {a->key, (const void **)&a->val}, rb = {b->key, (const void **)&b->val};
	return cmp_row(&ra, &rb, ctx);
}

void map_sort_d(const AggOpts *ao, const MapDesc *m, MapEntry *e, int n)
{
	const MapDesc *ms[1] = {m};
	Join j = {ms, 1, ao};
	if (n > 1)
		qsort_r(e, (size_t)n, sizeof(*e), cmp_entry_d, &j);
}

/* One CPU's slot: min/max on a CPU that never saw a value show DTrace's
 * starting values */
static void put_cpu_value(StrBuf *sb, const MapDesc *m, const void *v)
{
	TypeKind k = m->val->kind;
	if ((k == TY_MIN || k == TY_MAX) && !rd64((const char *)v + 8))
		sb_printf(sb, " %16lld", k == TY_MIN ? (long long)INT64_MAX : (long long)INT64_MIN);
	else
		put_value(sb, m, v);
}

/* aggpercpu: under each value, every CPU's own as "\n    [CPU N]" and the
 * value in the same layout (dtrace-utils' dt_print_aggs) */
static void put_percpu(StrBuf *sb, const MapDesc *m, const void *key)
{
	int ncpu = libbpf_num_possible_cpus();
	if (!m->percpu || ncpu < 1)
		return;
	size_t vs = ((size_t)m->val_size + 7) & ~(size_t)7;
	char *raw = xcalloc((size_t)ncpu, vs);
	if (bpf_map_lookup_elem(m->fd, key, raw) != 0)
		memset(raw, 0, vs * (size_t)ncpu); /* a joined row's key this one lacks */
	for (int c = 0; c < ncpu; c++) {
		sb_printf(sb, "\n    [CPU %d]", c);
		put_cpu_value(sb, m, raw + vs * (size_t)c);
	}
	free(raw);
}

static void print_rows(const OutCtx *o, const Join *j, Row *r, int n, const Fmt *fmt,
		       int value_conv)
{
	if (n > 1)
		qsort_r(r, (size_t)n, sizeof(*r), cmp_row, (void *)j);
	StrBuf sb = {0};
	for (int i = 0; i < n; i++) {
		if (fmt) {
			put_formatted(&sb, o, j, fmt, value_conv, &r[i]);
			continue;
		}
		put_keys(&sb, o, j->ms[0], r[i].key);
		for (int m = 0; m < j->nm; m++) {
			put_value(&sb, j->ms[m], r[i].vals[m]);
			if (j->ao->percpu)
				put_percpu(&sb, j->ms[m], r[i].key);
		}
		sb_putc(&sb, '\n');
	}
	if (sb.len)
		fwrite(sb.s, 1, sb.len, o->f);
	sb_free(&sb);
}

/* ---- whole aggregations ---- */

void map_print_d_entries(const OutCtx *o, const MapDesc *m, MapEntry *e, int n, const Fmt *fmt,
			 int value_conv)
{
	Row *r = xcalloc((size_t)n + 1, sizeof(Row));
	for (int i = 0; i < n; i++)
		r[i] = (Row){e[i].key, &e[i].val};
	const MapDesc *ms[1] = {m};
	Join j = {ms, 1, &o->agg};
	print_rows(o, &j, r, n, fmt, value_conv);
	free(r);
}

static void print_map(const OutCtx *o, const MapDesc *m, const Fmt *fmt, int value_conv)
{
	MapEntry *e = NULL;
	void *mem = NULL;
	int n = map_read_entries(m, &e, &mem, false);
	map_print_d_entries(o, m, e, n < 0 ? 0 : n, fmt, value_conv);
	free(e);
	free(mem);
}

static int cmp_key_ptr(const void *a, const void *b, void *ctx)
{
	return memcmp(*(const void *const *)a, *(const void *const *)b, *(const size_t *)ctx);
}

static int cmp_entry_key(const void *a, const void *b, void *ctx)
{
	return memcmp(((const MapEntry *)a)->key, ((const MapEntry *)b)->key, *(const size_t *)ctx);
}

static const MapEntry *find_key(const MapEntry *e, int n, const void *key, size_t ks)
{
	int lo = 0, hi = n - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2, c = memcmp(e[mid].key, key, ks);
		if (!c)
			return &e[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

/* Several aggregations joined on their keys (the keys of all of them, each
 * once), sorted by cmp_row; a key missing from one gives it a zero value,
 * as DTrace's zero-filled entries. */
static void print_joined(const OutCtx *o, MapDesc *const *ms, int nm, const Fmt *fmt,
			 int value_conv)
{
	size_t ks = ms[0]->key ? (size_t)ms[0]->key_size : 0, vmax = 8;
	MapEntry **e = xcalloc((size_t)nm, sizeof(*e));
	void **mem = xcalloc((size_t)nm, sizeof(*mem));
	int *n = xcalloc((size_t)nm, sizeof(int)), total = 0;
	for (int i = 0; i < nm; i++) {
		n[i] = map_read_entries(ms[i], &e[i], &mem[i], false);
		n[i] = n[i] < 0 ? 0 : n[i];
		qsort_r(e[i], (size_t)n[i], sizeof(MapEntry), cmp_entry_key, &ks);
		total += n[i];
		vmax = (size_t)ms[i]->val_size > vmax ? (size_t)ms[i]->val_size : vmax;
	}
	const void **keys = xcalloc((size_t)total + 1, sizeof(*keys));
	for (int i = 0, k = 0; i < nm; i++)
		for (int x = 0; x < n[i]; x++)
			keys[k++] = e[i][x].key;
	qsort_r(keys, (size_t)total, sizeof(*keys), cmp_key_ptr, &ks);
	void *zero = xcalloc(1, vmax);
	Row *r = xcalloc((size_t)total + 1, sizeof(Row));
	const void **vals = xcalloc((size_t)(total + 1) * (size_t)nm, sizeof(*vals));
	int nr = 0;
	for (int k = 0; k < total; k++) {
		if (k && !cmp_key_ptr(&keys[k - 1], &keys[k], &ks))
			continue;
		r[nr] = (Row){keys[k], vals + (size_t)nr * (size_t)nm};
		for (int i = 0; i < nm; i++) {
			const MapEntry *f = find_key(e[i], n[i], keys[k], ks);
			r[nr].vals[i] = f ? f->val : zero;
		}
		nr++;
	}
	Join j = {(const MapDesc *const *)ms, nm, &o->agg};
	print_rows(o, &j, r, nr, fmt, value_conv);
	for (int i = 0; i < nm; i++) {
		free(e[i]);
		free(mem[i]);
	}
	free(e), free(mem), free(n), free(keys), free(zero), free(r), free(vals);
}

void map_printa_d(const OutCtx *o, MapDesc *const *ms, int nm, const Fmt *fmt, int value_conv)
{
	if (!fmt)
		fputc('\n', o->f);
	if (nm == 1)
		print_map(o, ms[0], fmt, value_conv);
	else
		print_joined(o, ms, nm, fmt, value_conv);
	for (int i = 0; i < nm; i++)
		ms[i]->printed = true;
}

static bool is_agg_map(const MapDesc *m)
{
	return m->name[0] == '@' && type_is_agg(m->val);
}

void maps_print_d_exit(const OutCtx *o, const MapDesc *maps, int n)
{
	for (int i = 0; i < n; i++)
		if (!maps[i].printed && is_agg_map(&maps[i]))
			print_map(o, &maps[i], NULL, -1);
}

/* trunc(@a, n): keep the n largest (n < 0: the -n smallest); trunc(@a):
 * keep none */
void map_trunc_d(const MapDesc *m, bool all, int64_t keep)
{
	MapEntry *e = NULL;
	void *mem = NULL;
	int n = map_read_entries(m, &e, &mem, false);
	AggOpts by_value = {0};
	map_sort_d(&by_value, m, e, n < 0 ? 0 : n);
	int64_t lo = 0, hi = n; /* entries [lo, hi) stay */
	if (all)
		hi = 0;
	else if (keep >= 0)
		lo = n > keep ? n - keep : 0;
	else
		hi = n > -keep ? -keep : n;
	for (int i = 0; i < n; i++)
		if (i < lo || i >= hi)
			map_delete_key(m, e[i].key);
	free(e);
	free(mem);
}

bool agg_opt_set(AggOpts *ao, const char *name, const char *value)
{
	int v = value ? atoi(value) : 0;
	if (!strcmp(name, "aggsortkey"))
		ao->sortkey = true;
	else if (!strcmp(name, "aggsortrev"))
		ao->sortrev = true;
	else if (!strcmp(name, "aggsortkeypos"))
		ao->sortkeypos = v;
	else if (!strcmp(name, "aggsortpos"))
		ao->sortpos = v;
	else if (!strcmp(name, "aggpercpu"))
		ao->percpu = true;
	else if (!strcmp(name, "flowindent"))
		ao->flowindent = true;
	else if (!strcmp(name, "stackindent") && value) {
		ao->stackindent_set = true;
		ao->stackindent = v;
	}
	else
		return false;
	return true;
}
