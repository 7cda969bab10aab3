#!/usr/bin/env bash
# Differential suite: runs each tests/compat/cases/NAME.bt under bpftrace 0.17
# and under sonde, and compares what they print (stdout and stderr together,
# plus an "exit status N" line when N is not 0).  See tests/compat/README.md.
#   tests/compat/run.sh [NAME...]    (default: every case)
#   tests/compat/run.sh --sonde NAME  print sonde's output as compared (to write NAME.expect)
# Prints a diff for each case that differs, then "compat: N passed, N failed[, N skipped]".
export SONDE_COMPAT=0.17 # compared with bpftrace 0.17: sonde speaks its generation
set -u
cd "$(dirname "$0")/../.."
ROOT=$PWD
SONDE=${SONDE:-$ROOT/sonde}
BPFTRACE=${BPFTRACE:-bpftrace}
CASE_TIMEOUT=${CASE_TIMEOUT:-60}
export ROOT SONDE
cases=$ROOT/tests/compat/cases
out=$(mktemp -d /tmp/sonde-compat.XXXXXX)
trap 'rm -rf "$out"' EXIT
passed=0 failed=0 skipped=0
failures=()

have_bpftrace=1
command -v "$BPFTRACE" >/dev/null 2>&1 || have_bpftrace=0

# run TOOL NAME OUTFILE: the tool's output for one case, in the cases
# directory so that both see the script as NAME.bt (it shows in messages).
run() {
	local tool=$1 name=$2 file=$3 args=() params=() envs=() rc
	[ -f "$cases/$name.args" ] && eval "args=($(cat "$cases/$name.args"))"
	[ -f "$cases/$name.env" ] && eval "envs=($(cat "$cases/$name.env"))"
	[ -f "$cases/$name.params" ] && eval "params=($(cat "$cases/$name.params"))"
	local cmdline=("${args[@]}" "$name.bt" "${params[@]}")
	# NAME.argv: the whole command line, for cases that run no program (-l, -V)
	[ -f "$cases/$name.argv" ] && eval "cmdline=($(cat "$cases/$name.argv"))"
	(cd "$cases" && exec env "${envs[@]}" timeout -s INT -k 5 "$CASE_TIMEOUT" "$tool" "${cmdline[@]}" </dev/null >"$file" 2>&1)
	rc=$?
	[ $rc = 0 ] || echo "exit status $rc" >>"$file"
	# bpftrace cannot raise RLIMIT_MEMLOCK in a container whose hard limit is
	# low; it says so and carries on (sonde does not need the raise).
	sed -i -E '/^ERROR: Unknown error -1: couldn.t set RLIMIT_MEMLOCK/d' "$file"
	# Diagnostics: sonde puts its caret under the culprit's name where
	# bpftrace underlines the whole expression: the end column of
	# "FILE:L:C-END:" and the underline are not compared (L:C are).
	sed -i -E -e 's/^([^ :]+:[0-9]+:[0-9]+)-[0-9]+: (ERROR|WARNING): /\1: \2: /' \
		-e 's/^( *)[~^][~^]*$/\1^/' "$file"
	if [ -f "$cases/$name.filter" ]; then
		sed -E -f "$cases/$name.filter" "$file" >"$file.f" && mv "$file.f" "$file"
	fi
}

if [ "${1:-}" = --sonde ]; then
	run "$SONDE" "$2" "$out/sonde"
	cat "$out/sonde"
	exit 0
fi

names=("$@")
if [ ${#names[@]} = 0 ]; then
	for bt in "$cases"/*.bt; do [ -f "$bt" ] && names+=("$(basename "$bt" .bt)"); done
fi

for name in "${names[@]}"; do
	if [ ! -f "$cases/$name.bt" ]; then
		echo "compat: no case $name"; failed=$((failed + 1)); failures+=("$name"); continue
	fi
	if [ -f "$cases/$name.why" ]; then
		# A stated difference: sonde must print NAME.expect.
		if [ ! -f "$cases/$name.expect" ]; then
			echo "compat $name: has $name.why but no $name.expect"
			failed=$((failed + 1)); failures+=("$name"); continue
		fi
		cp "$cases/$name.expect" "$out/$name.ref"
		run "$SONDE" "$name" "$out/$name.sonde"
		label="$name.expect"
	else
		if [ $have_bpftrace = 0 ]; then skipped=$((skipped + 1)); continue; fi
		# One after the other: a uprobe case without a pid filter would see
		# the other tool's workload too.
		run "$BPFTRACE" "$name" "$out/$name.ref"
		run "$SONDE" "$name" "$out/$name.sonde"
		# sonde's hints after a message are its own (bpftrace has none)
		sed -i '/^hint: /d' "$out/$name.sonde"
		label="bpftrace"
	fi
	if cmp -s "$out/$name.ref" "$out/$name.sonde"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1)); failures+=("$name")
		echo "--- compat case $name differs ($label vs sonde):"
		diff -u --label "$label" --label sonde "$out/$name.ref" "$out/$name.sonde" | head -40
	fi
done

[ $have_bpftrace = 1 ] || echo "compat: $BPFTRACE not installed: $skipped cases skipped"
for f in "${failures[@]}"; do echo "compat FAILED: $f"; done
if [ $skipped -gt 0 ]; then
	echo "compat: $passed passed, $failed failed, $skipped skipped"
else
	echo "compat: $passed passed, $failed failed"
fi
[ $failed = 0 ]
