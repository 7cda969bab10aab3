#!/usr/bin/env bash
# bench/dtrace.sh [--quick|--compile]: does the D dialect cost anything?  The same
# programs through `sonde dtrace` (D) and through sonde's bpftrace language,
# medians of N runs, and the D/bpftrace ratios:
#   1. start-up: BEGIN { exit(0); } / BEGIN { exit(); }: wall time, peak RSS
#   2. count: every write(2) of `dd bs=1 count=500k` counted (-c), wall time
#      of the whole run, and the count (must be exact in both)
#   3. printf: one line per write of the same dd to a file: wall time and
#      lines delivered
#   4. compile speed: D programs of 3000 and 5000 clauses compiled with -e,
#      CPU time (SONDE_BEFORE=PATH: the same for another build, and the ratio)
# Writes the table to bench/results/dtrace.md.  Needs root, /usr/bin/time.
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh

CMDLINE="bench/dtrace.sh${*:+ $*}"
N=5
[ "${1:-}" = --quick ] && N=3
ONLY_COMPILE=
[ "${1:-}" = --compile ] && ONLY_COMPILE=1 # section 4 alone
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

# cpu_cmd N CMD...: the median user+system CPU ms of N runs
cpu_cmd() {
	local n=$1 i
	shift
	for ((i = 0; i < n; i++)); do
		/usr/bin/time -f '%U %S' -o "$T/cpu" -- "$@" >/dev/null 2>&1
		tail -n 1 "$T/cpu" | LC_ALL=C awk '{ printf "%.0f\n", ($1 + $2) * 1000 }'
	done >"$T/cpu.ms"
	median "$T/cpu.ms"
}

row() { # name d-value bt-value unit
	printf '| %s | %s %s | %s %s | %s |\n' "$1" "$2" "$4" "$3" "$4" "$(ratio "$2" "$3")"
}

{
	echo "# sonde dtrace vs sonde's bpftrace dialect"
	echo
	echo "\`$CMDLINE\`, $(date -u '+%Y-%m-%d %H:%M UTC'), Linux $(uname -r), $(nproc) CPUs; medians of $N runs."
	echo
	[ -z "$ONLY_COMPILE" ] && {
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
	}

	# 4. compile speed: D programs of thousands of clauses, compiled only
	# (-e: nothing loaded), user+system CPU (the machine's load does not
	# inflate it as it does wall time); SONDE_BEFORE=PATH adds an older build
	python3 -c "print(''.join('syscall::read:entry { @[1] = count(); }\\n' for _ in range(3000)))" >"$T/c1.d"
	python3 -c "print(''.join('BEGIN { x%d = 1; @a%d = count(); }\\n' % (i, i) for i in range(5000)))" >"$T/c2.d"
	echo
	echo "| compile only (-e), CPU | ${SONDE} |${SONDE_BEFORE:+ $SONDE_BEFORE | now / before |}"
	echo "| --- | --- |${SONDE_BEFORE:+ --- | --- |}"
	for c in "c1:3000 clauses syscall::read:entry { @[1] = count(); }" \
		 "c2:5000 clauses BEGIN { xN = 1; @aN = count(); }"; do
		now=$(cpu_cmd "$N" "$SONDE" dtrace -e -s "$T/${c%%:*}.d")
		if [ -n "${SONDE_BEFORE:-}" ]; then
			before=$(cpu_cmd "$N" "$SONDE_BEFORE" dtrace -e -s "$T/${c%%:*}.d")
			echo "| ${c#*:} | $now ms | $before ms | $(ratio "$now" "$before") |"
		else
			echo "| ${c#*:} | $now ms |"
		fi
	done
} | tee "bench/results/dtrace${ONLY_COMPILE:+_compile}.md"
