#!/usr/bin/env bash
# Dump the BPF sonde compiles for every script the tests run, one file per
# script, so that a refactoring can show it changed no instruction:
#   dev/bpf-dumps.sh OUT            # dumps into OUT/
#   diff -r OUT.before OUT.after    # after the change
# bpftrace scripts (tests/runtime/cases, tests/compat/cases, tools/) are
# dumped with `sonde -d bpf`, D scripts (tests/dtrace) with `sonde dtrace -e
# -S`.  Each file holds the dump, the messages and the exit status, so an
# error that changed shows too.  Run from the repository, after `make test`
# built the test programs.
export SONDE_COMPAT=0.17 # the dumps compare with the code before bpftrace 0.26: its generation
set -u
out=${1:?usage: dev/bpf-dumps.sh OUTDIR}
SONDE=${SONDE:-$PWD/sonde}
root=$PWD
export ROOT=$root
mkdir -p "$out/runtime" "$out/compat" "$out/tools" "$out/dtrace"

dump_bt() { # dir name outfile
	local args=() params=()
	[ -f "$1/$2.args" ] && eval "args=($(cat "$1/$2.args"))"
	[ -f "$1/$2.params" ] && eval "params=($(cat "$1/$2.params"))"
	[ -f "$1/$2.argv" ] && return 0 # runs no program
	(cd "$1" && timeout 20 "$SONDE" -d bpf "${args[@]}" "$2.bt" "${params[@]}") \
		>"$3" 2>&1 </dev/null
	echo "exit status $?" >>"$3"
}

dump_d() { # name outfile
	local args=() run=(-s "$1")
	[ -f "$1.args" ] && eval "args=($(cat "$1.args"))"
	if [ -f "$1.args" ] && grep -qE -- "(^| )-[nPmfis]" "$1.args"; then run=(); fi
	timeout 20 "$SONDE" dtrace -e -S "${args[@]}" "${run[@]}" >"$2" 2>&1 </dev/null
	echo "exit status $?" >>"$2"
}

for f in tests/runtime/cases/*.bt; do
	n=$(basename "$f" .bt); dump_bt tests/runtime/cases "$n" "$out/runtime/$n"
done
for f in tests/compat/cases/*.bt; do
	n=$(basename "$f" .bt); dump_bt "$root/tests/compat/cases" "$n" "$out/compat/$n"
done
for f in tools/*.bt; do
	n=$(basename "$f" .bt); dump_bt tools "$n" "$out/tools/$n"
done
(cd tests/dtrace && for f in tst.*.d err.*.d; do dump_d "$f" "$out/dtrace/$f"; done)
# numbers that differ between runs (pids of -c commands) are not the compiler's
sed -i -E 's/(pid|tgid) [0-9]+/\1 N/g' "$out"/*/* 2>/dev/null
echo "dumped $(find "$out" -type f | wc -l) scripts into $out"
