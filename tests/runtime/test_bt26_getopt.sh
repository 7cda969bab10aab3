#!/usr/bin/env bash
# bpftrace 0.26's named parameters: `-- --NAME=VALUE` read by getopt(),
# typed by its default; positional ones around them stay $1, $2 (a string
# when not a number); a value of the wrong kind is an error with a caret;
# under SONDE_COMPAT=0.17 "--aa" is a positional parameter, as there.
SONDE=${SONDE:-./sonde}
fail=0
out=$("$SONDE" -e 'begin { print(($1, getopt("aa", 10), getopt("bb", -1), $2, getopt("cc", "hi"), getopt("dd"), getopt("ee", true))); }' \
	pos1 -- --aa=0xffffffffffffffff --bb=-5 --cc=bye pos2 --dd --ee=FALSE 2>/dev/null)
[ "$out" = "(pos1, 18446744073709551615, -5, pos2, bye, true, false)" ] || { printf 'getopt values:\n%s\n' "$out"; fail=1; }
out=$("$SONDE" -e 'begin { print((getopt("aa", 10), getopt("dd"), getopt("cc", "hi", "a description"))); }' 2>/dev/null)
[ "$out" = "(10, false, hi)" ] || { printf 'getopt defaults:\n%s\n' "$out"; fail=1; }
out=$("$SONDE" -e 'begin { print(getopt("aa", 10)); }' -- --aa=ten 2>&1)
rc=$?
[ $rc = 1 ] && grep -q "ERROR: named parameter 'aa' expects an integer, got 'ten'" <<<"$out" &&
	grep -q '^ *~*\^~*$' <<<"$out" || { printf 'getopt bad value (status %s):\n%s\n' "$rc" "$out"; fail=1; }
out=$(SONDE_COMPAT=0.17 "$SONDE" -e 'BEGIN { printf("%s\n", str($1)); exit(); }' -- --aa 2>/dev/null)
grep -qx -- '--aa' <<<"$out" || { printf '0.17 --aa:\n%s\n' "$out"; fail=1; }
exit $fail
