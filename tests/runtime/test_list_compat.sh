#!/usr/bin/env bash
# -l as bpftrace 0.17 lists user-space probes (compared with bpftrace when it
# is installed; tests/compat's cases run programs, not listings):
# uretprobe:BIN:FUNC lists the functions as uprobe does, named uretprobe;
# a one-part uprobe:FILE is bpftrace's "requires 2 arguments" error.
export SONDE_COMPAT=0.17 # compared with bpftrace 0.17: sonde speaks its generation
set -u
P=$PWD/build/progs
fail=0
norm() { sed -E -e '/RLIMIT_MEMLOCK/d' -e 's/^(stdin:[0-9]+:[0-9]+)-[0-9]+:/\1:/' -e 's/^ *[~^][~^]*$/^/'; }
check() { # NAME WANT ARGS...
	local name=$1 want=$2; shift 2
	local got; got=$("$SONDE" "$@" 2>&1 | norm)
	[ "$got" == "$want" ] || { echo "$name: got"; echo "$got"; echo "--- want"; echo "$want"; fail=1; }
	if command -v bpftrace >/dev/null; then
		local ref; ref=$(bpftrace "$@" 2>&1 | norm)
		[ "$got" == "$ref" ] || { echo "$name: differs from bpftrace:"; echo "$ref"; fail=1; }
	fi
}
check "-l uretprobe" "uretprobe:$P/uprobe_target:main" -l "uretprobe:$P/uprobe_target:ma*"
check "-l ur" "uretprobe:$P/uprobe_target:main" -l "ur:$P/uprobe_target:ma*"
check "-l uprobe one part" "stdin:1:1: ERROR: uprobe probe type requires 2 arguments
uprobe:./dir/wild*
^" -l 'uprobe:./dir/wild*'
check "-l uprobe FILE" "stdin:1:1: ERROR: uprobe probe type requires 2 arguments
uprobe:$P/uprobe_target
^" -l "uprobe:$P/uprobe_target"
exit $fail
