/* -f pprof without a kernel: which maps go into the profile, and the
 * sample type a map's name and aggregation give. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "export/pprof.h"

static Type t_i64 = {.kind = TY_INT, .size = 8, .bits = 64, .is_signed = true};
static Type t_str = {.kind = TY_STR, .size = 16};
static Type t_count = {.kind = TY_COUNT, .size = 8};
static Type t_sum = {.kind = TY_SUM, .size = 8, .is_signed = true};
static Type t_kstack = {.kind = TY_KSTACK, .size = 8};
static Type t_ustack = {.kind = TY_USTACK, .size = 16};
static Type *el[] = {&t_str, &t_kstack, &t_ustack};
static int off[] = {0, 16, 24};
static Type t_tuple = {.kind = TY_TUPLE, .size = 40, .nelem = 3, .elem = el, .offset = off};

static void check_type(const char *name, Type *val, const char *want_type, const char *want_unit)
{
	MapDesc m = {.name = name, .key = &t_kstack, .val = val};
	StrBuf sb = {0};
	const char *unit;
	pprof_sample_type(&m, &sb, &unit);
	CHECK_STR(sb.s, want_type);
	CHECK_STR(unit, want_unit);
	sb_free(&sb);
}

int main(void)
{
	MapDesc tuple = {.name = "@", .key = &t_tuple, .val = &t_count};
	CHECK(pprof_takes(&tuple));
	MapDesc ints = {.name = "@x", .key = &t_i64, .val = &t_count};
	CHECK(!pprof_takes(&ints)); /* not keyed by stacks */
	MapDesc strs = {.name = "@x", .key = &t_kstack, .val = &t_str};
	CHECK(!pprof_takes(&strs)); /* values that are not numbers */
	check_type("@", &t_count, "samples", "count");
	check_type("@cpu", &t_count, "cpu", "count");
	check_type("@cpu_ns", &t_count, "cpu_ns", "count"); /* count() counts */
	check_type("@off_cpu_ns", &t_sum, "off_cpu", "nanoseconds");
	check_type("@wait_us", &t_sum, "wait", "microseconds");
	check_type("@alloc_bytes", &t_sum, "alloc", "bytes");
	check_type("@", &t_sum, "value", "count");
	return check_done("test_pprof");
}
