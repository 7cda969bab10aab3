/* bpftrace 0.26's tseries() values (types.h: TY_TSERIES): the CPUs' slots
 * merged, and printed as bpftrace 0.26 prints them: a graph of the kept
 * intervals in text, a list of {interval_start, value} in JSON. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tseries_print.h"

typedef struct Slot {
	uint64_t tag; /* the interval's number + 1; 0: empty */
	int64_t value;
	uint64_t count, last_ns;
} Slot;

static Slot slot_at(const void *v, int i)
{
	Slot s;
	memcpy(&s, (const char *)v + (size_t)i * TSERIES_SLOT, sizeof(s));
	return s;
}

static bool value_less(const Type *t, int64_t a, int64_t b)
{
	return t->is_signed ? a < b : (uint64_t)a < (uint64_t)b;
}

static void combine(const Type *t, Slot *d, const Slot *s)
{
	switch (t->ts_agg) {
	case TS_AGG_SUM:
	case TS_AGG_AVG: d->value += s->value; break;
	case TS_AGG_MIN: if (value_less(t, s->value, d->value)) d->value = s->value; break;
	case TS_AGG_MAX: if (value_less(t, d->value, s->value)) d->value = s->value; break;
	default: if (s->last_ns > d->last_ns) d->value = s->value; break;
	}
	d->count += s->count;
	if (s->last_ns > d->last_ns)
		d->last_ns = s->last_ns;
}

void tseries_merge(const Type *t, void *dst, const void *src)
{
	for (int i = 0; i < t->ts_count; i++) {
		Slot d = slot_at(dst, i), s = slot_at(src, i);
		if (s.tag > d.tag)
			d = s;
		else if (s.tag && s.tag == d.tag)
			combine(t, &d, &s);
		memcpy((char *)dst + (size_t)i * TSERIES_SLOT, &d, sizeof(d));
	}
}

/* The intervals to print: from the oldest kept one that has a value to
 * the newest, each with its value or none (a gap) */
typedef struct Row {
	uint64_t start_ns;
	bool has;
	int64_t value;
} Row;

static int rows_of(const Type *t, const void *v, Row **out)
{
	uint64_t last = 0, first = UINT64_MAX;
	for (int i = 0; i < t->ts_count; i++)
		if (slot_at(v, i).tag > last)
			last = slot_at(v, i).tag;
	for (int i = 0; i < t->ts_count; i++) {
		uint64_t tag = slot_at(v, i).tag;
		if (tag && tag + (uint64_t)t->ts_count > last && tag < first)
			first = tag;
	}
	if (!last)
		return 0;
	int n = (int)(last - first + 1);
	Row *r = calloc((size_t)n, sizeof(*r));
	for (int i = 0; i < n; i++)
		r[i].start_ns = (first + (uint64_t)i - 1) * t->ts_interval;
	for (int i = 0; i < t->ts_count; i++) {
		Slot s = slot_at(v, i);
		if (!s.tag || s.tag < first)
			continue;
		Row *row = &r[s.tag - first];
		row->has = true;
		row->value = s.value;
		if (t->ts_agg == TS_AGG_AVG && s.count)
			row->value = t->is_signed ? s.value / (int64_t)s.count
						  : (int64_t)((uint64_t)s.value / s.count);
	}
	*out = r;
	return n;
}

static void put_interval_value(StrBuf *sb, const Type *t, int64_t v)
{
	if (t->is_signed)
		sb_printf(sb, "%lld", (long long)v);
	else
		sb_printf(sb, "%llu", (unsigned long long)v);
}

/* the unit the interval is a whole number of: its digits after the second */
static int unit_digits(uint64_t ns)
{
	if (ns % 1000000000 == 0)
		return 0;
	if (ns % 1000000 == 0)
		return 3;
	return ns % 1000 == 0 ? 6 : 9;
}

static void put_interval_time(StrBuf *sb, uint64_t ns, const char *fmt, int digits)
{
	char buf[64];
	time_t sec = (time_t)(ns / 1000000000);
	struct tm tm;
	localtime_r(&sec, &tm);
	strftime(buf, sizeof(buf), fmt, &tm);
	sb_puts(sb, buf);
	uint64_t frac = ns % 1000000000;
	for (int d = 9; d > digits; d--)
		frac /= 10;
	if (digits)
		sb_printf(sb, ".%0*llu", digits, (unsigned long long)frac);
}

#define GRAPH_WIDTH 53
#define PADDING 21

/* the range's ends: a flat line gets one either side */
static void range_of(const Type *t, const Row *r, int n, int64_t *lo, int64_t *hi)
{
	bool seen = false;
	for (int i = 0; i < n; i++) {
		if (!r[i].has)
			continue;
		if (!seen || value_less(t, r[i].value, *lo))
			*lo = r[i].value;
		if (!seen || value_less(t, *hi, r[i].value))
			*hi = r[i].value;
		seen = true;
	}
	if (*lo == *hi) {
		if (t->is_signed ? *lo != INT64_MIN : (uint64_t)*lo != 0)
			(*lo)--;
		if (t->is_signed ? *hi != INT64_MAX : (uint64_t)*hi != UINT64_MAX)
			(*hi)++;
	}
}

static void put_scale(StrBuf *sb, const Type *t, int indent, int64_t lo, int64_t hi)
{
	StrBuf a = {0}, b = {0};
	put_interval_value(&a, t, lo);
	put_interval_value(&b, t, hi);
	sb_printf(sb, "%*s%-*s%*s\n", indent, "", PADDING, a.s, GRAPH_WIDTH - PADDING, b.s);
	sb_free(&a);
	sb_free(&b);
}

static double dist(const Type *t, int64_t from, int64_t to)
{
	return t->is_signed ? (double)to - (double)from : (double)(uint64_t)to - (double)(uint64_t)from;
}

static void put_row(StrBuf *sb, const Type *t, const Row *r, int digits, int64_t lo, int64_t hi)
{
	char line[GRAPH_WIDTH + 1];
	memset(line, ' ', GRAPH_WIDTH);
	line[GRAPH_WIDTH] = 0;
	line[0] = line[GRAPH_WIDTH - 1] = '|';
	if (t->is_signed && lo < 0 && hi > 0) {
		int zero = (int)((float)GRAPH_WIDTH * (float)dist(t, lo, 0) / (float)dist(t, lo, hi));
		if (zero > 0)
			line[zero] = '.';
	}
	put_interval_time(sb, r->start_ns, "%H:%M:%S", digits);
	sb_putc(sb, ' ');
	if (!r->has) {
		sb_printf(sb, "%s -\n", line);
		return;
	}
	int at = (int)((float)(GRAPH_WIDTH - 1) * (float)dist(t, lo, r->value) / (float)dist(t, lo, hi));
	line[at < 0 ? 0 : at > GRAPH_WIDTH - 1 ? GRAPH_WIDTH - 1 : at] = '*';
	sb_printf(sb, "%s ", line);
	put_interval_value(sb, t, r->value);
	sb_putc(sb, '\n');
}

void tseries_text(StrBuf *sb, const Type *t, const void *v)
{
	Row *r = NULL;
	int n = rows_of(t, v, &r);
	if (!n) {
		sb_puts(sb, "<no data>");
		return;
	}
	int64_t lo = 0, hi = 0;
	range_of(t, r, n, &lo, &hi);
	uint64_t step = n > 1 ? (r[n - 1].start_ns - r[0].start_ns) / (uint64_t)(n - 1) : 0;
	int digits = unit_digits(step);
	int tw = 8 + (digits ? 1 + digits : 0); /* hh:mm:ss[.ms] */
	static const char *const units[] = {"", "", "", ".ms", "", "", ".us", "", "", ".ns"};
	put_scale(sb, t, tw + 1, lo, hi);
	sb_printf(sb, "hh:mm:ss%-*s|", tw + 1 - 8, units[digits]);
	for (int i = 0; i < GRAPH_WIDTH - 2; i++)
		sb_putc(sb, '_');
	sb_puts(sb, "|\n");
	for (int i = 0; i < n; i++)
		put_row(sb, t, &r[i], digits, lo, hi);
	sb_printf(sb, "%*sv", tw + 1, "");
	for (int i = 0; i < GRAPH_WIDTH - 2; i++)
		sb_putc(sb, '_');
	sb_puts(sb, "v\n");
	put_scale(sb, t, tw + 1, lo, hi);
	free(r);
}

void tseries_json(StrBuf *sb, const Type *t, const void *v)
{
	Row *r = NULL;
	int n = rows_of(t, v, &r);
	sb_putc(sb, '[');
	for (int i = 0; i < n; i++) {
		sb_puts(sb, i ? ", {\"interval_start\": \"" : "{\"interval_start\": \"");
		put_interval_time(sb, r[i].start_ns, "%Y-%m-%d %H:%M:%S", 9);
		sb_puts(sb, "\", \"value\": ");
		if (r[i].has)
			put_interval_value(sb, t, r[i].value);
		else
			sb_puts(sb, "null");
		sb_putc(sb, '}');
	}
	sb_putc(sb, ']');
	free(r);
}
