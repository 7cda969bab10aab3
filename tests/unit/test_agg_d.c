/* D dialect: aggregations printed as dtrace(1) prints them (map_print_d.c),
 * from made-up map contents.  Expected texts come from DTrace's own test
 * suites (Oracle dtrace-utils test/unittest/aggs: tst.signedkeys,
 * tst.llquantize_basic, tst.stddev2) and from libdtrace's formats. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "syms_check.h"
#include "runtime/output.h"
#include "dtrace/runtime_d.h"

static Type t_i8 = {.kind = TY_INT, .size = 8, .bits = 8, .is_signed = true};
static Type t_i16 = {.kind = TY_INT, .size = 8, .bits = 16, .is_signed = true};
static Type t_i32 = {.kind = TY_INT, .size = 8, .bits = 32, .is_signed = true};
static Type t_i64 = {.kind = TY_INT, .size = 8, .bits = 64, .is_signed = true};
static Type t_str = {.kind = TY_STR, .size = 16};
static Type t_count = {.kind = TY_COUNT, .size = 8};
static Type t_sum = {.kind = TY_SUM, .size = 8, .is_signed = true};
static Type t_avg = {.kind = TY_AVG, .size = 16, .is_signed = true};
static Type t_min = {.kind = TY_MIN, .size = 16, .is_signed = true};
static Type t_stddev = {.kind = TY_STDDEV, .size = 32, .is_signed = true};
static Type t_quant = {.kind = TY_QUANTIZE, .size = 8 * QUANT_BUCKETS, .is_signed = true};

static Type *si_el[] = {&t_str, &t_i64};
static int si_off[] = {0, 16};
static Type t_tup_si = {.kind = TY_TUPLE, .size = 24, .nelem = 2, .elem = si_el, .offset = si_off};

typedef struct SI {
	char s[16];
	int64_t i;
} SI;

static char *show_opts(const Type *key, const Type *val, MapEntry *e, int n, AggOpts ao,
		       const Fmt *fmt, int value_conv, int64_t normal)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);
	OutCtx o = {.f = mf, .fmt = OUT_TEXT, .fe = &d_frontend_rt, .agg = ao, .sym = &test_syms};
	MapDesc m = {.name = "@a", .key = key, .val = val, .fd = -1, .normal = normal};
	map_print_d_entries(&o, &m, e, n, fmt, value_conv);
	fclose(mf);
	return buf;
}

static char *show(const Type *key, const Type *val, MapEntry *e, int n)
{
	return show_opts(key, val, e, n, (AggOpts){0}, NULL, -1, 0);
}

#define SHOW_CHECK(want, ...)                                                  \
	do {                                                                   \
		char *got_ = show(__VA_ARGS__);                                \
		CHECK_STR(got_, want);                                         \
		free(got_);                                                    \
	} while (0)

#define SP49 "                                                 " /* after a 1-letter key */

static void test_scalars(void)
{
	int64_t c = 10;
	MapEntry e1 = {NULL, &c};
	SHOW_CHECK("               10\n", NULL, &t_count, &e1, 1);

	/* string keys: "  %-50s", values " %16lld", sorted by value */
	char k[3][16] = {"dtrace", "bash", "sshd"};
	int64_t v[3] = {7, -3, 120};
	MapEntry e[3] = {{k[0], &v[0]}, {k[1], &v[1]}, {k[2], &v[2]}};
	SHOW_CHECK("  bash                                                             -3\n"
		   "  dtrace                                                            7\n"
		   "  sshd                                                            120\n",
		   &t_str, &t_sum, e, 3);

	/* avg: total / count, signed; min as is */
	int64_t a[2] = {3, -10};
	MapEntry ea = {NULL, a};
	SHOW_CHECK("               -3\n", NULL, &t_avg, &ea, 1);
	int64_t mn[2] = {-5, 1};
	MapEntry em = {NULL, mn};
	SHOW_CHECK("               -5\n", NULL, &t_min, &em, 1);
}

/* tst.signedkeys: integer keys print at their type's width (8 and 16 bits
 * unsigned), sort as unsigned; aggsortkey */
static void test_signed_keys(void)
{
	static const char *want[] = {
		"   0                0\n   1                1\n   2                2\n"
		" 254               -2\n 255               -1\n",
		"     0                0\n     1                1\n     2                2\n"
		" 65534               -2\n 65535               -1\n",
		"        0                0\n        1                1\n        2                2\n"
		"       -2               -2\n       -1               -1\n",
		"                0                0\n                1                1\n"
		"                2                2\n               -2               -2\n"
		"               -1               -1\n",
	};
	Type *kt[] = {&t_i8, &t_i16, &t_i32, &t_i64};
	for (int t = 0; t < 4; t++) {
		int64_t keys[5] = {-2, -1, 0, 1, 2}, vals[5] = {-2, -1, 0, 1, 2};
		MapEntry e[5];
		for (int i = 0; i < 5; i++)
			e[i] = (MapEntry){&keys[(i + 3) % 5], &vals[(i + 3) % 5]};
		char *got = show_opts(kt[t], &t_sum, e, 5, (AggOpts){.sortkey = true}, NULL, -1, 0);
		CHECK_STR(got, want[t]);
		free(got);
	}
}

static void test_sort_options(void)
{
	SI k[3] = {{"b", 2}, {"a", 3}, {"c", 1}};
	int64_t v[3] = {5, 5, 1};
	MapEntry e[3] = {{&k[0], &v[0]}, {&k[1], &v[1]}, {&k[2], &v[2]}};
	const char *c = "  c" SP49 "                1                1\n";
	const char *a = "  a" SP49 "                3                5\n";
	const char *b = "  b" SP49 "                2                5\n";
	char want[512];
	/* by value, ties by key */
	snprintf(want, sizeof(want), "%s%s%s", c, a, b);
	SHOW_CHECK(want, &t_tup_si, &t_sum, e, 3);
	/* reversed */
	char *got = show_opts(&t_tup_si, &t_sum, e, 3, (AggOpts){.sortrev = true}, NULL, -1, 0);
	snprintf(want, sizeof(want), "%s%s%s", b, a, c);
	CHECK_STR(got, want);
	free(got);
	/* by key, the second key element first */
	got = show_opts(&t_tup_si, &t_sum, e, 3, (AggOpts){.sortkey = true, .sortkeypos = 1}, NULL,
			-1, 0);
	snprintf(want, sizeof(want), "%s%s%s", c, b, a);
	CHECK_STR(got, want);
	free(got);
}

static void test_quantize(void)
{
	int64_t q[QUANT_BUCKETS] = {0};
	q[QUANT_ZERO + 1 + 2] = 3; /* [4, 8) */
	q[QUANT_ZERO + 1 + 3] = 1; /* [8, 16) */
	q[QUANT_ZERO - 1 - 1] = 4; /* (-4, -2] */
	MapEntry e = {NULL, q};
	SHOW_CHECK("\n           value  ------------- Distribution ------------- count    \n"
		   "              -4 |                                         0        \n"
		   "              -2 |@@@@@@@@@@@@@@@@@@@@                     4        \n"
		   "              -1 |                                         0        \n"
		   "               0 |                                         0        \n"
		   "               1 |                                         0        \n"
		   "               2 |                                         0        \n"
		   "               4 |@@@@@@@@@@@@@@@                          3        \n"
		   "               8 |@@@@@                                    1        \n"
		   "              16 |                                         0        \n"
		   "\n",
		   NULL, &t_quant, &e, 1);
	/* an empty one shows the buckets around 0 */
	int64_t z[QUANT_BUCKETS] = {0};
	MapEntry ez = {NULL, z};
	SHOW_CHECK("\n           value  ------------- Distribution ------------- count    \n"
		   "              -1 |                                         0        \n"
		   "               0 |                                         0        \n"
		   "               1 |                                         0        \n"
		   "\n",
		   NULL, &t_quant, &ez, 1);
}

static void test_lquantize(void)
{
	/* lquantize(v, 0, 10, 5): < 0, 0, 5, >= 10 */
	Type lq = {.kind = TY_LHIST, .lh_min = 0, .lh_max = 10, .lh_step = 5, .size = 32,
		   .is_signed = true};
	int64_t d[4] = {2, 0, 0, 6};
	char key[16] = "k";
	MapEntry e = {key, d};
	SHOW_CHECK("  k" SP49 "\n"
		   "           value  ------------- Distribution ------------- count    \n"
		   "             < 0 |@@@@@@@@@@                               2        \n"
		   "               0 |                                         0        \n"
		   "               5 |                                         0        \n"
		   "           >= 10 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@           6        \n"
		   "\n",
		   &t_str, &lq, &e, 1);
}

/* negative counts (negative increments): bars to the left; both signs:
 * half bars around a centre line (tst.llquantize_basic's negvals/allvals) */
static void test_llquantize(void)
{
	Type t = {.kind = TY_LLQUANTIZE, .llq_factor = 2, .llq_low = 0, .llq_high = 1,
		  .llq_steps = 2, .is_signed = true};
	t.size = 8 * llquant_buckets(&t);
	int64_t d[7] = {0};
	d[4] = 1;  /* value 1 */
	d[5] = -1; /* value 2 */
	MapEntry e = {NULL, d};
	SHOW_CHECK("\n           value  ------------- Distribution ------------- count    \n"
		   "               0                     |                     0        \n"
		   "               1                     |@@@@@@@@@@           1        \n"
		   "               2           @@@@@@@@@@|                     -1       \n"
		   "            >= 4                     |                     0        \n"
		   "\n",
		   NULL, &t, &e, 1);
}

/* tst.stddev2's numbers: stddev of {0..} as DTrace computes it */
static void test_stddev(void)
{
	/* values 2, 4, 4, 4, 5, 5, 7, 9: mean 5, population stddev 2 */
	int64_t vals[] = {2, 4, 4, 4, 5, 5, 7, 9};
	uint64_t s[4] = {0};
	for (int i = 0; i < 8; i++) {
		s[0]++;
		s[1] += (uint64_t)vals[i];
		s[2] += (uint64_t)(vals[i] * vals[i]);
	}
	MapEntry e = {NULL, s};
	SHOW_CHECK("                2\n", NULL, &t_stddev, &e, 1);
	/* big values: the sum of squares passes 64 bits */
	uint64_t b[4] = {2, 0, 0, 0};
	unsigned __int128 sq = (unsigned __int128)4000000000ULL * 4000000000ULL * 2;
	b[1] = 0; /* values +4e9 and -4e9: mean 0 */
	memcpy(&b[2], &sq, 16);
	MapEntry eb = {NULL, b};
	SHOW_CHECK("       4000000000\n", NULL, &t_stddev, &eb, 1);
	CHECK(stddev_d(b, 1) == 4000000000ULL);
}

static void test_normalize(void)
{
	int64_t v = 19000 * 5;
	MapEntry e = {NULL, &v};
	char *got = show_opts(NULL, &t_sum, &e, 1, (AggOpts){0}, NULL, -1, 5);
	CHECK_STR(got, "            19000\n");
	free(got);
}

static void test_printa_format(void)
{
	Fmt f;
	int off;
	char err[128];
	const char *text = "%s is %d: %d\n"; /* the '@' of "%@d" taken out by sema */
	CHECK(fmt_parse(text, strlen(text), &f, &off, err, sizeof(err)));
	SI k[2] = {{"x", 7}, {"y", 8}};
	int64_t v[2] = {40, 2};
	MapEntry e[2] = {{&k[0], &v[0]}, {&k[1], &v[1]}};
	char *got = show_opts(&t_tup_si, &t_count, e, 2, (AggOpts){0}, &f, 2, 0);
	CHECK_STR(got, "y is 8: 2\nx is 7: 40\n");
	free(got);
	fmt_free(&f);
}

static void test_opts(void)
{
	AggOpts ao = {0};
	CHECK(agg_opt_set(&ao, "aggsortkey", NULL) && ao.sortkey);
	CHECK(agg_opt_set(&ao, "aggsortkeypos", "2") && ao.sortkeypos == 2);
	CHECK(agg_opt_set(&ao, "aggsortrev", NULL) && ao.sortrev);
	CHECK(!agg_opt_set(&ao, "bufsize", "4m"));
}

int main(void)
{
	test_scalars();
	test_signed_keys();
	test_sort_options();
	test_quantize();
	test_lquantize();
	test_llquantize();
	test_stddev();
	test_normalize();
	test_printa_format();
	test_opts();
	return check_done("agg_d");
}
