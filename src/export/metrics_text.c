/* Maps as Prometheus metrics (text format 0.0.4, or OpenMetrics 1.0):
 *  - count() and sum(): counters, "sonde_NAME_total";
 *  - hist() and lhist(): histograms, cumulative "le" buckets (a bucket's
 *    upper bound is the largest integer it holds: [4, 8) is le="7"), the
 *    "+Inf" bucket and _count.  No _sum: the maps count values per bucket
 *    and never add them up, and a made-up sum would be wrong;
 *  - avg(), min(), max() and integers: gauges; stats(): the gauges
 *    NAME_count, NAME_avg and NAME_sum;
 *  - keys: labels key0, key1... (a tuple's elements), as sonde prints them.
 * Every key gets every bucket, so that a series never appears mid-run. */
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "../util/bytes.h"

MetricForm metrics_form(const MapDesc *m, const char **why)
{
	*why = NULL;
	const Type *k = m->key;
	for (int i = 0; k && i < (k->kind == TY_TUPLE ? k->nelem : 1); i++) {
		TypeKind kk = (k->kind == TY_TUPLE ? k->elem[i] : k)->kind;
		if (kk == TY_KSTACK || kk == TY_USTACK || kk == TY_PYSTACK) {
			*why = "it is keyed by stacks (-f pprof or -f folded show those)";
			return MF_NONE;
		}
	}
	switch (m->val->kind) {
	case TY_COUNT:
	case TY_SUM: return MF_COUNTER;
	case TY_AVG:
	case TY_MIN:
	case TY_MAX: return MF_GAUGE;
	case TY_INT: return m->val->pointee ? MF_NONE : MF_GAUGE;
	case TY_STATS: return MF_STATS;
	case TY_HIST:
	case TY_LHIST: return MF_HISTOGRAM;
	default: break;
	}
	*why = "its values are not numbers";
	return MF_NONE;
}

void metrics_family(StrBuf *sb, const MapDesc *m)
{
	sb_puts(sb, "sonde_");
	sb_puts(sb, m->name[0] == '@' && m->name[1] ? m->name + 1 : "map");
}

static char *family_with(const MapDesc *m, const char *suffix)
{
	StrBuf sb = {0};
	metrics_family(&sb, m);
	sb_puts(&sb, suffix);
	return sb.s;
}

char **metrics_sample_names(const MapDesc *m)
{
	const char *why;
	static const char *const suffixes[][5] = {
		[MF_NONE] = {NULL},
		[MF_COUNTER] = {"_total", "", NULL}, /* "": OpenMetrics' family */
		[MF_GAUGE] = {"", NULL},
		[MF_STATS] = {"_count", "_avg", "_sum", NULL},
		[MF_HISTOGRAM] = {"_bucket", "_count", "_sum", "", NULL},
	};
	const char *const *suf = suffixes[metrics_form(m, &why)];
	char **names = xcalloc(6, sizeof(char *));
	for (int i = 0; suf[i]; i++)
		names[i] = family_with(m, suf[i]);
	return names;
}

void metrics_names_free(char **names)
{
	for (int i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
}

/* ---- labels ---- */

/* length of the UTF-8 sequence at s (at most n bytes), 0 if invalid */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3
		   : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
	if (!len || len > n || (len == 2 && s[0] < 0xc2))
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

void metrics_label_escape(StrBuf *sb, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		size_t len = utf8_len(u + i, n - i);
		if (!len) {
			sb_printf(sb, "\\\\x%02x", u[i++]);
			continue;
		}
		if (u[i] == '\\' || u[i] == '"')
			sb_putc(sb, '\\');
		if (u[i] == '\n')
			sb_puts(sb, "\\n");
		else
			sb_putn(sb, s + i, len);
		i += len;
	}
}

/* {key0="a",key1="3"} (nothing for a keyless map), with `extra` (a
 * label="value" pair, le's) last */
void metrics_key_name(char *buf, size_t len, const Type *key, int i)
{
	const char *name = key && key->kind == TY_TUPLE && key->names ? key->names[i] : NULL;
	if (!name)
		snprintf(buf, len, "key%d", i);
	else if (!strcmp(name, "le") || !strncmp(name, "__", 2))
		snprintf(buf, len, "key_%s", name);
	else
		snprintf(buf, len, "%s", name);
}

static void put_labels(StrBuf *sb, const OutCtx *o, const MapDesc *m, const void *key,
		       const char *extra)
{
	const Type *k = m->key;
	int n = !k ? 0 : k->kind == TY_TUPLE ? k->nelem : 1;
	if (!n && !extra)
		return;
	StrBuf v = {0};
	sb_putc(sb, '{');
	for (int i = 0; i < n; i++) {
		const Type *t = k->kind == TY_TUPLE ? k->elem[i] : k;
		const char *d = (const char *)key + (k->kind == TY_TUPLE ? k->offset[i] : 0);
		sb_reset(&v);
		value_format(&v, o, t, d, true);
		char name[64];
		metrics_key_name(name, sizeof(name), k, i);
		sb_printf(sb, "%s%s=\"", i ? "," : "", name);
		metrics_label_escape(sb, v.s ? v.s : "", v.len);
		sb_putc(sb, '"');
	}
	if (extra)
		sb_printf(sb, "%s%s", n ? "," : "", extra);
	sb_putc(sb, '}');
	sb_free(&v);
}

/* ---- values ---- */

static void header(StrBuf *sb, const MapDesc *m, const char *suffix, const char *type,
		   const char *what)
{
	StrBuf f = {0};
	metrics_family(&f, m);
	sb_puts(&f, suffix);
	sb_printf(sb, "# HELP %s %s of %s\n# TYPE %s %s\n", f.s, what, m->name, f.s, type);
	sb_free(&f);
}

static void sample(StrBuf *sb, const OutCtx *o, const MapDesc *m, const char *suffix,
		   const void *key, const char *extra, const char *value)
{
	metrics_family(sb, m);
	sb_puts(sb, suffix);
	put_labels(sb, o, m, key, extra);
	sb_printf(sb, " %s\n", value);
}

static const char *agg_word(const Type *t)
{
	switch (t->kind) {
	case TY_COUNT: return "count()";
	case TY_SUM: return "sum()";
	case TY_AVG: return "avg()";
	case TY_MIN: return "min()";
	case TY_MAX: return "max()";
	case TY_HIST: return "hist()";
	case TY_LHIST: return "lhist()";
	default: return "the values";
	}
}

/* a counter, or a gauge (NULL when min()/max() never saw a value) */
static const char *scalar_text(char *buf, size_t len, const Type *t, const void *v)
{
	int64_t x = rd64(v);
	if (t->kind == TY_AVG) {
		int64_t cnt = rd64(v), total = rd64((const char *)v + 8);
		x = cnt ? total / cnt : 0; /* as sonde prints it */
	} else if ((t->kind == TY_MIN || t->kind == TY_MAX) && !rd64((const char *)v + 8)) {
		return NULL;
	}
	bool sgn = t->kind != TY_COUNT && (t->is_signed || t->kind == TY_AVG);
	if (sgn)
		snprintf(buf, len, "%lld", (long long)x);
	else
		snprintf(buf, len, "%llu", (unsigned long long)x);
	return buf;
}

static void write_scalars(StrBuf *sb, const OutCtx *o, const MapDesc *m, const MapEntry *e, int n,
			  bool om)
{
	bool counter = m->val->kind == TY_COUNT || m->val->kind == TY_SUM;
	header(sb, m, counter && !om ? "_total" : "", counter ? "counter" : "gauge", agg_word(m->val));
	char buf[32];
	for (int i = 0; i < n; i++) {
		const char *v = scalar_text(buf, sizeof(buf), m->val, e[i].val);
		if (v)
			sample(sb, o, m, counter ? "_total" : "", e[i].key, NULL, v);
	}
}

static void write_stats(StrBuf *sb, const OutCtx *o, const MapDesc *m, const MapEntry *e, int n)
{
	static const char *const parts[] = {"_count", "_avg", "_sum"};
	static const char *const what[] = {"stats() count", "stats() average", "stats() total"};
	char buf[32];
	for (int p = 0; p < 3; p++) {
		header(sb, m, parts[p], "gauge", what[p]);
		for (int i = 0; i < n; i++) {
			int64_t cnt = rd64(e[i].val), total = rd64((const char *)e[i].val + 8);
			int64_t x = p == 0 ? cnt : p == 2 ? total : cnt ? total / cnt : 0;
			snprintf(buf, sizeof(buf), "%lld", (long long)x);
			sample(sb, o, m, parts[p], e[i].key, NULL, buf);
		}
	}
}

/* The buckets that have a finite upper bound, and bucket i's: the largest
 * integer it counts (hist: bucket 0 < 0, 1 is 0, 2+k is [2^k, 2^(k+1));
 * lhist: 0 is below min, then [lo, lo + step), the last is >= max) */
static int finite_buckets(const Type *t)
{
	if (t->kind == TY_HIST)
		return t->hist_wide ? hist_nbuckets(t) : HIST_BUCKETS - 1;
	return lhist_buckets(t) - 1;
}

static void bucket_le(char *buf, size_t len, const Type *t, int i)
{
	if (t->kind == TY_HIST && t->hist_wide && i > 0) { /* 0.26's (types.h) */
		snprintf(buf, len, "le=\"%llu\"", (unsigned long long)hist_low(t, i + 1) - 1);
		return;
	}
	if (t->kind == TY_HIST) {
		if (i < 2)
			snprintf(buf, len, "le=\"%d\"", i - 1);
		else
			snprintf(buf, len, "le=\"%llu\"", (unsigned long long)((2ULL << (i - 2)) - 1));
		return;
	}
	int64_t hi = t->lh_min + (int64_t)i * t->lh_step - 1; /* bucket 0: min - 1 */
	snprintf(buf, len, "le=\"%lld\"", (long long)hi);
}

static void write_histogram(StrBuf *sb, const OutCtx *o, const MapDesc *m, const MapEntry *e,
			    int n)
{
	header(sb, m, "", "histogram", agg_word(m->val));
	const Type *t = m->val;
	char le[48], val[32];
	int nb = finite_buckets(t), all = t->kind == TY_HIST ? hist_nbuckets(t) : lhist_buckets(t);
	for (int i = 0; i < n; i++) {
		const char *v = e[i].val;
		uint64_t cum = 0;
		for (int b = 0; b < nb; b++) {
			cum += (uint64_t)rd64(v + 8 * b);
			bucket_le(le, sizeof(le), t, b);
			snprintf(val, sizeof(val), "%llu", (unsigned long long)cum);
			sample(sb, o, m, "_bucket", e[i].key, le, val);
		}
		for (int b = nb; b < all; b++)
			cum += (uint64_t)rd64(v + 8 * b);
		snprintf(val, sizeof(val), "%llu", (unsigned long long)cum);
		sample(sb, o, m, "_bucket", e[i].key, "le=\"+Inf\"", val);
		sample(sb, o, m, "_count", e[i].key, NULL, val);
	}
}

void metrics_map_write(StrBuf *sb, const OutCtx *o, const MapDesc *m, const MapEntry *e, int n,
		       bool om)
{
	const char *why;
	OutCtx text = *o;
	text.fmt = OUT_TEXT; /* keys as sonde prints them in text */
	switch (metrics_form(m, &why)) {
	case MF_COUNTER:
	case MF_GAUGE: write_scalars(sb, &text, m, e, n, om); break;
	case MF_STATS: write_stats(sb, &text, m, e, n); break;
	case MF_HISTOGRAM: write_histogram(sb, &text, m, e, n); break;
	case MF_NONE: break;
	}
}

void metrics_health_write(StrBuf *sb, const MetricsHealth *h, bool om)
{
	static const struct {
		const char *name, *help;
		bool counter;
	} rows[] = {
		{"sonde_lost_events", "Events lost because the event ring was full", true},
		{"sonde_failed_map_updates", "Map updates that failed (map full or busy)", true},
		{"sonde_attached_probes", "Probes attached", false},
	};
	uint64_t v[] = {h->lost_events, h->failed_updates, h->probes};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *suf = rows[i].counter ? "_total" : "";
		sb_printf(sb, "# HELP %s%s %s\n# TYPE %s%s %s\n%s%s %llu\n", rows[i].name,
			  om ? "" : suf, rows[i].help, rows[i].name, om ? "" : suf,
			  rows[i].counter ? "counter" : "gauge", rows[i].name, suf,
			  (unsigned long long)v[i]);
	}
}
