#!/usr/bin/env bash
# Every cases/err_*.bt program is rejected: exit status 1, a caret line
# (under bpftrace's start of the location, "~~^", or under the culprit),
# and nothing attached.
SONDE=$(realpath "${SONDE:-./sonde}")
cd "$(dirname "$0")/cases" || exit 1
fail=0
for bt in err_*.bt; do
	out=$("$SONDE" "$bt" 2>&1); rc=$?
	if [ $rc != 1 ] || grep -q '^Attaching' <<<"$out" || ! grep -q '^ *~*\^' <<<"$out"; then
		echo "$bt: rc=$rc"; printf '%s\n' "$out" | head -3; fail=1
	fi
done
out=$("$SONDE" -e 'BEGIN { system("true"); exit(); }' 2>&1); rc=$?
[ $rc = 1 ] && grep -q -- '--unsafe' <<<"$out" || { echo "system() without --unsafe: rc=$rc $out"; fail=1; }
exit $fail
