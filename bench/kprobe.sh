#!/usr/bin/env bash
# Kprobe wildcards in the VM lane: time from start to "all attached" and to
# exit, sonde and bpftrace 0.17 side by side in the guest, on Debian 12's
# stock 6.1 (one kprobe each) and its 6.12 (kprobe_multi).  Guest times
# under QEMU TCG (single-threaded emulation: far slower than hardware, the
# ratios are what compare).  Writes bench/results/kprobe.md.
#   bench/kprobe.sh [ROUNDS [BASELINE]]   (default 3 rounds; about 10 minutes)
# BASELINE: an earlier static build of sonde (e.g. main's build/sonde-static
# copied aside), run in the same rounds: before and after under one load.
set -u -o pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
ROUNDS=${1:-3}
BASELINE=${2:-}
[ -z "$BASELINE" ] || [ -x "$BASELINE" ] || { echo "bench/kprobe.sh: no baseline binary $BASELINE" >&2; exit 1; }
out=bench/results/kprobe.md
export VM_DIR=$PWD/build/vm-bench # apart from the test lane's build/vm
log=$VM_DIR/bench-kprobe.log
mkdir -p "$VM_DIR"
# the static build the VM lane runs (make test-kernel): no dynamic loading at
# start-up, 45-50 ms of each run under emulation (Makefile, STATIC)
make -s build/sonde-static || exit 1
export SONDE=$PWD/build/sonde-static
: > "$log"
# BENCH_KERNELS: the kernels' packages (default both)
for k in ${BENCH_KERNELS:-linux-image-amd64 linux-image-6.12-amd64}; do
	SONDE_BASELINE=$BASELINE VM_KERNELS="$k=no_test_matches" VM_BENCH=1 VM_TIMEOUT=2400 BENCH_ROUNDS=$ROUNDS \
		bash tests/kernel/vm.sh > /dev/null 2>&1
	last=$(ls -t "$VM_DIR"/console-*.log.txt | head -1)
	krel=$(sed -E 's/.*console-(.*)\.log\.txt/\1/' <<<"$last")
	grep -a -E '^BENCH ' "$last" | sed "s/^BENCH /$krel /" >> "$log"
	grep -a -E '^BENCH-ERROR' "$last" >&2
done
tmp=$(mktemp -d)
# med KERNEL TOOL PATTERN FIELD: the median of one column of the raw runs, or -
med() {
	awk -v k="$1" -v t="$2" -v p="$3" -v f="$4" '$1 == k && $2 == t && $3 == p && NF >= f { print $f }' \
		"$log" > "$tmp/col"
	[ -s "$tmp/col" ] && median "$tmp/col" || echo -
}
ratio() { [ "$1" != - ] && [ "$2" != - ] && awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", a / b }' || echo -; }
{
	echo "# Kprobe wildcards: start to all attached, and to exit (VM lane)"
	echo
	echo "\`${VM_QEMU_ARGS:+VM_QEMU_ARGS=\"$VM_QEMU_ARGS\" }bench/kprobe.sh $ROUNDS${BASELINE:+ BASELINE}\`, $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end: medians of $ROUNDS runs, milliseconds of guest"
	echo "time under QEMU TCG (one emulated CPU thread on a shared 2-core host; hardware is far faster,"
	[ -n "${VM_QEMU_ARGS:-}" ] && echo "and with $VM_QEMU_ARGS the guest's clock counts instructions, so the host's load does not inflate it;"
	echo "compare the ratios). Program: \`kprobe:PATTERN { @[func] = count(); } BEGIN { printf(\"ATTACHED\\n\"); exit(); }\`"
	echo "(BEGIN runs once every probe is attached, in both tools). Raw runs: \`build/vm-bench/bench-kprobe.log\`."
	echo "\"sonde\": a run that finds sonde's copy of available_filter_functions and the kprobe blacklist"
	echo "from an earlier run in this boot (/run/sonde); \"first\": sonde's first run in a boot (no copy)."
	echo "sonde is its static build (\`build/sonde-static\`, \`make STATIC=1\`), as the VM lane runs it."
	[ -n "$BASELINE" ] && echo "\"before\": the baseline build ($BASELINE), run in the same rounds."
	echo "From sonde's phase times (\`SONDE_TIMES=1\`): \"listings\", from parsed to sonde's index of the kernel's"
	echo "listings mapped (the first run of a boot reads available_filter_functions, the blacklist and kallsyms"
	echo "and makes the index; before the index, reading available_filter_functions or its copy), and \"attach\", from the programs"
	echo "loaded to all attached: the functions' addresses (from the index; before it, looked up in sonde's extract of kallsyms), then the"
	echo "attach system calls (one kprobe_multi link by address on 6.12; one perf_event_open and link per"
	echo "function on 6.1, nearly all of it the kernel's)."
	echo
	echo "| kernel | pattern | functions | sonde attached | of which listings | of which attach | first run attached | of which listings | bpftrace attached | ratio | ratio, first run | sonde exit | bpftrace exit | ratio |${BASELINE:+ before: attached | listings | attach | first run |}"
	echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|${BASELINE:+---:|---:|---:|---:|}"
	for krel in $(cut -d' ' -f1 "$log" | uniq); do
		for pat in 'vfs_*' 'tcp_*'; do
			n=$(awk -v k="$krel" -v p="$pat" '$1 == k && $3 == p { print $4 - 1; exit }' "$log")
			sa=$(med "$krel" sonde "$pat" 5) se=$(med "$krel" sonde "$pat" 6)
			saff=$(med "$krel" sonde "$pat" 7) satt=$(med "$krel" sonde "$pat" 8)
			fa=$(med "$krel" sonde-first "$pat" 5) faff=$(med "$krel" sonde-first "$pat" 7)
			ba=$(med "$krel" bpftrace "$pat" 5) be=$(med "$krel" bpftrace "$pat" 6)
			before=
			[ -n "$BASELINE" ] && before=" $(med "$krel" sonde-baseline "$pat" 5) | $(med "$krel" sonde-baseline "$pat" 7) | $(med "$krel" sonde-baseline "$pat" 8) | $(med "$krel" sonde-baseline-first "$pat" 5) |"
			echo "| $krel | \`kprobe:$pat\` | $n | $sa | $saff | $satt | $fa | $faff | $ba | $(ratio "$ba" "$sa") | $(ratio "$ba" "$fa") | $se | $be | $(ratio "$be" "$se") |$before"
		done
	done
} > "$out"
rm -rf "$tmp"
cat "$out"
