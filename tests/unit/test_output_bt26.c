/* bpftrace 0.26's output rules (bt_frontend_rt_026's flags), next to
 * 0.17's for the same values: each expected 0.26 string is what bpftrace
 * 0.26.1's tests expect (tests/bt26/upstream/tests/runtime: call.stats,
 * call.hist, json-output.print_non_map_struct, json-output.strftime,
 * pointers.*). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "syms_check.h"
#include "bt/frontend_bt.h"
#include "runtime/output.h"

static Type t_i32 = {.kind = TY_INT, .size = 4, .bits = 32, .is_signed = true};
static Type t_i64 = {.kind = TY_INT, .size = 8, .bits = 64, .is_signed = true};
static Type t_stats = {.kind = TY_STATS, .size = 16, .is_signed = true};
static Type t_hist = {.kind = TY_HIST, .size = 8 * HIST_BUCKETS};

static char *show(const FrontendRt *fe, OutFormat f, const char *name, const Type *val,
		  const void *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);
	OutCtx o = {.f = mf, .fmt = f, .fe = fe, .sym = &test_syms};
	MapDesc m = {.name = name, .val = val, .fd = -1};
	map_print_entries(&o, &m, &(MapEntry){NULL, v}, 1, 0, 0);
	fclose(mf);
	return buf;
}

/* a map of one entry, key k at kd */
static char *show_key(const FrontendRt *fe, OutFormat f, const Type *k, const void *kd)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);
	OutCtx o = {.f = mf, .fmt = f, .fe = fe, .sym = &test_syms};
	int64_t zero = 0;
	MapDesc m = {.name = "@s", .key = k, .val = &t_i64, .fd = -1};
	map_print_entries(&o, &m, &(MapEntry){kd, &zero}, 1, 0, 0);
	fclose(mf);
	return buf;
}

static char *val(const FrontendRt *fe, OutFormat f, const Type *t, const void *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);
	OutCtx o = {.f = mf, .fmt = f, .fe = fe, .boot_to_real_ns = 1700000000LL * 1000000000LL};
	value_print(&o, t, v);
	fclose(mf);
	return buf;
}

#define CHECK_FREE(got, want)            \
	do {                             \
		char *out_ = (got);        \
		CHECK_STR(out_, want);     \
		free(out_);              \
	} while (0)

/* begin { @stats = stats(1); @stats = stats(2); @stats = stats(3); } */
static void test_stats(void)
{
	int64_t st[2] = {3, 6};
	CHECK_FREE(show(&bt_frontend_rt_026, OUT_TEXT, "@stats", &t_stats, st),
		   "@stats: { .count = 3, .average = 2, .total = 6 }\n\n");
	CHECK_FREE(show(&bt_frontend_rt, OUT_TEXT, "@stats", &t_stats, st),
		   "@stats: count 3, average 2, total 6\n\n");
}

/* begin { @ = hist(2); }: "@:" with no space before the bars in 0.26 */
static void test_hist_heading(void)
{
	int64_t h[HIST_BUCKETS] = {0};
	h[hist_bucket(2)] = 1;
	char *g = show(&bt_frontend_rt_026, OUT_TEXT, "@", &t_hist, h);
	CHECK(!strncmp(g, "@:\n[2, 4)", 9));
	free(g);
	g = show(&bt_frontend_rt, OUT_TEXT, "@", &t_hist, h);
	CHECK(!strncmp(g, "@: \n[2, 4)", 10));
	free(g);
}

/* print($f) of struct Foo { int m; int n; } in json */
static void test_json_record(void)
{
	Field fs[] = {{.name = "m", .type = &t_i32, .offset = 0}, {.name = "n", .type = &t_i32, .offset = 4}};
	Type foo = {.kind = TY_RECORD, .size = 8, .fields = fs, .nfields = 2};
	int32_t v[2] = {2, 3};
	CHECK_FREE(val(&bt_frontend_rt_026, OUT_JSON, &foo, v),
		   "{\"type\": \"value\", \"data\": {\"m\": 2, \"n\": 3}}\n");
	CHECK_FREE(val(&bt_frontend_rt, OUT_JSON, &foo, v),
		   "{\"type\": \"value\", \"data\": { \"m\": 2, \"n\": 3 }}\n");
	CHECK_FREE(val(&bt_frontend_rt_026, OUT_TEXT, &foo, v), "{ .m = 2, .n = 3 }\n");
}

/* print(strftime("%H", 0)) in json: a string in 0.26, bare in 0.17 */
static void test_json_strftime(void)
{
	Type ts = {.kind = TY_TIMESTAMP, .size = 8, .fmt = "%Y"};
	int64_t ns = 0;
	setenv("TZ", "UTC", 1);
	CHECK_FREE(val(&bt_frontend_rt_026, OUT_JSON, &ts, &ns),
		   "{\"type\": \"value\", \"data\": \"2023\"}\n");
	CHECK_FREE(val(&bt_frontend_rt, OUT_JSON, &ts, &ns), "{\"type\": \"value\", \"data\": 2023}\n");
}

/* begin { @ = (int64 *)0x32; @ += 1; }: pointers.u64 pointer increment */
static void test_pointer_hex(void)
{
	Type i64 = {.kind = TY_INT, .size = 8, .bits = 64, .is_signed = true};
	Type ptr = {.kind = TY_INT, .size = 8, .bits = 64, .pointee = &i64};
	int64_t p = 0x3a;
	CHECK_FREE(show(&bt_frontend_rt_026, OUT_TEXT, "@", &ptr, &p), "@: 0x3a\n");
	CHECK_FREE(show(&bt_frontend_rt, OUT_TEXT, "@", &ptr, &p), "@: 58\n");
	CHECK_FREE(val(&bt_frontend_rt_026, OUT_JSON, &ptr, &p), "{\"type\": \"value\", \"data\": 58}\n");
}

/* u:simple_struct:func { @s[*(struct Foo *)arg0, 42] = 0 }: struct.struct
 * as a part of multikey; in json 0.26 takes the key's text without spaces */
static void test_struct_key(void)
{
	Field fs[] = {{.name = "m", .type = &t_i32, .offset = 0}, {.name = "n", .type = &t_i32, .offset = 4}};
	Type foo = {.kind = TY_RECORD, .size = 8, .fields = fs, .nfields = 2};
	Type *elems[] = {&foo, &t_i64};
	int offs[] = {0, 8};
	Type key = {.kind = TY_TUPLE, .size = 16, .nelem = 2, .elem = elems, .offset = offs};
	int32_t k[4] = {2, 3, 42, 0};
	CHECK_FREE(show_key(&bt_frontend_rt_026, OUT_TEXT, &key, k), "@s[{ .m = 2, .n = 3 }, 42]: 0\n");
	CHECK_FREE(show_key(&bt_frontend_rt, OUT_TEXT, &key, k), "@s[{.m=2,.n=3}, 42]: 0\n");
	CHECK_FREE(show_key(&bt_frontend_rt_026, OUT_JSON, &key, k),
		   "{\"type\": \"map\", \"data\": {\"@s\": {\"{.m=2,.n=3},42\": 0}}}\n");
	CHECK_FREE(show_key(&bt_frontend_rt, OUT_JSON, &key, k),
		   "{\"type\": \"map\", \"data\": {\"@s\": {\"{.m=2,.n=3},42\": 0}}}\n");
	char text[8] = "a b";
	Type str = {.kind = TY_STR, .size = 8};
	CHECK_FREE(show_key(&bt_frontend_rt_026, OUT_JSON, &str, text),
		   "{\"type\": \"map\", \"data\": {\"@s\": {\"ab\": 0}}}\n");
	CHECK_FREE(show_key(&bt_frontend_rt, OUT_JSON, &str, text),
		   "{\"type\": \"map\", \"data\": {\"@s\": {\"a b\": 0}}}\n");
}

int main(void)
{
	test_struct_key();
	test_pointer_hex();
	test_stats();
	test_hist_heading();
	test_json_record();
	test_json_strftime();
	return check_done("test_output_bt26");
}
