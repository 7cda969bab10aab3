#!/usr/bin/env bash
# Runs every test: unit tests (no root), then runtime tests (root, real
# kernel).  Prints a last line "N passed, N failed[, N skipped]".
set -u
cd "$(dirname "$0")/.."
SONDE=${SONDE:-$PWD/sonde}
export SONDE
passed=0 failed=0 skipped=0
failures=()

# A suite script that ends with "NAME: N passed, N failed[, N skipped]".
suite() { # name script
	local out line f
	out=$(bash "$2" 2>&1)
	line=$(printf '%s\n' "$out" | grep -E "^$1: [0-9]+ passed, [0-9]+ failed" | tail -n 1)
	if [ -z "$line" ]; then
		failed=$((failed + 1)); failures+=("$2 (no summary)"); printf '%s\n' "$out" | tail -15
		return
	fi
	passed=$((passed + $(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$line")))
	f=$(sed -E 's/.*passed, ([0-9]+) failed.*/\1/' <<<"$line")
	failed=$((failed + f))
	grep -q skipped <<<"$line" && skipped=$((skipped + $(sed -E 's/.*, ([0-9]+) skipped.*/\1/' <<<"$line")))
	[ "$f" = 0 ] || { failures+=("$2"); printf '%s\n' "$out" | grep -v "^$1: " | head -60; }
	echo "$line"
}

# The layers call down only (src/LAYERS, dev/check-layers.py): one test.
if out=$(python3 dev/check-layers.py 2>&1); then passed=$((passed + 1))
else failed=$((failed + 1)); failures+=("check-layers")
fi
printf '%s\n' "$out" | tail -20

# Unit test binaries print "NAME: N passed, N failed".
for t in build/tests/test_*; do
	[ -x "$t" ] || continue
	out=$("$t" 2>&1)
	line=$(printf '%s\n' "$out" | grep -E '^[a-z0-9_]+: [0-9]+ passed, [0-9]+ failed' | tail -n 1)
	p=$(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$line")
	f=$(sed -E 's/.*passed, ([0-9]+) failed.*/\1/' <<<"$line")
	if [ -z "$line" ]; then
		failed=$((failed + 1)); failures+=("$t (no summary)"); printf '%s\n' "$out" | tail -5
		continue
	fi
	passed=$((passed + p)); failed=$((failed + f))
	[ "$f" = 0 ] || { failures+=("$t"); printf '%s\n' "$out" | grep -v ' passed, ' | head -20; }
	echo "$line"
done

if [ "$(id -u)" != 0 ]; then
	echo "runtime tests need root: skipped"
	skipped=$((skipped + 1))
else
	# Case files: NAME.bt, NAME.expect (exact stdout), optional NAME.args
	# (extra arguments, e.g. -c 'cmd'), optional NAME.filter (a sed script
	# applied to stdout before comparing, for lines that vary).
	for bt in tests/runtime/cases/*.bt; do
		name=$(basename "$bt" .bt)
		dir=$(dirname "$bt")
		args=()
		[ -f "$dir/$name.args" ] && eval "args=($(cat "$dir/$name.args"))"
		# sonde's own cases check bpftrace 0.17's output (Attaching N probes...,
		# BEGIN runs on); bt26_* cases check 0.26's, the default generation
		compat=0.17
		case $name in bt26_*) compat= ;; esac
		got=$(SONDE_COMPAT=$compat timeout 60 "$SONDE" "${args[@]}" "$bt" 2>&1)
		[ -f "$dir/$name.filter" ] && got=$(sed -E -f "$dir/$name.filter" <<<"$got")
		if [ "$got" == "$(cat "$dir/$name.expect")" ]; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1)); failures+=("runtime case $name")
			diff <(cat "$dir/$name.expect") <(printf '%s\n' "$got") | head -20
		fi
	done
	# Differential suite: each case run under bpftrace and sonde, outputs compared.
	suite compat tests/compat/run.sh
	# bpftrace v0.26.1's own runtime tests, on sonde's default language.
	suite bt26 tests/bt26/run.sh
	# sonde dtrace: DTrace-style tst.*/err.* cases.
	suite dtrace tests/dtrace/run.sh
	# DTraceToolkit-style D scripts run unchanged on known workloads.
	suite dscripts tests/dtrace/scripts/run.sh
	# Scripted tests: exit 0 = pass, 77 = skipped, else fail.
	for sh in tests/runtime/test_*.sh; do
		[ -f "$sh" ] || continue
		# sonde's own scripts check bpftrace 0.17's output; test_bt26_* 0.26's
		case $(basename "$sh") in
		test_bt26_*) out=$(timeout 120 bash "$sh" 2>&1); rc=$? ;;
		*) out=$(SONDE_COMPAT=0.17 timeout 120 bash "$sh" 2>&1); rc=$? ;;
		esac
		if [ $rc = 0 ]; then passed=$((passed + 1))
		elif [ $rc = 77 ]; then skipped=$((skipped + 1)); echo "skipped $(basename "$sh"): $out" | tail -1
		else failed=$((failed + 1)); failures+=("$(basename "$sh")"); printf '%s\n' "$out" | tail -15
		fi
	done
fi

for f in "${failures[@]}"; do echo "FAILED: $f"; done
if [ $skipped -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ $failed = 0 ]
