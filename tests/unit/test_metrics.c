/* --metrics' text: maps as Prometheus metrics, without a kernel.  Counters
 * (_total, OpenMetrics' family name without it), gauges, stats, cumulative
 * histogram buckets with integer upper bounds, keys as escaped labels, the
 * forms a map cannot take, and names two maps would share. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "syms_check.h"
#include "export/metrics.h"

static Type t_i64 = {.kind = TY_INT, .size = 8, .bits = 64, .is_signed = true};
static Type t_str = {.kind = TY_STR, .size = 16};
static Type t_count = {.kind = TY_COUNT, .size = 8};
static Type t_max = {.kind = TY_MAX, .size = 16, .is_signed = true};
static Type t_stats = {.kind = TY_STATS, .size = 16, .is_signed = true};
static Type t_hist = {.kind = TY_HIST, .size = 8 * HIST_BUCKETS};
static Type t_lhist = {.kind = TY_LHIST, .lh_min = 0, .lh_max = 30, .lh_step = 10};
static Type t_kstack = {.kind = TY_KSTACK, .size = 8};
static Type *is_el[] = {&t_i64, &t_str};
static int is_off[] = {0, 8};
static Type t_tuple = {.kind = TY_TUPLE, .size = 24, .nelem = 2, .elem = is_el, .offset = is_off};

static OutCtx out = {.fmt = OUT_TEXT, .sym = &test_syms};

static char *write_map(const MapDesc *m, const MapEntry *e, int n, bool om)
{
	StrBuf sb = {0};
	metrics_map_write(&sb, &out, m, e, n, om);
	return sb.s ? sb.s : xstrdup("");
}

static void test_counter(void)
{
	struct { int64_t k; char s[16]; } key = {3, "a\"b\\c\nd"};
	int64_t v = 7;
	MapDesc m = {.name = "@calls", .key = &t_tuple, .val = &t_count};
	MapEntry e = {&key, &v};
	char *got = write_map(&m, &e, 1, false);
	CHECK_STR(got, "# HELP sonde_calls_total count() of @calls\n"
		       "# TYPE sonde_calls_total counter\n"
		       "sonde_calls_total{key0=\"3\",key1=\"a\\\"b\\\\c\\nd\"} 7\n");
	free(got);
	got = write_map(&m, &e, 1, true); /* OpenMetrics: the family has no _total */
	CHECK(strstr(got, "# TYPE sonde_calls counter\n") != NULL);
	CHECK(strstr(got, "sonde_calls_total{") != NULL);
	free(got);
}

static void test_gauges(void)
{
	int64_t mx[2] = {-5, 1}, never[2] = {0, 0}, st[2] = {4, 10};
	MapDesc m = {.name = "@", .val = &t_max};
	MapEntry e = {NULL, mx};
	char *got = write_map(&m, &e, 1, false);
	CHECK_STR(got, "# HELP sonde_map max() of @\n# TYPE sonde_map gauge\nsonde_map -5\n");
	free(got);
	e.val = never; /* max() that never saw a value: no sample */
	got = write_map(&m, &e, 1, false);
	CHECK(strstr(got, "sonde_map -") == NULL && strstr(got, "\nsonde_map ") == NULL);
	free(got);
	MapDesc s = {.name = "@st", .val = &t_stats};
	e.val = st;
	got = write_map(&s, &e, 1, false);
	CHECK(strstr(got, "sonde_st_count 4\n") && strstr(got, "sonde_st_avg 2\n") &&
	      strstr(got, "sonde_st_sum 10\n"));
	free(got);
}

static void test_hist(void)
{
	int64_t h[HIST_BUCKETS] = {0};
	h[0] = 1; /* a negative value */
	h[1] = 2; /* zeros */
	h[4] = 3; /* [4, 8) */
	MapDesc m = {.name = "@lat", .val = &t_hist};
	MapEntry e = {NULL, h};
	char *got = write_map(&m, &e, 1, false);
	CHECK(strstr(got, "# TYPE sonde_lat histogram\n") != NULL);
	CHECK(strstr(got, "sonde_lat_bucket{le=\"-1\"} 1\n") != NULL);
	CHECK(strstr(got, "sonde_lat_bucket{le=\"0\"} 3\n") != NULL);
	CHECK(strstr(got, "sonde_lat_bucket{le=\"3\"} 3\n") != NULL);
	CHECK(strstr(got, "sonde_lat_bucket{le=\"7\"} 6\n") != NULL);
	CHECK(strstr(got, "sonde_lat_bucket{le=\"9223372036854775807\"} 6\n") != NULL);
	CHECK(strstr(got, "sonde_lat_bucket{le=\"+Inf\"} 6\nsonde_lat_count 6\n") != NULL);
	free(got);
	/* lhist(v, 0, 30, 10): below 0, [0,10), [10,20), [20,30), 30 and up */
	int64_t l[5] = {1, 2, 0, 4, 8};
	MapDesc ml = {.name = "@l", .key = &t_i64, .val = &t_lhist};
	int64_t k = 1;
	MapEntry el = {&k, l};
	got = write_map(&ml, &el, 1, false);
	CHECK(strstr(got, "sonde_l_bucket{key0=\"1\",le=\"-1\"} 1\n") != NULL);
	CHECK(strstr(got, "sonde_l_bucket{key0=\"1\",le=\"9\"} 3\n") != NULL);
	CHECK(strstr(got, "sonde_l_bucket{key0=\"1\",le=\"29\"} 7\n") != NULL);
	CHECK(strstr(got, "sonde_l_bucket{key0=\"1\",le=\"+Inf\"} 15\n") != NULL);
	CHECK(strstr(got, "le=\"30\"") == NULL); /* the overflow bucket is +Inf's only */
	free(got);
}

/* a 0.26 record as the key: its field names are the labels; "le" (a
 * histogram bucket's own label) and "__"-names become key_NAME */
static void test_record_keys(void)
{
	static char *names[] = {"pid", "who"};
	Type rec = t_tuple;
	rec.names = names;
	struct { int64_t k; char s[16]; } key = {42, "bash"};
	int64_t v = 3;
	MapDesc m = {.name = "@calls", .key = &rec, .val = &t_count};
	MapEntry e = {&key, &v};
	char *got = write_map(&m, &e, 1, false);
	CHECK(strstr(got, "sonde_calls_total{pid=\"42\",who=\"bash\"} 3\n") != NULL);
	free(got);
	static char *clash[] = {"le", "__x"};
	rec.names = clash;
	int64_t h[HIST_BUCKETS] = {0};
	h[4] = 1;
	MapDesc mh = {.name = "@lat", .key = &rec, .val = &t_hist};
	MapEntry eh = {&key, h};
	got = write_map(&mh, &eh, 1, false);
	CHECK(strstr(got, "sonde_lat_bucket{key_le=\"42\",key___x=\"bash\",le=\"7\"} 1\n") != NULL);
	free(got);
}

static void test_labels(void)
{
	StrBuf sb = {0};
	metrics_label_escape(&sb, "ok \xc3\xa9 \xff\x80", 8); /* é is UTF-8; ff 80 are not */
	CHECK_STR(sb.s, "ok \xc3\xa9 \\\\xff\\\\x80");
	sb_free(&sb);
}

static void test_forms(void)
{
	const char *why;
	MapDesc strs = {.name = "@s", .key = &t_i64, .val = &t_str};
	CHECK(metrics_form(&strs, &why) == MF_NONE && why != NULL);
	MapDesc stacks = {.name = "@k", .key = &t_kstack, .val = &t_count};
	CHECK(metrics_form(&stacks, &why) == MF_NONE && strstr(why, "stacks"));
	MapDesc hist = {.name = "@h", .val = &t_hist};
	CHECK(metrics_form(&hist, &why) == MF_HISTOGRAM);
	/* @h's histogram and a gauge @h_count would share sonde_h_count */
	MapDesc hc = {.name = "@h_count", .val = &t_i64};
	char **a = metrics_sample_names(&hist), **b = metrics_sample_names(&hc);
	bool shared = false;
	for (int i = 0; a[i]; i++)
		for (int j = 0; b[j]; j++)
			shared |= !strcmp(a[i], b[j]);
	CHECK(shared);
	metrics_names_free(a);
	metrics_names_free(b);
}

static void test_health(void)
{
	StrBuf sb = {0};
	MetricsHealth h = {1, 2, 3};
	metrics_health_write(&sb, &h, false);
	CHECK(strstr(sb.s, "# TYPE sonde_lost_events_total counter\nsonde_lost_events_total 1\n"));
	CHECK(strstr(sb.s, "sonde_failed_map_updates_total 2\n") && strstr(sb.s, "sonde_attached_probes 3\n"));
	sb_free(&sb);
}

int main(void)
{
	test_counter();
	test_gauges();
	test_hist();
	test_labels();
	test_record_keys();
	test_forms();
	test_health();
	return check_done("test_metrics");
}
