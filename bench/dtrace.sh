#!/usr/bin/env bash
# bench/dtrace.sh [--quick]: does the D dialect cost anything?  The same
# programs through `sonde dtrace` (D) and through sonde's bpftrace language,
# medians of N runs, and the D/bpftrace ratios:
#   1. start-up: BEGIN { exit(0); } / BEGIN { exit(); }: wall time, peak RSS
#   2. count: every write(2) of `dd bs=1 count=500k` counted (-c), wall time
#      of the whole run, and the count (must be exact in both)
#   3. printf: one line per write of the same dd to a file: wall time and
#      lines delivered
# Writes the table to bench/results/dtrace.md.  Needs root, /usr/bin/time.
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh

CMDLINE="bench/dtrace.sh${*:+ $*}"
N=5
[ "${1:-}" = --quick ] && N=3
SONDE=${SONDE:-./sonde}
[ -x "$SONDE" ] || { echo "bench/dtrace.sh: $SONDE not built (run make)" >&2; exit 1; }
need /usr/bin/time || exit 1
T=$(mktemp -d /tmp/sonde-dbench.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
DD='dd if=/dev/zero of=/dev/null bs=1 count=500k status=none'

# run_n N FILE-PREFIX CMD...: wall ms of each run in PREFIX.ms, stdout of the
# last in PREFIX.out
run_n() {
	local n=$1 p=$2 i t0 t1
	shift 2
	: >"$p.ms"
	for ((i = 0; i < n; i++)); do
		[ -n "${CLEAR:-}" ] && rm -f "$CLEAR" # -o appends in dtrace: one run's lines
		t0=${EPOCHREALTIME/[.,]/}
		"$@" >"$p.out" 2>"$p.err"
		t1=${EPOCHREALTIME/[.,]/}
		echo $(((t1 - t0) / 1000)) >>"$p.ms"
	done
}

row() { # name d-value bt-value unit
	printf '| %s | %s %s | %s %s | %s |\n' "$1" "$2" "$4" "$3" "$4" "$(ratio "$2" "$3")"
}

{
	echo "# sonde dtrace vs sonde's bpftrace dialect"
	echo
	echo "\`$CMDLINE\`, $(date -u '+%Y-%m-%d %H:%M UTC'), Linux $(uname -r), $(nproc) CPUs; medians of $N runs."
	echo
	echo '| benchmark | D (sonde dtrace) | bpftrace dialect | D / bpftrace |'
	echo '| --- | --- | --- | --- |'

	read -r dms dmib < <(time_cmd "$N" "$SONDE" dtrace -qn 'BEGIN { exit(0); }')
	read -r bms bmib < <(time_cmd "$N" "$SONDE" -e 'BEGIN { exit(); }')
	row "start-up, BEGIN { exit } (wall)" "$dms" "$bms" ms
	row "start-up (peak RSS)" "$dmib" "$bmib" MiB

	run_n "$N" "$T/dc" "$SONDE" dtrace -q -c "$DD" \
		-n 'syscall::write:entry /pid == $target/ { n++; } END { printf("%d\n", n); }'
	run_n "$N" "$T/bc" "$SONDE" -q -c "$DD" \
		-e 'tracepoint:syscalls:sys_enter_write /pid == cpid/ { @n++; } END { printf("%d\n", @n); clear(@n); }'
	row "count writes of dd bs=1 count=500k (wall)" "$(median "$T/dc.ms")" "$(median "$T/bc.ms")" ms
	row "  writes counted" "$(grep -E '^[0-9]+$' "$T/dc.out" | head -1)" \
		"$(grep -E '^[0-9]+$' "$T/bc.out" | head -1)" ""

	CLEAR=$T/d.lines run_n "$N" "$T/dp" "$SONDE" dtrace -q -o "$T/d.lines" -c "$DD" \
		-n 'syscall::write:entry /pid == $target/ { printf("%d %d\n", arg0, arg2); }'
	CLEAR=$T/b.lines run_n "$N" "$T/bp" "$SONDE" -q -o "$T/b.lines" -c "$DD" \
		-e 'tracepoint:syscalls:sys_enter_write /pid == cpid/ { printf("%d %d\n", args->fd, args->count); }'
	row "printf each write to a file (wall)" "$(median "$T/dp.ms")" "$(median "$T/bp.ms")" ms
	row "  lines delivered (last run)" "$(grep -c '^1 1$' "$T/d.lines")" "$(grep -c '^1 1$' "$T/b.lines")" ""
} | tee bench/results/dtrace.md
