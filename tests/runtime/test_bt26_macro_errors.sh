#!/usr/bin/env bash
# bpftrace 0.26's places for a macro's body: an error found in the body
# (sema, or errorf()/warnf() at run time) is shown where the body says it,
# then "ERROR: expanded from" at each call it was copied to, innermost
# first, each with its line and a caret; across an import the body's file
# is named.
SONDE=${SONDE:-./sonde}
SONDE=$(realpath "$SONDE")
fail=0
bad() { printf '%s\n' "$*"; fail=1; }
unset SONDE_COMPAT

prog='macro bad(x) { $y = "a" + x; $y } macro outer() { bad(2) }
begin { $a = outer(); exit(); }'
out=$("$SONDE" -e "$prog" 2>&1); rc=$?
want="stdin:1:21-24: ERROR: Type mismatch for '+': comparing 'string[2]' with 'int64'
macro bad(x) { \$y = \"a\" + x; \$y } macro outer() { bad(2) }
                    ^~~
stdin:1:51-57: ERROR: expanded from
macro bad(x) { \$y = \"a\" + x; \$y } macro outer() { bad(2) }
                                                  ^~~~~~
stdin:2:14-21: ERROR: expanded from
begin { \$a = outer(); exit(); }
             ^~~~~~~"
[ $rc = 1 ] && [ "$out" = "$want" ] || bad "sema error in a nested macro ($rc): $out"

out=$("$SONDE" -e 'macro w() { warnf("hm %d", 1); } begin { w(); exit(); }' 2>&1 >/dev/null); rc=$?
grep -q '^stdin:1:13-30: WARNING: hm 1$' <<<"$out" &&
	grep -q '^stdin:1:42-45: WARNING: expanded from$' <<<"$out" ||
	bad "warnf in a macro ($rc): $out"

dir=$(mktemp -d /tmp/sonde-macroerr-XXXXXX)
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
printf 'macro bad(x) {\n  $y = "a" + x;\n  $y\n}\n' >"$dir/m.bt"
printf 'import "m.bt";\nbegin { $a = bad(1); }\n' >"$dir/main.bt"
out=$(cd "$dir" && "$SONDE" main.bt 2>&1); rc=$?
[ $rc = 1 ] && grep -q "^$dir/m.bt:2:8-11: ERROR: Type mismatch" <<<"$out" &&
	grep -q '^main.bt:2:14-20: ERROR: expanded from$' <<<"$out" ||
	bad "error in an imported macro ($rc): $out"
exit $fail
