/* Map and value printing.  Every expected string below was printed by
 * bpftrace 0.17 for the script in the comment (text or -f json). */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "syms_check.h"
#include "sym/ksyms.h"
#include "runtime/output.h"

#define AT52 "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@"
#define SP52 "                                                    "
#define FULL "|" AT52 "|\n"
#define NONE "|" SP52 "|\n"

static Type t_i64 = {.kind = TY_INT, .size = 8, .bits = 64, .is_signed = true};
static Type t_u64 = {.kind = TY_INT, .size = 8, .bits = 64};
static Type t_u32 = {.kind = TY_INT, .size = 8, .bits = 32};
static Type t_str = {.kind = TY_STR, .size = 16};
static Type t_count = {.kind = TY_COUNT, .size = 8};
static Type t_sum = {.kind = TY_SUM, .size = 8, .is_signed = true};
static Type t_usum = {.kind = TY_SUM, .size = 8};
static Type t_min = {.kind = TY_MIN, .size = 16, .is_signed = true};
static Type t_max = {.kind = TY_MAX, .size = 16, .is_signed = true};
static Type t_avg = {.kind = TY_AVG, .size = 16, .is_signed = true};
static Type t_stats = {.kind = TY_STATS, .size = 16, .is_signed = true};
static Type t_hist = {.kind = TY_HIST, .size = 8 * HIST_BUCKETS};
static Type t_buf = {.kind = TY_BUF, .size = 8 + 8};
static Type t_inet = {.kind = TY_INET, .size = 24};
static Type t_ksym = {.kind = TY_KSYM, .size = 8};
static Type t_usym = {.kind = TY_USYM, .size = 16};
static Type t_kstack = {.kind = TY_KSTACK, .size = 8};
static Type t_kstack2 = {.kind = TY_KSTACK, .size = 8, .stack_depth = 2};
static Type t_ustack = {.kind = TY_USTACK, .size = 16};

static Type *is_el[] = {&t_i64, &t_str};
static int is_off[] = {0, 8};
static Type t_tup_is = {.kind = TY_TUPLE, .size = 24, .nelem = 2, .elem = is_el, .offset = is_off};
static Type *si_el[] = {&t_str, &t_i64};
static int si_off[] = {0, 16};
static Type t_tup_si = {.kind = TY_TUPLE, .size = 24, .nelem = 2, .elem = si_el, .offset = si_off};
/* ((2, "b"), 3) */
static Type *nest_el[] = {&t_tup_is, &t_i64};
static int nest_off[] = {0, 24};
static Type t_nest = {.kind = TY_TUPLE, .size = 32, .nelem = 2, .elem = nest_el, .offset = nest_off};
static Type *ks_el[] = {&t_kstack2, &t_i64};
static int ks_off[] = {0, 8};
static Type t_tup_ks = {.kind = TY_TUPLE, .size = 16, .nelem = 2, .elem = ks_el, .offset = ks_off};

static Type lh(int64_t min, int64_t max, int64_t step)
{
	return (Type){.kind = TY_LHIST, .lh_min = min, .lh_max = max, .lh_step = step,
		      .size = 8 * (int)((max - min) / step + 2)};
}

typedef struct IS {
	int64_t i;
	char s[16];
} IS;
typedef struct SI {
	char s[16];
	int64_t i;
} SI;
typedef struct Agg2 {
	int64_t a, b;
} Agg2;

static OutCtx ctx(OutFormat f, FILE *out)
{
	return (OutCtx){.f = out, .fmt = f, .sym = &test_syms};
}

/* Print through map_print_entries into a string (caller frees). */
static char *show(OutFormat f, const char *name, const Type *key, const Type *val,
		  MapEntry *e, int n, int top, int div)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);
	OutCtx o = ctx(f, mf);
	MapDesc m = {.name = name, .key = key, .val = val, .fd = -1};
	map_print_entries(&o, &m, e, n, top, div);
	fclose(mf);
	return buf;
}

#define SHOW_CHECK(want, ...)                                                  \
	do {                                                                   \
		char *got_ = show(__VA_ARGS__);                                \
		CHECK_STR(got_, want);                                         \
		free(got_);                                                    \
	} while (0)

/* every depth's stack map is fd (the tests' stacks share one map) */
static const int *stack_fds_all(int fd)
{
	static int fds[STACK_DEPTH_MAX + 1];
	for (int i = 0; i <= STACK_DEPTH_MAX; i++)
		fds[i] = fd;
	return fds;
}

static char *valstr(OutFormat f, const Type *t, const void *v, int kfd)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);
	OutCtx o = ctx(f, mf);
	o.kstack_fds = o.ustack_fds = stack_fds_all(kfd);
	value_print(&o, t, v);
	fclose(mf);
	return buf;
}

#define VAL_CHECK(want, ...)                                                   \
	do {                                                                   \
		char *got_ = valstr(__VA_ARGS__);                              \
		CHECK_STR(got_, want);                                         \
		free(got_);                                                    \
	} while (0)

/* BEGIN { @x = 5; @c = count(); @s = sum(3); @mn = min(4); @mx = max(7);
 *         @a = avg(9); @a = avg(4); @st = stats(4); @str = "hello";
 *         @t = (1, "two"); @[1, "x"] = 1; } */
static void test_scalars(void)
{
	int64_t five = 5, one = 1, three = 3;
	Agg2 mn = {4, 1}, mx = {7, 1}, a = {2, 13}, st = {1, 4};
	IS t = {1, "two"}, k = {1, "x"};
	char str[16] = "hello";
	SHOW_CHECK("@x: 5\n", OUT_TEXT, "@x", NULL, &t_i64, &(MapEntry){NULL, &five}, 1, 0, 0);
	SHOW_CHECK("@c: 1\n", OUT_TEXT, "@c", NULL, &t_count, &(MapEntry){NULL, &one}, 1, 0, 0);
	SHOW_CHECK("@s: 3\n", OUT_TEXT, "@s", NULL, &t_sum, &(MapEntry){NULL, &three}, 1, 0, 0);
	SHOW_CHECK("@mn: 4\n", OUT_TEXT, "@mn", NULL, &t_min, &(MapEntry){NULL, &mn}, 1, 0, 0);
	SHOW_CHECK("@mx: 7\n", OUT_TEXT, "@mx", NULL, &t_max, &(MapEntry){NULL, &mx}, 1, 0, 0);
	SHOW_CHECK("@a: 6\n\n", OUT_TEXT, "@a", NULL, &t_avg, &(MapEntry){NULL, &a}, 1, 0, 0);
	SHOW_CHECK("@st: count 1, average 4, total 4\n\n", OUT_TEXT, "@st", NULL, &t_stats,
		   &(MapEntry){NULL, &st}, 1, 0, 0);
	SHOW_CHECK("@str: hello\n", OUT_TEXT, "@str", NULL, &t_str, &(MapEntry){NULL, str}, 1, 0, 0);
	SHOW_CHECK("@t: (1, two)\n", OUT_TEXT, "@t", NULL, &t_tup_is, &(MapEntry){NULL, &t}, 1, 0, 0);
	SHOW_CHECK("@[1, x]: 1\n", OUT_TEXT, "@", &t_tup_is, &t_i64, &(MapEntry){&k, &one}, 1, 0, 0);
	/* json of the same script */
	SHOW_CHECK("{\"type\": \"map\", \"data\": {\"@x\": 5}}\n", OUT_JSON, "@x", NULL, &t_i64,
		   &(MapEntry){NULL, &five}, 1, 0, 0);
	SHOW_CHECK("{\"type\": \"map\", \"data\": {\"@\": {\"1,x\": 1}}}\n", OUT_JSON, "@",
		   &t_tup_is, &t_i64, &(MapEntry){&k, &one}, 1, 0, 0);
	SHOW_CHECK("{\"type\": \"stats\", \"data\": {\"@a\": 6}}\n", OUT_JSON, "@a", NULL, &t_avg,
		   &(MapEntry){NULL, &a}, 1, 0, 0);
	SHOW_CHECK("{\"type\": \"stats\", \"data\": {\"@st\": {\"count\": 1, \"average\": 4, "
		   "\"total\": 4}}}\n",
		   OUT_JSON, "@st", NULL, &t_stats, &(MapEntry){NULL, &st}, 1, 0, 0);
	SHOW_CHECK("{\"type\": \"map\", \"data\": {\"@str\": \"hello\"}}\n", OUT_JSON, "@str", NULL,
		   &t_str, &(MapEntry){NULL, str}, 1, 0, 0);
	SHOW_CHECK("{\"type\": \"map\", \"data\": {\"@t\": [1,\"two\"]}}\n", OUT_JSON, "@t", NULL,
		   &t_tup_is, &(MapEntry){NULL, &t}, 1, 0, 0);
	SHOW_CHECK("{\"type\": \"map\", \"data\": {\"@mx\": 7}}\n", OUT_JSON, "@mx", NULL, &t_max,
		   &(MapEntry){NULL, &mx}, 1, 0, 0);
}

/* @k["b"] = 2; @k["a"] = 2; @k["c"] = 1 (counts) */
static void test_count_sort(void)
{
	char ka[16] = "a", kb[16] = "b", kc[16] = "c";
	int64_t v2 = 2, v1 = 1;
	MapEntry e[] = {{kb, &v2}, {ka, &v2}, {kc, &v1}};
	SHOW_CHECK("@k[c]: 1\n@k[a]: 2\n@k[b]: 2\n", OUT_TEXT, "@k", &t_str, &t_count, e, 3, 0, 0);
	MapEntry e2[] = {{kb, &v2}, {ka, &v2}, {kc, &v1}};
	SHOW_CHECK("{\"type\": \"map\", \"data\": {\"@k\": {\"c\": 1, \"a\": 2, \"b\": 2}}}\n",
		   OUT_JSON, "@k", &t_str, &t_count, e2, 3, 0, 0);
	/* @i[3] = 5; @i[1] = 5; @i[2] = -1; @i[4] = 7 (ints, signed) */
	int64_t k1 = 1, k2 = 2, k3 = 3, k4 = 4, v5 = 5, vm1 = -1, v7 = 7;
	MapEntry e3[] = {{&k3, &v5}, {&k1, &v5}, {&k2, &vm1}, {&k4, &v7}};
	SHOW_CHECK("@i[2]: -1\n@i[1]: 5\n@i[3]: 5\n@i[4]: 7\n", OUT_TEXT, "@i", &t_i64, &t_i64, e3,
		   4, 0, 0);
}

/* Keys sort as unsigned 64-bit ints / bytewise strings, element by
 * element; values that are strings sort by key.  (d.bt) */
static void test_key_sort(void)
{
	int64_t km5 = -5, k3 = 3, km1 = -1, k100 = 100;
	char a[16] = "a", b[16] = "b", c[16] = "c", d[16] = "d";
	MapEntry e[] = {{&km5, a}, {&k3, b}, {&km1, c}, {&k100, d}};
	SHOW_CHECK("@s[3]: b\n@s[100]: d\n@s[-5]: a\n@s[-1]: c\n", OUT_TEXT, "@s", &t_i64, &t_str,
		   e, 4, 0, 0);
	char kb[16] = "b", kab[16] = "ab", ka[16] = "a", kB[16] = "B", ke[16] = "";
	char x[16] = "x", y[16] = "y", z[16] = "z", w[16] = "w", ee[16] = "e";
	MapEntry e2[] = {{kb, x}, {kab, y}, {ka, z}, {kB, w}, {ke, ee}};
	SHOW_CHECK("@k[]: e\n@k[B]: w\n@k[a]: z\n@k[ab]: y\n@k[b]: x\n", OUT_TEXT, "@k", &t_str,
		   &t_str, e2, 5, 0, 0);
	MapEntry e2j[] = {{kb, x}, {kab, y}, {ka, z}, {kB, w}, {ke, ee}};
	SHOW_CHECK("{\"type\": \"map\", \"data\": {\"@k\": {\"\": \"e\", \"B\": \"w\", \"a\": \"z\", "
		   "\"ab\": \"y\", \"b\": \"x\"}}}\n",
		   OUT_JSON, "@k", &t_str, &t_str, e2j, 5, 0, 0);
	IS m1 = {2, "a"}, m2 = {1, "b"}, m3 = {1, "a"}, m4 = {2, "b"}, m5 = {-1, "z"};
	char s1[16] = "1", s2[16] = "2", s3[16] = "3", s4[16] = "4", s5[16] = "5";
	MapEntry e3[] = {{&m1, s1}, {&m2, s2}, {&m3, s3}, {&m4, s4}, {&m5, s5}};
	SHOW_CHECK("@m[1, a]: 3\n@m[1, b]: 2\n@m[2, a]: 1\n@m[2, b]: 4\n@m[-1, z]: 5\n", OUT_TEXT,
		   "@m", &t_tup_is, &t_str, e3, 5, 0, 0);
	SI n1 = {"b", 1}, n2 = {"a", 2}, n3 = {"a", 1};
	MapEntry e4[] = {{&n1, s1}, {&n2, s2}, {&n3, s3}};
	SHOW_CHECK("{\"type\": \"map\", \"data\": {\"@n\": {\"a,1\": \"3\", \"a,2\": \"2\", "
		   "\"b,1\": \"1\"}}}\n",
		   OUT_JSON, "@n", &t_tup_si, &t_str, e4, 3, 0, 0);
	/* @u[(uint32)4000000000] = "a"; @u[(uint32)5] = "b";
	 * @e[(uint64)0xfffffffffffffff0] = 1 prints as -16 */
	int64_t u1 = 4000000000LL, u2 = 5, big = -16, one = 1;
	MapEntry e5[] = {{&u1, a}, {&u2, b}};
	SHOW_CHECK("@u[5]: b\n@u[4000000000]: a\n", OUT_TEXT, "@u", &t_u32, &t_str, e5, 2, 0, 0);
	SHOW_CHECK("@e[-16]: 1\n", OUT_TEXT, "@e", &t_u64, &t_i64, &(MapEntry){&big, &one}, 1, 0, 0);
}

/* Unsigned values print unsigned; avg is always signed. (e.bt etc.) */
static void test_signedness(void)
{
	int64_t m1 = -1;
	Agg2 d = {1, -16};
	SHOW_CHECK("@b: 18446744073709551615\n", OUT_TEXT, "@b", NULL, &t_usum,
		   &(MapEntry){NULL, &m1}, 1, 0, 0);
	SHOW_CHECK("@x: 18446744073709551615\n", OUT_TEXT, "@x", NULL, &t_u64,
		   &(MapEntry){NULL, &m1}, 1, 0, 0);
	Type uavg = t_avg;
	uavg.is_signed = false;
	SHOW_CHECK("@d: -16\n\n", OUT_TEXT, "@d", NULL, &uavg, &(MapEntry){NULL, &d}, 1, 0, 0);
	/* @a = avg(-10); @a = avg(3); @st = stats(-10); @st = stats(3) */
	Agg2 a = {2, -7};
	SHOW_CHECK("@a: -3\n\n", OUT_TEXT, "@a", NULL, &t_avg, &(MapEntry){NULL, &a}, 1, 0, 0);
	SHOW_CHECK("@st: count 2, average -3, total -7\n\n", OUT_TEXT, "@st", NULL, &t_stats,
		   &(MapEntry){NULL, &a}, 1, 0, 0);
	SHOW_CHECK("{\"type\": \"stats\", \"data\": {\"@a\": -3}}\n", OUT_JSON, "@a", NULL, &t_avg,
		   &(MapEntry){NULL, &a}, 1, 0, 0);
}

/* avg and stats sort by average: @a[1]=avg(10); @a[2]=avg(6) x2;
 * @a[3]=avg(1) x3 + avg(100) */
static void test_avg_sort(void)
{
	int64_t k1 = 1, k2 = 2, k3 = 3;
	Agg2 v1 = {1, 10}, v2 = {2, 12}, v3 = {4, 103};
	MapEntry e[] = {{&k1, &v1}, {&k2, &v2}, {&k3, &v3}};
	SHOW_CHECK("@a[2]: 6\n@a[1]: 10\n@a[3]: 25\n\n", OUT_TEXT, "@a", &t_i64, &t_avg, e, 3, 0, 0);
	MapEntry e2[] = {{&k1, &v1}, {&k2, &v2}, {&k3, &v3}};
	SHOW_CHECK("@st[2]: count 2, average 6, total 12\n"
		   "@st[1]: count 1, average 10, total 10\n"
		   "@st[3]: count 4, average 25, total 103\n\n",
		   OUT_TEXT, "@st", &t_i64, &t_stats, e2, 3, 0, 0);
	MapEntry e3[] = {{&k1, &v1}, {&k2, &v2}};
	SHOW_CHECK("{\"type\": \"stats\", \"data\": {\"@st\": {\"2\": {\"count\": 2, \"average\": 6, "
		   "\"total\": 12}, \"1\": {\"count\": 1, \"average\": 10, \"total\": 10}}}}\n",
		   OUT_JSON, "@st", &t_i64, &t_stats, e3, 2, 0, 0);
}

static void hist_add(int64_t *h, int64_t v, int times)
{
	h[hist_bucket(v)] += times;
}

/* e.bt: @h = hist(-1) x3, hist(0), hist(1), hist(1024), hist(3M) */
static void test_hist(void)
{
	int64_t h[HIST_BUCKETS] = {0};
	hist_add(h, -1, 3);
	hist_add(h, 0, 1);
	hist_add(h, 1, 1);
	hist_add(h, 1024, 1);
	hist_add(h, 3 << 20, 1);
	const char *want = "@h: \n"
			   "(..., 0)               3 " FULL
			   "[0]                    1 |@@@@@@@@@@@@@@@@@                                   |\n"
			   "[1]                    1 |@@@@@@@@@@@@@@@@@                                   |\n"
			   "[2, 4)                 0 " NONE "[4, 8)                 0 " NONE
			   "[8, 16)                0 " NONE "[16, 32)               0 " NONE
			   "[32, 64)               0 " NONE "[64, 128)              0 " NONE
			   "[128, 256)             0 " NONE "[256, 512)             0 " NONE
			   "[512, 1K)              0 " NONE
			   "[1K, 2K)               1 |@@@@@@@@@@@@@@@@@                                   |\n"
			   "[2K, 4K)               0 " NONE "[4K, 8K)               0 " NONE
			   "[8K, 16K)              0 " NONE "[16K, 32K)             0 " NONE
			   "[32K, 64K)             0 " NONE "[64K, 128K)            0 " NONE
			   "[128K, 256K)           0 " NONE "[256K, 512K)           0 " NONE
			   "[512K, 1M)             0 " NONE "[1M, 2M)               0 " NONE
			   "[2M, 4M)               1 |@@@@@@@@@@@@@@@@@                                   |\n"
			   "\n";
	SHOW_CHECK(want, OUT_TEXT, "@h", NULL, &t_hist, &(MapEntry){NULL, h}, 1, 0, 0);
	/* @g = hist(5000) x3, hist(100000): 1 of 3 is 17 '@' */
	int64_t g[HIST_BUCKETS] = {0};
	hist_add(g, 5000, 3);
	hist_add(g, 100000, 1);
	SHOW_CHECK("@g: \n[4K, 8K)               3 " FULL "[8K, 16K)              0 " NONE
		   "[16K, 32K)             0 " NONE "[32K, 64K)             0 " NONE
		   "[64K, 128K)            1 |@@@@@@@@@@@@@@@@@                                   |\n\n",
		   OUT_TEXT, "@g", NULL, &t_hist, &(MapEntry){NULL, g}, 1, 0, 0);
	SHOW_CHECK("{\"type\": \"hist\", \"data\": {\"@g\": [{\"min\": 4096, \"max\": 8191, \"count\": 3}, "
		   "{\"min\": 8192, \"max\": 16383, \"count\": 0}, {\"min\": 16384, \"max\": 32767, "
		   "\"count\": 0}, {\"min\": 32768, \"max\": 65535, \"count\": 0}, {\"min\": 65536, "
		   "\"max\": 131071, \"count\": 1}]}}\n",
		   OUT_JSON, "@g", NULL, &t_hist, &(MapEntry){NULL, g}, 1, 0, 0);
	/* negative, zero and the [2G, 4G) bucket in json */
	int64_t n[HIST_BUCKETS] = {0};
	hist_add(n, -1, 3);
	hist_add(n, 0, 1);
	hist_add(n, 1, 1);
	char *got = show(OUT_JSON, "@h", NULL, &t_hist, &(MapEntry){NULL, n}, 1, 0, 0);
	CHECK_STR(got, "{\"type\": \"hist\", \"data\": {\"@h\": [{\"max\": -1, \"count\": 3}, {\"min\": 0, "
		       "\"max\": 0, \"count\": 1}, {\"min\": 1, \"max\": 1, \"count\": 1}]}}\n");
	free(got);
	int64_t big[HIST_BUCKETS] = {0};
	hist_add(big, 3000000000LL, 2);
	SHOW_CHECK("{\"type\": \"hist\", \"data\": {\"@h\": [{\"min\": -2147483648, \"max\": 0, "
		   "\"count\": 2}]}}\n",
		   OUT_JSON, "@h", NULL, &t_hist, &(MapEntry){NULL, big}, 1, 0, 0);
	SHOW_CHECK("@h: \n[2G, 4G)               2 " FULL "\n", OUT_TEXT, "@h", NULL, &t_hist,
		   &(MapEntry){NULL, big}, 1, 0, 0);
}

/* c.bt: hist maps sort by total count, a blank line after each entry. */
static void test_hist_keys(void)
{
	int64_t h0[HIST_BUCKETS] = {0}, h1[HIST_BUCKETS] = {0}, h2[HIST_BUCKETS] = {0};
	hist_add(h1, 5, 3);
	hist_add(h2, 100, 1);
	hist_add(h0, 1, 2);
	int64_t k0 = 0, k1 = 1, k2 = 2;
	MapEntry e[] = {{&k1, h1}, {&k2, h2}, {&k0, h0}};
	SHOW_CHECK("@h[2]: \n[64, 128)              1 " FULL "\n"
		   "@h[0]: \n[1]                    2 " FULL "\n"
		   "@h[1]: \n[4, 8)                 3 " FULL "\n",
		   OUT_TEXT, "@h", &t_i64, &t_hist, e, 3, 0, 0);
	/* b.bt json: {"1": [...], "2": [...]} */
	int64_t a[HIST_BUCKETS] = {0}, b[HIST_BUCKETS] = {0};
	hist_add(a, 5, 1);
	hist_add(b, 100, 1);
	hist_add(b, 0, 1);
	MapEntry e2[] = {{&k2, b}, {&k1, a}};
	SHOW_CHECK("{\"type\": \"hist\", \"data\": {\"@h\": {\"1\": [{\"min\": 4, \"max\": 7, \"count\": 1}], "
		   "\"2\": [{\"min\": 0, \"max\": 0, \"count\": 1}, {\"min\": 1, \"max\": 1, \"count\": 0}, "
		   "{\"min\": 2, \"max\": 3, \"count\": 0}, {\"min\": 4, \"max\": 7, \"count\": 0}, "
		   "{\"min\": 8, \"max\": 15, \"count\": 0}, {\"min\": 16, \"max\": 31, \"count\": 0}, "
		   "{\"min\": 32, \"max\": 63, \"count\": 0}, {\"min\": 64, \"max\": 127, \"count\": 1}]}}}\n",
		   OUT_JSON, "@h", &t_i64, &t_hist, e2, 2, 0, 0);
	/* zero(@h); print(@h): header only */
	int64_t z[HIST_BUCKETS] = {0};
	SHOW_CHECK("@h: \n\n", OUT_TEXT, "@h", NULL, &t_hist, &(MapEntry){NULL, z}, 1, 0, 0);
	SHOW_CHECK("{\"type\": \"hist\", \"data\": {\"@h\": []}}\n", OUT_JSON, "@h", NULL, &t_hist,
		   &(MapEntry){NULL, z}, 1, 0, 0);
}

static void lh_add(const Type *t, int64_t *h, int64_t v, int times)
{
	int nb = lhist_buckets(t);
	int i = v < t->lh_min ? 0 : (int)((v - t->lh_min) / t->lh_step) + 1;
	if (i > nb - 1)
		i = nb - 1;
	h[i] += times;
}

static void test_lhist(void)
{
	/* @o = lhist(-3, 0, 100, 10); @o = lhist(33, 0, 100, 10) */
	Type t = lh(0, 100, 10);
	int64_t o[12] = {0};
	lh_add(&t, o, -3, 1);
	lh_add(&t, o, 33, 1);
	SHOW_CHECK("@o: \n(..., 0)               1 " FULL "[0, 10)                0 " NONE
		   "[10, 20)               0 " NONE "[20, 30)               0 " NONE
		   "[30, 40)               1 " FULL "\n",
		   OUT_TEXT, "@o", NULL, &t, &(MapEntry){NULL, o}, 1, 0, 0);
	SHOW_CHECK("{\"type\": \"hist\", \"data\": {\"@o\": [{\"max\": -1, \"count\": 1}, {\"min\": 0, "
		   "\"max\": 9, \"count\": 0}, {\"min\": 10, \"max\": 19, \"count\": 0}, {\"min\": 20, "
		   "\"max\": 29, \"count\": 0}, {\"min\": 30, \"max\": 39, \"count\": 1}]}}\n",
		   OUT_JSON, "@o", NULL, &t, &(MapEntry){NULL, o}, 1, 0, 0);
	/* @m = lhist(2000, 0, 5000, 1000); @m = lhist(1000000, 0, 5000, 1000) */
	Type tm = lh(0, 5000, 1000);
	int64_t m[7] = {0};
	lh_add(&tm, m, 2000, 1);
	lh_add(&tm, m, 1000000, 1);
	SHOW_CHECK("@m: \n[2000, 3000)           1 " FULL "[3000, 4000)           0 " NONE
		   "[4000, 5000)           0 " NONE "[5000, ...)            1 " FULL "\n",
		   OUT_TEXT, "@m", NULL, &tm, &(MapEntry){NULL, m}, 1, 0, 0);
	/* @r = lhist(5|9|10, 0, 10, 3): 9 lands in the overflow bucket */
	Type tr = lh(0, 10, 3);
	int64_t r[5] = {0};
	lh_add(&tr, r, 5, 1);
	lh_add(&tr, r, 9, 1);
	lh_add(&tr, r, 10, 1);
	SHOW_CHECK("@r: \n[3, 6)                 1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		   "[6, 9)                 0 " NONE "[10, ...)              2 " FULL "\n",
		   OUT_TEXT, "@r", NULL, &tr, &(MapEntry){NULL, r}, 1, 0, 0);
	/* lhist(1536|3072|5000|5, 1024, 4096, 512): suffix only on 1K multiples */
	Type tk = lh(1024, 4096, 512);
	int64_t k[8] = {0};
	lh_add(&tk, k, 1536, 1);
	lh_add(&tk, k, 3072, 1);
	lh_add(&tk, k, 5000, 1);
	lh_add(&tk, k, 5, 1);
	SHOW_CHECK("@l: \n(..., 1K)              1 " FULL "[1K, 1536)             0 " NONE
		   "[1536, 2K)             1 " FULL "[2K, 2560)             0 " NONE
		   "[2560, 3K)             0 " NONE "[3K, 3584)             1 " FULL
		   "[3584, 4K)             0 " NONE "[4K, ...)              1 " FULL "\n",
		   OUT_TEXT, "@l", NULL, &tk, &(MapEntry){NULL, k}, 1, 0, 0);
	/* @q = lhist(2097152, 0, 4194304, 1048576) */
	Type tq = lh(0, 4 << 20, 1 << 20);
	int64_t q[6] = {0};
	lh_add(&tq, q, 2 << 20, 1);
	SHOW_CHECK("@q: \n[2M, 3M)               1 " FULL "\n", OUT_TEXT, "@q", NULL, &tq,
		   &(MapEntry){NULL, q}, 1, 0, 0);
	/* b.bt json: overflow bucket has no max */
	Type tl = lh(0, 10, 2);
	int64_t l1[7] = {0}, l3[7] = {0};
	lh_add(&tl, l1, 50, 1);
	lh_add(&tl, l3, 5, 1);
	int64_t k1 = 1, k3 = 3;
	MapEntry e[] = {{&k3, l3}, {&k1, l1}};
	SHOW_CHECK("{\"type\": \"hist\", \"data\": {\"@l\": {\"1\": [{\"min\": 10, \"count\": 1}], "
		   "\"3\": [{\"min\": 4, \"max\": 5, \"count\": 1}]}}}\n",
		   OUT_JSON, "@l", &t_i64, &tl, e, 2, 0, 0);
}

/* i.bt: print(@m, top, div) */
static void test_top_div(void)
{
	int64_t k1 = 1, k2 = 2, k3 = 3, k4 = 4, v10 = 10, v25 = 25, v7 = 7, vm9 = -9;
#define SUMS {{&k1, &v10}, {&k2, &v25}, {&k3, &v7}, {&k4, &vm9}}
	MapEntry a[] = SUMS, b[] = SUMS, c[] = SUMS, d[] = SUMS, j[] = SUMS;
	SHOW_CHECK("@c[1]: 10\n@c[2]: 25\n", OUT_TEXT, "@c", &t_i64, &t_sum, a, 4, 2, 0);
	SHOW_CHECK("@c[1]: 3\n@c[2]: 8\n", OUT_TEXT, "@c", &t_i64, &t_sum, b, 4, 2, 3);
	SHOW_CHECK("@c[4]: -2\n@c[3]: 1\n@c[1]: 2\n@c[2]: 6\n", OUT_TEXT, "@c", &t_i64, &t_sum, c,
		   4, 0, 4);
	SHOW_CHECK("@c[4]: -9\n@c[3]: 7\n@c[1]: 10\n@c[2]: 25\n", OUT_TEXT, "@c", &t_i64, &t_sum, d,
		   4, 10, 0);
	SHOW_CHECK("{\"type\": \"map\", \"data\": {\"@c\": {\"1\": 3, \"2\": 8}}}\n", OUT_JSON, "@c",
		   &t_i64, &t_sum, j, 4, 2, 3);
	/* hist: top by total; div divides the counts, bars use raw counts */
	int64_t h1[HIST_BUCKETS] = {0}, h2[HIST_BUCKETS] = {0};
	hist_add(h1, 4, 1);
	hist_add(h2, 100, 2);
	hist_add(h2, 1, 4);
	MapEntry e[] = {{&k2, h2}, {&k1, h1}};
	SHOW_CHECK("@h[1]: \n[4, 8)                 0 " FULL "\n"
		   "@h[2]: \n[1]                    1 " FULL "[2, 4)                 0 " NONE
		   "[4, 8)                 0 " NONE "[8, 16)                0 " NONE
		   "[16, 32)               0 " NONE "[32, 64)               0 " NONE
		   "[64, 128)              0 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n\n",
		   OUT_TEXT, "@h", &t_i64, &t_hist, e, 2, 0, 3);
	MapEntry e1[] = {{&k2, h2}, {&k1, h1}};
	SHOW_CHECK("{\"type\": \"hist\", \"data\": {\"@h\": {\"1\": [{\"min\": 4, \"max\": 7, \"count\": 0}], "
		   "\"2\": [{\"min\": 1, \"max\": 1, \"count\": 1}, {\"min\": 2, \"max\": 3, \"count\": 0}, "
		   "{\"min\": 4, \"max\": 7, \"count\": 0}, {\"min\": 8, \"max\": 15, \"count\": 0}, "
		   "{\"min\": 16, \"max\": 31, \"count\": 0}, {\"min\": 32, \"max\": 63, \"count\": 0}, "
		   "{\"min\": 64, \"max\": 127, \"count\": 0}]}}}\n",
		   OUT_JSON, "@h", &t_i64, &t_hist, e1, 2, 0, 3);
	/* lhist ignores div */
	Type tl = lh(0, 100, 10);
	int64_t l[12] = {0};
	lh_add(&tl, l, 5, 1);
	SHOW_CHECK("@l[1]: \n[0, 10)                1 " FULL "\n", OUT_TEXT, "@l", &t_i64, &tl,
		   &(MapEntry){&k1, l}, 1, 0, 2);
	/* avg: top and div; stats: both ignored */
	Agg2 a10 = {1, 10}, a30 = {1, 30};
	MapEntry av[] = {{&k1, &a10}, {&k2, &a30}}, sv[] = {{&k1, &a10}, {&k2, &a30}};
	SHOW_CHECK("@a[2]: 10\n\n", OUT_TEXT, "@a", &t_i64, &t_avg, av, 2, 1, 3);
	SHOW_CHECK("@st[1]: count 1, average 10, total 10\n@st[2]: count 1, average 30, total 30\n\n",
		   OUT_TEXT, "@st", &t_i64, &t_stats, sv, 2, 1, 3);
	/* strings: top keeps the last by key; ints divide */
	char sa[16] = "a", sb[16] = "b", sc[16] = "c";
	MapEntry s[] = {{&k3, sc}, {&k1, sa}, {&k2, sb}};
	SHOW_CHECK("@s[2]: b\n@s[3]: c\n", OUT_TEXT, "@s", &t_i64, &t_str, s, 3, 2, 0);
	int64_t x = 17;
	SHOW_CHECK("@x: 3\n", OUT_TEXT, "@x", NULL, &t_i64, &(MapEntry){NULL, &x}, 1, 0, 5);
	/* min: top 1 of {10, 5} then div 2 */
	Agg2 m10 = {10, 1}, m5 = {5, 1};
	MapEntry mi[] = {{&k1, &m10}, {&k2, &m5}};
	SHOW_CHECK("@mi[1]: 5\n", OUT_TEXT, "@mi", &t_i64, &t_min, mi, 2, 1, 2);
}

/* Empty maps: "\n" in text ("\n\n" for avg/stats), nothing in json.
 * max() entries below zero are not printed by bpftrace 0.17. */
static void test_empty(void)
{
	SHOW_CHECK("\n", OUT_TEXT, "@x", &t_i64, &t_count, NULL, 0, 0, 0);
	SHOW_CHECK("\n", OUT_TEXT, "@x", NULL, &t_hist, NULL, 0, 0, 0);
	SHOW_CHECK("\n\n", OUT_TEXT, "@x", &t_i64, &t_avg, NULL, 0, 0, 0);
	SHOW_CHECK("\n\n", OUT_TEXT, "@x", &t_i64, &t_stats, NULL, 0, 0, 0);
	SHOW_CHECK("", OUT_JSON, "@x", &t_i64, &t_count, NULL, 0, 0, 0);
	Agg2 neg = {-5, 1}, neg2 = {-1, 1}, pos = {2, 1};
	SHOW_CHECK("\n", OUT_TEXT, "@ma", NULL, &t_max, &(MapEntry){NULL, &neg}, 1, 0, 0);
	int64_t k1 = 1, k2 = 2, k3 = 3;
	MapEntry e[] = {{&k1, &neg}, {&k2, &neg2}, {&k3, &pos}};
	SHOW_CHECK("@mc[3]: 2\n", OUT_TEXT, "@mc", &t_i64, &t_max, e, 3, 0, 0);
	SHOW_CHECK("", OUT_JSON, "@a", NULL, &t_max, &(MapEntry){NULL, &neg}, 1, 0, 0);
	Agg2 mneg = {-5, 1};
	SHOW_CHECK("@b: -5\n", OUT_TEXT, "@b", NULL, &t_min, &(MapEntry){NULL, &mneg}, 1, 0, 0);
}

/* f.bt: escaping in json keys and values, nested tuples */
static void test_json_strings(void)
{
	char k[16] = "a\"b\n\tc\\d\x01/", v[16] = "x\"y\n";
	SHOW_CHECK("{\"type\": \"map\", \"data\": {\"@q\": {\"a\\\"b\\n\\tc\\\\d\\u0001/\": "
		   "\"x\\\"y\\n\"}}}\n",
		   OUT_JSON, "@q", &t_str, &t_str, &(MapEntry){k, v}, 1, 0, 0);
	SHOW_CHECK("@q[a\"b\n\tc\\d\x01/]: x\"y\n\n", OUT_TEXT, "@q", &t_str, &t_str,
		   &(MapEntry){k, v}, 1, 0, 0);
	struct {
		IS in;
		int64_t three;
	} nv = {{2, "b"}, 3};
	IS key = {1, "a"};
	SHOW_CHECK("{\"type\": \"map\", \"data\": {\"@t\": {\"1,a\": [[2,\"b\"],3]}}}\n", OUT_JSON,
		   "@t", &t_tup_is, &t_nest, &(MapEntry){&key, &nv}, 1, 0, 0);
	SHOW_CHECK("@t[1, a]: ((2, b), 3)\n", OUT_TEXT, "@t", &t_tup_is, &t_nest,
		   &(MapEntry){&key, &nv}, 1, 0, 0);
	StrBuf sb = {0};
	json_escape(&sb, "a\rb\x08" "c\x0c" "d\x7f" "e\xc3\xa9" "f\x1fh", 14);
	CHECK_STR(sb.s, "a\\rb\\u0008c\\u000cd\x7f" "e\\uffffffc3\\uffffffa9f\\u001fh");
	sb_free(&sb);
}

/* print(value) in text and json (f.bt, g.bt) */
static void test_value_print(void)
{
	IS t = {1, "two"};
	char s[16] = "str\"x";
	int64_t five = 5, m5 = -5, m1 = -1;
	VAL_CHECK("(1, two)\n", OUT_TEXT, &t_tup_is, &t, -1);
	VAL_CHECK("{\"type\": \"value\", \"data\": [1,\"two\"]}\n", OUT_JSON, &t_tup_is, &t, -1);
	VAL_CHECK("str\"x\n", OUT_TEXT, &t_str, s, -1);
	VAL_CHECK("{\"type\": \"value\", \"data\": \"str\\\"x\"}\n", OUT_JSON, &t_str, s, -1);
	VAL_CHECK("{\"type\": \"value\", \"data\": 5}\n", OUT_JSON, &t_i64, &five, -1);
	VAL_CHECK("{\"type\": \"value\", \"data\": -5}\n", OUT_JSON, &t_i64, &m5, -1);
	VAL_CHECK("18446744073709551615\n", OUT_TEXT, &t_u64, &m1, -1);
	struct {
		int64_t fam;
		unsigned char a[16];
	} in4 = {2, {127, 0, 0, 1}}, in6 = {10, {0xfe, 0x80, [15] = 1}};
	VAL_CHECK("127.0.0.1\n", OUT_TEXT, &t_inet, &in4, -1);
	VAL_CHECK("{\"type\": \"value\", \"data\": \"127.0.0.1\"}\n", OUT_JSON, &t_inet, &in4, -1);
	VAL_CHECK("fe80::1\n", OUT_TEXT, &t_inet, &in6, -1);
	struct {
		int64_t n;
		char d[8];
	} b = {5, "ab\x01\xff" "c"};
	VAL_CHECK("ab\\x01\\xffc\n", OUT_TEXT, &t_buf, &b, -1);
	VAL_CHECK("{\"type\": \"value\", \"data\": \"ab\\\\x01\\\\xffc\"}\n", OUT_JSON, &t_buf, &b, -1);
	/* unresolved symbols: hex with 0x, except 0 */
	int64_t a1234[2] = {1234, 0}, zero[2] = {0, 0};
	VAL_CHECK("0x4d2\n", OUT_TEXT, &t_usym, a1234, -1);
	VAL_CHECK("0\n", OUT_TEXT, &t_usym, zero, -1);
	VAL_CHECK("0x4d2\n", OUT_TEXT, &t_ksym, a1234, -1);
	uint64_t vr = ksym_addr(&test_syms, "vfs_read");
	if (vr) {
		int64_t x = (int64_t)vr + 3;
		VAL_CHECK("vfs_read\n", OUT_TEXT, &t_ksym, &x, -1);
		VAL_CHECK("{\"type\": \"value\", \"data\": \"vfs_read\"}\n", OUT_JSON, &t_ksym, &x, -1);
	}
}

/* strftime: %f is microseconds; json leaves the value unquoted. */
static void test_strftime(void)
{
	Type ts = {.kind = TY_TIMESTAMP, .size = 8, .fmt = "%Y-%m-%d %H:%M:%S.%f %%f"};
	setenv("TZ", "UTC", 1);
	tzset();
	int64_t ns = 123456789; /* + boot_to_real below */
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);
	OutCtx o = ctx(OUT_TEXT, mf);
	o.boot_to_real_ns = 1700000000LL * 1000000000LL;
	value_print(&o, &ts, &ns);
	o.fmt = OUT_JSON;
	Type hm = {.kind = TY_TIMESTAMP, .size = 8, .fmt = "%H:%M:%S"};
	value_print(&o, &hm, &ns);
	fclose(mf);
	CHECK_STR(buf, "2023-11-14 22:13:20.123456 %f\n{\"type\": \"value\", \"data\": 22:13:20}\n");
	free(buf);
}

/* A hash map standing in for the stack map: u32 id -> u64 ips[]. */
static int make_stack_map(uint64_t *ips, int n)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_HASH, "test_stacks", 4, 127 * 8, 16, NULL);
	if (fd < 0)
		return -1;
	uint64_t v[127] = {0};
	memcpy(v, ips, sizeof(uint64_t) * (size_t)n);
	uint32_t id = 7;
	bpf_map_update_elem(fd, &id, v, BPF_ANY);
	return fd;
}

static void test_stacks(void)
{
	uint64_t vr = ksym_addr(&test_syms, "vfs_read"), ks = ksym_addr(&test_syms, "ksys_read");
	if (!vr || !ks) {
		fprintf(stderr, "test_stacks: no kallsyms, skipped\n");
		return;
	}
	uint64_t ips[] = {vr + 142, ks + 102, 0x1234};
	int fd = make_stack_map(ips, 3);
	if (fd < 0) {
		fprintf(stderr, "test_stacks: no bpf, skipped\n");
		return;
	}
	int64_t id = 7, bad = -14;
	char want[256];
	snprintf(want, sizeof(want), "\n        vfs_read+142\n        ksys_read+102\n        %#llx\n\n",
		 0x1234ULL);
	VAL_CHECK(want, OUT_TEXT, &t_kstack, &id, fd);
	VAL_CHECK("\n", OUT_TEXT, &t_kstack, &bad, fd);
	VAL_CHECK("{\"type\": \"value\", \"data\": \"\\n        vfs_read+142\\n        ksys_read+102\\n\"}\n",
		  OUT_JSON, &t_kstack2, &id, fd);
	int64_t us[2] = {7, 100};
	/* ustack: raw addresses until user symbols exist */
	snprintf(want, sizeof(want), "\n        0x%llx\n        0x%llx\n        0x1234\n\n",
		 (unsigned long long)(vr + 142), (unsigned long long)(ks + 102));
	VAL_CHECK(want, OUT_TEXT, &t_ustack, us, fd);
	/* as keys: 4-space indent, also inside a multi-key */
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);
	OutCtx o = ctx(OUT_TEXT, mf);
	o.kstack_fds = stack_fds_all(fd);
	int64_t one = 1;
	struct {
		int64_t id, five;
	} k2 = {7, 5};
	MapDesc m = {.name = "@s", .key = &t_tup_ks, .val = &t_i64, .fd = -1};
	map_print_entries(&o, &m, &(MapEntry){&k2, &one}, 1, 0, 0);
	MapDesc m2 = {.name = "@", .key = &t_kstack2, .val = &t_count, .fd = -1};
	map_print_entries(&o, &m2, &(MapEntry){&bad, &one}, 1, 0, 0);
	fclose(mf);
	CHECK_STR(buf, "@s[\n    vfs_read+142\n    ksys_read+102\n, 5]: 1\n@[]: 1\n");
	free(buf);
	close(fd);
}

/* The reader: walk real BPF maps, merge per-CPU aggregation slots. */
static void test_map_read(void)
{
	int ncpu = libbpf_num_possible_cpus();
	int fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_HASH, "test_cnt", 8, 8, 16, NULL);
	if (fd < 0 || ncpu < 1) {
		fprintf(stderr, "test_map_read: no bpf, skipped\n");
		return;
	}
	uint64_t vals[ncpu];
	for (int k = 1; k <= 3; k++) {
		int64_t key = k;
		for (int c = 0; c < ncpu; c++)
			vals[c] = (uint64_t)(c + 1) * (uint64_t)(4 - k);
		bpf_map_update_elem(fd, &key, vals, BPF_ANY);
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);
	OutCtx o = ctx(OUT_TEXT, mf);
	MapDesc m = {.name = "@c", .key = &t_i64, .val = &t_count, .key_size = 8, .val_size = 8,
		     .percpu = true, .fd = fd};
	map_print(&o, &m, 0, 0);
	map_zero(&m);
	map_print(&o, &m, 0, 0);
	map_clear(&m);
	map_print(&o, &m, 0, 0);
	fclose(mf);
	int tri = ncpu * (ncpu + 1) / 2;
	char want[256];
	snprintf(want, sizeof(want), "@c[3]: %d\n@c[2]: %d\n@c[1]: %d\n@c[1]: 0\n@c[2]: 0\n@c[3]: 0\n\n",
		 tri, 2 * tri, 3 * tri);
	CHECK_STR(buf, want);
	free(buf);
	close(fd);

	/* max over CPUs that saw a value; slot 1 = seen flag */
	fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_HASH, "test_max", 8, 16, 4, NULL);
	Agg2 mv[ncpu];
	memset(mv, 0, sizeof(mv));
	mv[0] = (Agg2){-50, 1};
	if (ncpu > 1)
		mv[ncpu - 1] = (Agg2){9, 1};
	int64_t key = 0;
	bpf_map_update_elem(fd, &key, mv, BPF_ANY);
	buf = NULL;
	mf = open_memstream(&buf, &len);
	o = ctx(OUT_TEXT, mf);
	MapDesc mm = {.name = "@m", .key = NULL, .val = &t_min, .key_size = 8, .val_size = 16,
		      .percpu = true, .fd = fd};
	map_print(&o, &mm, 0, 0);
	map_clear(&mm); /* keyless: emptied too (as bpftrace 0.17): prints "\n" */
	map_print(&o, &mm, 0, 0);
	fclose(mf);
	CHECK_STR(buf, "@m: -50\n\n");
	free(buf);
	close(fd);

	/* plain hash of strings, not percpu */
	fd = bpf_map_create(BPF_MAP_TYPE_HASH, "test_str", 8, 16, 4, NULL);
	char s1[16] = "zz", s2[16] = "aa";
	int64_t k1 = 1, k2 = 2;
	bpf_map_update_elem(fd, &k2, s2, BPF_ANY);
	bpf_map_update_elem(fd, &k1, s1, BPF_ANY);
	buf = NULL;
	mf = open_memstream(&buf, &len);
	o = ctx(OUT_JSON, mf);
	MapDesc ms = {.name = "@s", .key = &t_i64, .val = &t_str, .key_size = 8, .val_size = 16,
		      .fd = fd};
	map_print(&o, &ms, 0, 0);
	fclose(mf);
	CHECK_STR(buf, "{\"type\": \"map\", \"data\": {\"@s\": {\"1\": \"zz\", \"2\": \"aa\"}}}\n");
	free(buf);
	close(fd);
}

static void test_types(void)
{
	char b[128];
	Type s64 = {.kind = TY_STR, .size = 64};
	Type *el[] = {&t_i64, &t_str};
	int off[] = {0, 8};
	Type tup = {.kind = TY_TUPLE, .size = 24, .nelem = 2, .elem = el, .offset = off};
	Type u32 = {.kind = TY_INT, .size = 8, .bits = 32};
	CHECK_STR(type_name(&t_i64, b, sizeof(b)), "int64");
	CHECK_STR(type_name(&u32, b, sizeof(b)), "uint32");
	CHECK_STR(type_name(&s64, b, sizeof(b)), "string[64]");
	CHECK_STR(type_name(&tup, b, sizeof(b)), "tuple (int64, string[16])");
	CHECK_STR(type_name(&t_count, b, sizeof(b)), "count()");
	CHECK_STR(type_name(&t_hist, b, sizeof(b)), "hist()");
	CHECK_STR(type_name(&t_kstack, b, sizeof(b)), "kstack");
	CHECK_STR(type_name(&tup, b, 8), "tuple (");
	CHECK(type_is_agg(&t_stats) && !type_is_agg(&t_i64));
	CHECK(type_equal(&tup, &t_tup_is) && !type_equal(&tup, &t_tup_si));
	CHECK(!type_equal(&t_i64, &t_u64));
}

/* output_printf_text / output_time */
static void test_printf_out(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);
	OutCtx o = ctx(OUT_JSON, mf);
	output_printf_text(&o, "a\"b\n", 4);
	output_time(&o, "%Y\n");
	o.fmt = OUT_TEXT;
	output_printf_text(&o, "x\ny", 3);
	fclose(mf);
	char year[8];
	time_t now = time(NULL);
	strftime(year, sizeof(year), "%Y", localtime(&now));
	char want[128];
	snprintf(want, sizeof(want),
		 "{\"type\": \"printf\", \"data\": \"a\\\"b\\n\"}\n{\"type\": \"time\", \"data\": \"%s\\n\"}\nx\ny",
		 year);
	CHECK_STR(buf, want);
	free(buf);
}

int main(void)
{
	test_scalars();
	test_count_sort();
	test_key_sort();
	test_signedness();
	test_avg_sort();
	test_hist();
	test_hist_keys();
	test_lhist();
	test_top_div();
	test_empty();
	test_json_strings();
	test_value_print();
	test_strftime();
	test_stacks();
	test_map_read();
	test_types();
	test_printf_out();
	return check_done("test_output");
}
