#!/usr/bin/env bash
# sonde dtrace's tests, in the style of DTrace's own suite (run from this
# directory, so messages name scripts as written):
#   tst.NAME.d      must succeed: stdout equals tst.NAME.d.out exactly
#   err.NAME.d      must fail: stderr equals err.NAME.d.out exactly
# Optional beside a case: NAME.d.args (dtrace options before `-s NAME.d`,
# bash words; a case with args holding -n/-P/-m/-f/-i and no -s runs
# without -s), NAME.d.exit (the expected exit status: 0 for tst, 1 for
# err), NAME.d.err (tst: the expected stderr), NAME.d.filter (a sed -E
# script applied to both outputs: CPU numbers, probe ids, pids), NAME.d.env
# (VAR=VALUE words put in sonde's environment: tests-only knobs).
# Prints "dtrace: N passed, N failed".
set -u
cd "$(dirname "$0")"
SONDE=${SONDE:-$PWD/../../sonde}
passed=0 failed=0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# compare byte for byte (trailing blank lines matter: dtrace prints them)
check() { # case what expected-file got-file
	if cmp -s "$3" "$4"; then return 0; fi
	echo "FAIL $1 ($2):"
	diff "$3" "$4" | head -20
	return 1
}

for d in tst.*.d err.*.d; do
	[ -f "$d" ] || continue
	args=()
	[ -f "$d.args" ] && eval "args=($(cat "$d.args"))"
	envs=()
	[ -f "$d.env" ] && eval "envs=($(cat "$d.env"))"
	run=(-s "$d")
	if [ -f "$d.args" ] && grep -qE -- "(^| )-[nPmfis]" "$d.args"; then
		run=()
	fi
	want_rc=0
	[[ $d == err.* ]] && want_rc=1
	[ -f "$d.exit" ] && want_rc=$(cat "$d.exit")
	env "${envs[@]}" timeout 60 "$SONDE" dtrace "${args[@]}" "${run[@]}" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	filt() { if [ -f "$d.filter" ]; then sed -E -f "$d.filter" "$1"; else cat "$1"; fi; }
	ok=true
	if [ "$rc" != "$want_rc" ]; then
		echo "FAIL $d: exit status $rc, expected $want_rc"; head -5 "$tmp/err"; ok=false
	elif [[ $d == tst.* ]]; then
		filt "$d.out" >"$tmp/want"; filt "$tmp/out" >"$tmp/got"
		check "$d" stdout "$tmp/want" "$tmp/got" || ok=false
		if [ -f "$d.err" ]; then
			filt "$d.err" >"$tmp/want"; filt "$tmp/err" >"$tmp/got"
			check "$d" stderr "$tmp/want" "$tmp/got" || ok=false
		fi
	else
		filt "$d.out" >"$tmp/want"; filt "$tmp/err" >"$tmp/got"
		check "$d" stderr "$tmp/want" "$tmp/got" || ok=false
	fi
	if $ok; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "dtrace: $passed passed, $failed failed"
