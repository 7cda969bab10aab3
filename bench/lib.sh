# Shared helpers for the benchmarks comparing sonde with bpftrace, strace and
# perf trace.  Source it: `. "$(dirname "$0")/lib.sh"`.  Plain bash (>= 5.0,
# for EPOCHREALTIME); numbers are printed with '.' whatever the locale.

# need CMD...: returns 1 with a SKIP line when a tool is missing, so a script
# can skip just the comparisons that tool is in: `need bpftrace || return`.
need() {
	local c
	for c in "$@"; do
		if ! command -v "$c" >/dev/null 2>&1; then
			echo "SKIP: $c not found" >&2
			return 1
		fi
	done
}

# median FILE: median of the numbers in FILE, one per line (blank lines
# ignored; the mean of the middle two for an even count).  Fails if empty.
median() {
	grep -v '^[[:space:]]*$' "$1" | LC_ALL=C sort -g | LC_ALL=C awk '
		{ v[NR] = $1 }
		END {
			if (NR == 0) exit 1
			m = int((NR + 1) / 2)
			x = NR % 2 ? v[m] : (v[m] + v[m + 1]) / 2
			# %g alone would turn large counts into 1.2e+06
			printf (x == int(x) ? "%.0f\n" : "%.6g\n"), x
		}'
}

# time_cmd N CMD...: runs CMD N times (output discarded) and prints
# "<median wall ms> <median peak RSS MiB>", e.g. "212.4 3.4".
# Wall time is taken around a plain run of CMD with EPOCHREALTIME (time's %e
# has only 10 ms resolution; the separator follows LC_NUMERIC, so it is
# stripped to get microseconds, not parsed); peak RSS comes from
# /usr/bin/time's %M (KiB) on a second run, so that time's own fork and exec
# (~5 ms on this VM, as much as a small program's whole start-up) are not
# counted as CMD's wall time.
time_cmd() {
	local n=$1 i t0 t1 out rc=0
	shift
	[ -x /usr/bin/time ] || { echo "time_cmd: /usr/bin/time missing (apt install time)" >&2; return 1; }
	local dir
	dir=$(mktemp -d) || return 1
	for ((i = 0; i < n; i++)); do
		t0=${EPOCHREALTIME/[.,]/}
		"$@" >/dev/null 2>&1 || rc=$?
		t1=${EPOCHREALTIME/[.,]/}
		echo $(((t1 - t0) / 100)) >>"$dir/us100"
		/usr/bin/time -f '%e %M' -o "$dir/time" -- "$@" >/dev/null 2>&1 || rc=$?
		# with a failed command, time puts a status line before ours
		tail -n 1 "$dir/time" | LC_ALL=C awk '{ print $2 / 1024 }' >>"$dir/mib"
	done
	[ "$rc" = 0 ] || echo "time_cmd: '$*' exited with status $rc" >&2
	out="$(median "$dir/us100" | LC_ALL=C awk '{ printf "%.1f", $1 / 10 }') $(median "$dir/mib" | LC_ALL=C awk '{ printf "%.1f", $1 }')"
	rm -rf "$dir"
	echo "$out"
}

# ratio A B: A/B with 2 decimals (e.g. overhead of traced vs. plain run).
ratio() {
	LC_ALL=C awk -v a="$1" -v b="$2" 'BEGIN {
		if (b + 0 == 0) { print "n/a"; exit 1 }
		printf "%.2f\n", a / b }'
}

# dd_time [COUNT]: a syscall-heavy workload (one read and one write per byte)
# timed by dd itself, so tracer start-up does not count; prints seconds.
# LC_ALL=C keeps dd's number format parseable.
dd_time() {
	LC_ALL=C dd if=/dev/zero of=/dev/null bs=1 count="${1:-500k}" 2>&1 >/dev/null |
		sed -n 's/.*copied, \([0-9.e+-]*\) s,.*/\1/p'
}
