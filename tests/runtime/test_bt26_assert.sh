#!/usr/bin/env bash
# bpftrace 0.26's assert(cond, msg): a false condition prints "assert
# failed: msg" as an error at the call and ends the run with status 1 (END
# still runs); a true one goes on.  fail(fmt, args) and static_assert(cond,
# msg) stop the compile, unless a constant condition skips their branch
# (`if ($1 < 2) { fail(...) }`, stdlib.md's example).
SONDE=${SONDE:-./sonde}
fail=0
out=$("$SONDE" -e 'begin { assert(1 == 1, "fine"); printf("a\n"); assert(2 < 1, "two is small");
  printf("b\n"); } end { printf("end\n"); }' 2>&1)
rc=$?
[ $rc = 1 ] || { echo "assert: status $rc"; fail=1; }
grep -q '^stdin:1:[0-9]*-[0-9]*: ERROR: assert failed: two is small$' <<<"$out" &&
	grep -q '^a$' <<<"$out" && grep -q '^end$' <<<"$out" && ! grep -q '^b$' <<<"$out" ||
	{ printf 'assert output:\n%s\n' "$out"; fail=1; }
prog='begin { if ($1 < 2) { fail("Expected the first positional param to be greater than 1. Got %d", $1); } printf("ran %d\n", $1); }'
out=$("$SONDE" -e "$prog" 1 2>&1)
rc=$?
[ $rc = 1 ] && grep -q '^stdin:1:23-99: ERROR: Expected the first positional param to be greater than 1. Got 1$' <<<"$out" ||
	{ printf 'fail() taken (status %s):\n%s\n' "$rc" "$out"; fail=1; }
out=$("$SONDE" -e "$prog" 5 2>&1)
grep -q '^ran 5$' <<<"$out" || { printf 'fail() not taken:\n%s\n' "$out"; fail=1; }
out=$("$SONDE" -e 'begin { static_assert($1 > 0, "give a positive count"); printf("ok\n"); }' 0 2>&1)
grep -q 'ERROR: give a positive count$' <<<"$out" || { printf 'static_assert:\n%s\n' "$out"; fail=1; }
out=$("$SONDE" -e 'begin { static_assert($1 > 0, "give a positive count"); printf("ok\n"); }' 3 2>&1)
grep -q '^ok$' <<<"$out" || { printf 'static_assert holds:\n%s\n' "$out"; fail=1; }
out=$(SONDE_COMPAT=0.17 "$SONDE" -e 'BEGIN { assert(1, "x"); }' 2>&1)
grep -q 'Unknown function: assert' <<<"$out" || { printf '0.17:\n%s\n' "$out"; fail=1; }
exit $fail
