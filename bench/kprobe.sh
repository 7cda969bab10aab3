#!/usr/bin/env bash
# Kprobe wildcards in the VM lane: time from start to "all attached" and to
# exit, sonde and bpftrace 0.17 side by side in the guest, on Debian 12's
# stock 6.1 (one kprobe each) and its 6.12 (kprobe_multi).  Guest times
# under QEMU TCG (single-threaded emulation: far slower than hardware, the
# ratios are what compare).  Writes bench/results/kprobe.md.
#   bench/kprobe.sh [ROUNDS]     (default 3; about 10 minutes)
set -u -o pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
ROUNDS=${1:-3}
out=bench/results/kprobe.md
export VM_DIR=$PWD/build/vm-bench # apart from the test lane's build/vm
log=$VM_DIR/bench-kprobe.log
mkdir -p "$VM_DIR"
make -s sonde || exit 1
: > "$log"
for k in linux-image-amd64 linux-image-6.12-amd64; do
	VM_KERNELS="$k=no_test_matches" VM_BENCH=1 VM_TIMEOUT=1500 BENCH_ROUNDS=$ROUNDS \
		bash tests/kernel/vm.sh > /dev/null 2>&1
	last=$(ls -t "$VM_DIR"/console-*.log.txt | head -1)
	krel=$(sed -E 's/.*console-(.*)\.log\.txt/\1/' <<<"$last")
	grep -a -E '^BENCH' "$last" | sed "s/^BENCH /$krel /" >> "$log"
done
tmp=$(mktemp -d)
{
	echo "# Kprobe wildcards: start to all attached, and to exit (VM lane)"
	echo
	echo "\`bench/kprobe.sh $ROUNDS\`, $(date -u '+%Y-%m-%d %H:%M UTC'): medians of $ROUNDS runs, milliseconds of guest"
	echo "time under QEMU TCG (one emulated CPU thread on a shared 2-core host; hardware is far faster,"
	echo "compare the ratios). Program: \`kprobe:PATTERN { @[func] = count(); } BEGIN { printf(\"ATTACHED\\n\"); exit(); }\`"
	echo "(BEGIN runs once every probe is attached, in both tools). Raw runs: \`build/vm-bench/bench-kprobe.log\`."
	echo "The kernel's share of sonde's time (\`SONDE_TIMES=1\`): \"AFF\", reading available_filter_functions"
	echo "(the kernel formats ~50k lines; bpftrace reads it too) and \"attach\", the attach system calls alone"
	echo "(one kprobe_multi link on 6.12, one perf_event_open and link per function on 6.1)."
	echo
	echo "| kernel | pattern | functions | sonde attached | of which AFF | of which attach | bpftrace attached | ratio | sonde exit | bpftrace exit | ratio |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for krel in $(cut -d' ' -f1 "$log" | uniq); do
		for pat in 'vfs_*' 'tcp_*'; do
			for tool in sonde bpftrace; do
				awk -v k="$krel" -v t="$tool" -v p="$pat" '$1 == k && $2 == t && $3 == p { print $5 }' "$log" > "$tmp/$tool.a"
				awk -v k="$krel" -v t="$tool" -v p="$pat" '$1 == k && $2 == t && $3 == p { print $6 }' "$log" > "$tmp/$tool.e"
			done
			awk -v k="$krel" -v p="$pat" '$1 == k && $2 == "sonde" && $3 == p && NF >= 8 { print $7 > "'"$tmp"'/aff"; print $8 > "'"$tmp"'/att" }' "$log"
			saff=$(median "$tmp/aff" 2>/dev/null || echo -) satt=$(median "$tmp/att" 2>/dev/null || echo -)
			rm -f "$tmp/aff" "$tmp/att"
			n=$(awk -v k="$krel" -v p="$pat" '$1 == k && $3 == p { print $4 - 1; exit }' "$log")
			sa=$(median "$tmp/sonde.a") se=$(median "$tmp/sonde.e")
			ba=$(median "$tmp/bpftrace.a" 2>/dev/null || echo -) be=$(median "$tmp/bpftrace.e" 2>/dev/null || echo -)
			ra=- re=-
			[ "$ba" != - ] && ra=$(awk -v a="$ba" -v b="$sa" 'BEGIN { printf "%.1fx", a / b }')
			[ "$be" != - ] && re=$(awk -v a="$be" -v b="$se" 'BEGIN { printf "%.1fx", a / b }')
			echo "| $krel | \`kprobe:$pat\` | $n | $sa | $saff | $satt | $ba | $ra | $se | $be | $re |"
		done
	done
} > "$out"
rm -rf "$tmp"
cat "$out"
