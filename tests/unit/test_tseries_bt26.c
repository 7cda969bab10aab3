/* bpftrace 0.26's tseries(): its type (TY_TSERIES, the interval, the count
 * of intervals and how values combine), its errors (message and line:col),
 * that 0.26's traced probes wait for BEGIN and stop at exit()
 * (CodegenHooks.gate_probes), and the runtime's merge and printing of its
 * slots (runtime/tseries_print.c).  On the real kernel: tests/bt26
 * (call.tseries*, json-output.time series*, other.tseries can be cleared)
 * and tests/runtime/test_bt26_tseries.sh. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compile_check.h"
#include "bt/generation_bt.h"
#include "compile/codegen_hooks.h"
#include "compile/sema.h"
#include "runtime/tseries_print.h"

static const BtGeneration *g026, *g017;

static void expect_ts_error(const char *prog, int line, int col, const char *msg)
{
	check_error_at(compile_as(g026, prog), prog, line, col, msg);
}

static void test_type(void)
{
	Compiled r = compile_as(g026, "begin { @a = tseries(-3, 100ms, 5, \"max\"); "
				 "@b[1] = tseries(7, 1s, 2); }");
	CHECK(r.sc != NULL);
	if (r.sc) {
		const Type *a = r.prog->probes[0]->body.v[0]->expr->type;
		CHECK(a->kind == TY_TSERIES && a->ts_interval == 100000000 && a->ts_count == 5);
		CHECK(a->ts_agg == TS_AGG_MAX && a->is_signed && a->size == 5 * TSERIES_SLOT);
		CHECK(type_is_agg(a));
	}
	compiled_free(&r);
	Compiled o = compile_as(g017, "BEGIN { @a = tseries(1, 1000, 5); }");
	CHECK(!o.sc && o.err.set && strstr(o.err.msg, "Unknown function: tseries"));
	compiled_free(&o);
}

static void test_errors(void)
{
	expect_ts_error("begin { @a = tseries(1, 100ms, 5, \"median\"); }", 1, 35,
		     "tseries() expects one of the following aggregation functions: avg, max, min, "
		     "sum (\"median\" provided)");
	expect_ts_error("begin { @a = tseries(1, 0, 5); }", 1, 25,
		     "tseries() interval_ns must be >= 1 (0 provided)");
	expect_ts_error("begin { @a = tseries(1, 10, 0); }", 1, 29,
		     "tseries() num_intervals must be between 1 and 1000000 (0 provided)");
	expect_ts_error("begin { $x = 1; @a = tseries(1, $x, 5); }", 1, 33,
		     "tseries() argument 2 must be an integer literal");
}

static void test_gate(void)
{
	CHECK(g026->fe.codegen && g026->fe.codegen->gate_probes);
	CHECK(!g017->fe.codegen || !g017->fe.codegen->gate_probes);
}

/* slots: {tag = interval + 1, value, count, last ns} */
static void put(char *v, int i, uint64_t tag, int64_t val, uint64_t n, uint64_t ns)
{
	uint64_t w[4] = {tag, (uint64_t)val, n, ns};
	memcpy(v + i * TSERIES_SLOT, w, sizeof(w));
}

static void test_print(void)
{
	setenv("TZ", "UTC", 1);
	Type t = {.kind = TY_TSERIES, .ts_interval = 100000000, .ts_count = 3, .is_signed = true,
		  .ts_agg = TS_AGG_AVG};
	char a[3 * TSERIES_SLOT] = {0}, b[3 * TSERIES_SLOT] = {0};
	put(a, 0, 4, 10, 2, 1);  /* interval 3 (0.3 s): 10 over 2 values */
	put(a, 1, 2, 99, 1, 1);  /* interval 1: too old once 4 and 5 are kept */
	put(b, 1, 5, 6, 1, 2);   /* interval 4 on another CPU: newer than a's interval 1 */
	put(b, 0, 4, 2, 2, 2);   /* interval 3 there too: the same interval combines */
	tseries_merge(&t, a, b);
	StrBuf sb = {0};
	tseries_json(&sb, &t, a);
	CHECK(sb.s && !strcmp(sb.s, "[{\"interval_start\": \"1970-01-01 00:00:00.300000000\", \"value\": 3}, "
			  "{\"interval_start\": \"1970-01-01 00:00:00.400000000\", \"value\": 6}]"));
	if (sb.s && check_failed)
		fprintf(stderr, "json: %s\n", sb.s);
	sb_free(&sb);
	tseries_text(&sb, &t, a);
	CHECK(sb.s && strstr(sb.s, "hh:mm:ss.ms  |___") && strstr(sb.s, "\n00:00:00.300 *") &&
	      strstr(sb.s, "| 3\n") && strstr(sb.s, "* 6\n"));
	sb_free(&sb);
	char empty[3 * TSERIES_SLOT] = {0};
	tseries_text(&sb, &t, empty);
	CHECK(sb.s && !strcmp(sb.s, "<no data>"));
	sb_free(&sb);
}

/* an interval with no value between two that have one: in text its row
 * has the graph's frame and " -" for the value, in JSON a null value (as
 * bpftrace's TextEmitter/JsonEmitter<Value::TimeSeries> print a missing
 * value) */
static void test_gap(void)
{
	setenv("TZ", "UTC", 1);
	Type t = {.kind = TY_TSERIES, .ts_interval = 100000000, .ts_count = 3, .is_signed = true,
		  .ts_agg = TS_AGG_LAST};
	char v[3 * TSERIES_SLOT] = {0};
	put(v, 1, 2, 5, 1, 1); /* interval 1 */
	put(v, 0, 4, 7, 1, 2); /* interval 3; interval 2 has none */
	StrBuf sb = {0};
	tseries_json(&sb, &t, v);
	CHECK(sb.s && strstr(sb.s, "{\"interval_start\": \"1970-01-01 00:00:00.200000000\", \"value\": null}"));
	sb_free(&sb);
	tseries_text(&sb, &t, v);
	char row[128];
	snprintf(row, sizeof(row), "\n00:00:00.200 |%*s| -\n", 51, "");
	CHECK(sb.s && strstr(sb.s, row) && strstr(sb.s, "\n00:00:00.100 *") && strstr(sb.s, "* 7\n"));
	sb_free(&sb);
}

int main(void)
{
	unsetenv("SONDE_COMPAT");
	g026 = bt_generation_named("0.26");
	g017 = bt_generation_named("0.17");
	test_type();
	test_errors();
	test_gate();
	test_print();
	test_gap();
	return check_done("test_tseries_bt26");
}
