#!/usr/bin/env bash
# bench/run.sh [--quick]: sonde and bpftrace side by side on six benchmarks.
# Prints a table (benchmark, sonde, bpftrace, sonde/bpftrace, target,
# PASS/MISS) and writes it as markdown to bench/results/latest.md.
#
#   1. start-up: -e 'BEGIN { exit(); }' wall time and peak RSS
#   2. a tracepoint + hist script that exits from interval:ms:100
#   3. in-kernel overhead on `dd bs=1 count=500k` (dd's own time): untraced,
#      an empty program (the floor), @[comm] = count()
#   4. per-event printf of every dd write to a file: lines delivered, Lost
#   5. a generated 2,000-line script with 200 tracepoints: compile time,
#      launch until all probes are attached, detach time
#   6. footprint: binary + shared libraries beyond libc
#
# --quick uses fewer repetitions.  Environment: SONDE (default ./sonde),
# BPFTRACE (default bpftrace).  bpftrace columns print n/a when it is missing.
# Needs root, bash >= 5, /usr/bin/time (apt install time).

cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh

CMDLINE="bench/run.sh${*:+ $*}"
QUICK=0
case "${1:-}" in
--quick) QUICK=1 ;;
"") ;;
*) echo "usage: bench/run.sh [--quick]" >&2; exit 2 ;;
esac

SONDE=${SONDE:-./sonde}
BPFTRACE=${BPFTRACE:-bpftrace}
if ((QUICK)); then
	N_START=10 N_HIST=5 N_DD=3 N_PRINTF=1 N_COMPILE=5 N_ATTACH=1
else
	N_START=20 N_HIST=10 N_DD=5 N_PRINTF=3 N_COMPILE=10 N_ATTACH=3
fi
DD_COUNT=500k
DD_WRITES=512000 # bs=1 count=500k: 512,000 one-byte writes to of=
BT_DRAIN_CAP=30  # seconds bpftrace may take to drain after SIGINT (bench 4)

[ -x "$SONDE" ] || { echo "bench/run.sh: $SONDE not built (run make)" >&2; exit 1; }
need /usr/bin/time || exit 1
[ "$(id -u)" = 0 ] || echo "bench/run.sh: not root; tracing will fail" >&2
HAVE_BT=1
need "$BPFTRACE" || HAVE_BT=0

T=$(mktemp -d /tmp/sonde-bench.XXXXXX) || exit 1
TRACER_PID=
cleanup() {
	[ -n "$TRACER_PID" ] && kill -KILL "$TRACER_PID" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A sleep without forking: read times out on a pipe nobody writes to.
exec {SNOOZE_FD}<> <(:)
snooze() { read -rt "$1" -u "$SNOOZE_FD" || :; }
now_us() { echo "${EPOCHREALTIME/[.,]/}"; }
log() { echo "[$(date +%T)] $*" >&2; }
isnum() { [[ $1 =~ ^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$ ]]; }
calc() { LC_ALL=C awk "BEGIN { printf \"$1\n\", $2 }"; }

# ---------------------------------------------------------------- results
ROWS=() NOTES=()
note() { NOTES+=("$*"); }
# row NAME SONDE BPFTRACE TARGET: TARGET is "<= N", "< bpftrace", "= N" or
# "-" (information only); it applies to the sonde value.
row() {
	local name=$1 s=$2 b=$3 target=$4 r=n/a v
	if isnum "$s" && isnum "$b"; then r=$(ratio "$s" "$b") || r=n/a; fi
	if ! isnum "$s"; then
		v=FAIL
	elif [ "$target" = - ]; then
		v=info
	else
		local op=${target%% *} lim=${target#* }
		[ "$lim" = bpftrace ] && lim=$b
		if ! isnum "$lim"; then
			v=n/a
		elif LC_ALL=C awk -v a="$s" -v op="$op" -v b="$lim" 'BEGIN {
			a += 0; b += 0
			exit !((op == "<=" && a <= b) || (op == "<" && a < b) ||
			       (op == "=" && a == b) || (op == ">=" && a >= b)) }'; then
			v=PASS
		else
			v=MISS
		fi
	fi
	ROWS+=("$name|$s|$b|$r|$target|$v")
}

# fail_note LABEL ERRFILE STATUS CMD...: records why a command failed.
fail_note() {
	local label=$1 err=$2 rc=$3
	shift 3
	note "$label: \`$*\` failed (status $rc): $(grep -v RLIMIT_MEMLOCK "$err" 2>/dev/null | head -n 3 | tr '\n' ' ')"
}

# try_once LABEL CMD...: runs CMD once (30 s cap); on failure notes the error.
try_once() {
	local label=$1 rc=0
	shift
	timeout 30 "$@" >/dev/null 2>"$T/try.err" || rc=$?
	[ "$rc" = 0 ] && return 0
	fail_note "$label" "$T/try.err" "$rc" "$@"
	return 1
}

# start_tracer LOG WATCH CMD...: starts CMD in the background (stdout and
# stderr to LOG) and returns once "Attaching" (bpftrace 0.17, printed just
# before attaching) or "Attached" (0.26, just after) shows in LOG or WATCH,
# plus 100 ms.
start_tracer() {
	local log=$1 watch=$2 deadline
	shift 2
	: >"$watch"
	"$@" >"$log" 2>&1 &
	TRACER_PID=$!
	deadline=$(($(now_us) + 20000000))
	until grep -qsE 'Attaching|Attached' "$log" "$watch"; do
		if ! kill -0 "$TRACER_PID" 2>/dev/null || (($(now_us) > deadline)); then
			kill -KILL "$TRACER_PID" 2>/dev/null
			wait "$TRACER_PID" 2>/dev/null
			TRACER_PID=
			return 1
		fi
		snooze 0.005
	done
	snooze 0.1
}

# stop_tracer CAP: SIGINT, then waits up to CAP seconds before SIGKILL.
# Prints the milliseconds from SIGINT to exit ("killed" if it had to be).
stop_tracer() {
	local cap=$1 t0 deadline killed=0
	t0=$(now_us)
	deadline=$((t0 + cap * 1000000))
	kill -INT "$TRACER_PID" 2>/dev/null
	while kill -0 "$TRACER_PID" 2>/dev/null; do
		if (($(now_us) > deadline)); then
			kill -KILL "$TRACER_PID" 2>/dev/null
			killed=1
			break
		fi
		snooze 0.005
	done
	wait "$TRACER_PID" 2>/dev/null
	TRACER_PID=
	if ((killed)); then echo killed; else echo $((($(now_us) - t0) / 1000)); fi
}

# minus A B: A-B, or A when either is not a number
minus() {
	if isnum "$1" && isnum "$2"; then LC_ALL=C awk -v a="$1" -v b="$2" 'BEGIN { print a - b }'; else echo "$1"; fi
}

med() { median "$1" 2>/dev/null || echo ERR; }

SECONDS=0
log "sonde vs bpftrace ($( ((QUICK)) && echo quick || echo full) run); bpftrace: $( ((HAVE_BT)) && echo yes || echo missing)"

# ---------------------------------------------------------------- 1. start-up
log "1/6 start-up: BEGIN { exit(); } x$N_START"
P1='BEGIN { exit(); }'
s_ms=ERR s_mib=ERR b_ms=n/a b_mib=n/a
if try_once "1 start-up (sonde)" "$SONDE" -e "$P1"; then
	read -r s_ms s_mib < <(time_cmd "$N_START" "$SONDE" -e "$P1" 2>/dev/null)
fi
if ((HAVE_BT)); then
	b_ms=ERR b_mib=ERR
	if try_once "1 start-up (bpftrace)" "$BPFTRACE" -e "$P1"; then
		read -r b_ms b_mib < <(time_cmd "$N_START" "$BPFTRACE" -e "$P1" 2>/dev/null)
	fi
fi
# the harness's own cost (bash's fork and exec), large on some VMs
read -r f_ms _ < <(time_cmd "$N_START" /bin/true 2>/dev/null)
row "1 start-up wall (ms, median of $N_START)" "$s_ms" "$b_ms" "<= 10"
row "1 reference: /bin/true, same harness (ms)" "$f_ms" "$f_ms" -
row "1 start-up minus /bin/true (ms)" "$(minus "$s_ms" "$f_ms")" "$(minus "$b_ms" "$f_ms")" -
row "1 start-up peak RSS (MiB)" "$s_mib" "$b_mib" "<= 8"

# ---------------------------------------------------------------- 2. tracepoint + hist
log "2/6 tracepoint + hist, exit from interval:ms:100 x$N_HIST"
P2='tracepoint:syscalls:sys_enter_read { @ = hist(args->count); } interval:ms:100 { exit(); }'
s_ms=ERR b_ms=n/a
if try_once "2 tracepoint+hist (sonde)" "$SONDE" -e "$P2"; then
	read -r s_ms _ < <(time_cmd "$N_HIST" "$SONDE" -e "$P2" 2>/dev/null)
fi
if ((HAVE_BT)); then
	b_ms=ERR
	if try_once "2 tracepoint+hist (bpftrace)" "$BPFTRACE" -e "$P2"; then
		read -r b_ms _ < <(time_cmd "$N_HIST" "$BPFTRACE" -e "$P2" 2>/dev/null)
	fi
fi
row "2 tracepoint+hist to exit (ms, median of $N_HIST)" "$s_ms" "$b_ms" "<= 130"
# reference: the same timer without the tracepoint, to show what attaching
# and detaching sys_enter_read costs (the kernel's detach dominates here)
P2REF='interval:ms:100 { exit(); }'
s_ms=ERR b_ms=n/a
if try_once "2 reference (sonde)" "$SONDE" -e "$P2REF"; then
	read -r s_ms _ < <(time_cmd "$N_HIST" "$SONDE" -e "$P2REF" 2>/dev/null)
fi
if ((HAVE_BT)); then
	b_ms=ERR
	if try_once "2 reference (bpftrace)" "$BPFTRACE" -e "$P2REF"; then
		read -r b_ms _ < <(time_cmd "$N_HIST" "$BPFTRACE" -e "$P2REF" 2>/dev/null)
	fi
fi
row "2 reference: interval:ms:100 alone (ms)" "$s_ms" "$b_ms" "-"

# ---------------------------------------------------------------- 3. dd overhead
log "3/6 dd bs=1 count=$DD_COUNT: untraced / empty program / count(), interleaved x$N_DD"
P3_EMPTY='tracepoint:syscalls:sys_enter_write { }'
P3_COUNT='tracepoint:syscalls:sys_enter_write { @[comm] = count(); }'
# traced_dd TAG CMD...: dd under the tracer; appends dd's seconds to $T/TAG.
traced_dd() {
	local tag=$1 t rc
	shift
	if ! start_tracer "$T/$tag.log" "$T/$tag.watch" "$@"; then
		fail_note "3 dd ($tag)" "$T/$tag.log" "?" "$@"
		return 1
	fi
	t=$(dd_time "$DD_COUNT")
	rc=$(stop_tracer 10)
	[ -n "$t" ] && echo "$t" >>"$T/$tag"
	if [[ $tag == s_count ]]; then
		# sanity: sonde counted every write dd made
		local n
		n=$(sed -n 's/^@\[dd\]: *\([0-9]*\).*/\1/p' "$T/$tag.log" | tail -n 1)
		[[ -n $n && $n -ge $DD_WRITES ]] ||
			note "3 dd (sonde count): @[dd] is '${n:-missing}', expected >= $DD_WRITES (stop: $rc)"
	fi
}
: >"$T/untraced"
for ((i = 0; i < N_DD; i++)); do
	dd_time "$DD_COUNT" >>"$T/untraced"
	traced_dd s_empty "$SONDE" -e "$P3_EMPTY"
	((HAVE_BT)) && traced_dd b_empty "$BPFTRACE" -e "$P3_EMPTY"
	traced_dd s_count "$SONDE" -e "$P3_COUNT"
	((HAVE_BT)) && traced_dd b_count "$BPFTRACE" -e "$P3_COUNT"
done
DD_BASE=$(med "$T/untraced")
s_floor=$(med "$T/s_empty") s_count=$(med "$T/s_count")
b_floor=n/a b_count=n/a
if ((HAVE_BT)); then b_floor=$(med "$T/b_empty") b_count=$(med "$T/b_count"); fi
rt() { if isnum "$1" && isnum "$2"; then ratio "$1" "$2"; elif ((HAVE_BT)) || [[ $1 != n/a ]]; then echo ERR; else echo n/a; fi; }
row "3 dd untraced (s, median of $N_DD)" "$DD_BASE" "$DD_BASE" "-"
row "3 dd, empty program = floor (s)" "$s_floor" "$b_floor" "-"
row "3 dd, count(): x untraced" "$(rt "$s_count" "$DD_BASE")" "$(rt "$b_count" "$DD_BASE")" "< bpftrace"
row "3 dd, count(): x floor (own empty prog)" "$(rt "$s_count" "$s_floor")" "$(rt "$b_count" "$b_floor")" "<= 1.10"

# ---------------------------------------------------------------- 4. per-event output
log "4/6 per-event printf of every dd write to a file x$N_PRINTF"
P4='tracepoint:syscalls:sys_enter_write /comm == "dd"/ { printf("%d\n", args->fd); }'
# printf_dd TAG CAP CMD...: CMD gets "-o $T/TAG.out" appended before -e.
# Appends dd seconds, lines with fd 1, Lost events and drain ms to $T/TAG.*.
printf_dd() {
	local tag=$1 cap=$2 t stop lost
	shift 2
	local out=$T/$tag.out
	if ! start_tracer "$T/$tag.log" "$out" "$@" -o "$out" -e "$P4"; then
		fail_note "4 printf ($tag)" "$T/$tag.log" "?" "$@" -o FILE -e "$P4"
		return 1
	fi
	t=$(dd_time "$DD_COUNT")
	stop=$(stop_tracer "$cap")
	[ -n "$t" ] && echo "$t" >>"$T/$tag.dd"
	grep -cx 1 "$out" >>"$T/$tag.lines"
	lost=$(cat "$out" "$T/$tag.log" | sed -n 's/.*Lost \([0-9]*\) events.*/\1/p' |
		LC_ALL=C awk '{ s += $1 } END { print s + 0 }')
	echo "$lost" >>"$T/$tag.lost"
	[ "$stop" = killed ] && note "4 printf ($tag): still draining ${cap} s after SIGINT, killed"
	[ "$stop" != killed ] && echo "$stop" >>"$T/$tag.drain"
	rm -f "$out"
}
for ((i = 0; i < N_PRINTF; i++)); do
	printf_dd s_pf 30 "$SONDE"
	((HAVE_BT)) && printf_dd b_pf "$BT_DRAIN_CAP" "$BPFTRACE"
done
minof() { LC_ALL=C sort -g "$1" 2>/dev/null | head -n 1 | grep . || echo ERR; }
maxof() { LC_ALL=C sort -g "$1" 2>/dev/null | tail -n 1 | grep . || echo ERR; }
s_lines=$(minof "$T/s_pf.lines") s_lost=$(maxof "$T/s_pf.lost")
s_dd=$(med "$T/s_pf.dd") s_drain=$(med "$T/s_pf.drain")
b_lines=n/a b_lost=n/a b_dd=n/a b_drain=n/a
if ((HAVE_BT)); then
	b_lines=$(minof "$T/b_pf.lines") b_lost=$(maxof "$T/b_pf.lost")
	b_dd=$(med "$T/b_pf.dd") b_drain=$(med "$T/b_pf.drain")
fi
row "4 printf: lines delivered (min of $N_PRINTF)" "$s_lines" "$b_lines" "= $DD_WRITES"
row "4 printf: Lost events (max)" "$s_lost" "$b_lost" "= 0"
row "4 printf: dd x untraced" "$(rt "$s_dd" "$DD_BASE")" "$(rt "$b_dd" "$DD_BASE")" "<= 3"
row "4 printf: SIGINT to exit (ms)" "$s_drain" "$b_drain" "-"

# ---------------------------------------------------------------- 5. 200-probe script
log "5/6 generated 2,000-line script, 200 tracepoints: compile x$N_COMPILE, attach x$N_ATTACH"
TRACEFS=/sys/kernel/tracing
[ -d $TRACEFS/events/syscalls ] || TRACEFS=/sys/kernel/debug/tracing
# 200 distinct syscalls, 10 lines each
ls "$TRACEFS/events/syscalls" 2>/dev/null | grep '^sys_enter_' | LC_ALL=C sort | head -n 200 |
	LC_ALL=C awk '{
		printf "tracepoint:syscalls:%s\n{\n", $1
		printf "\t@calls[%d] = count();\n\t@bycomm[comm] = count();\n", NR, NR
		printf "\t$n = %d;\n\tif ($n > 1000) {\n\t\t@big = count();\n\t}\n", NR
		printf "\t@total = sum(%d);\n}\n", NR
	}' >"$T/gen.bt"
NPROBES=$(grep -c '^tracepoint:' "$T/gen.bt")
NLINES=$(wc -l <"$T/gen.bt")
[ "$NPROBES" = 200 ] || note "5: only $NPROBES sys_enter tracepoints found"
# BEGIN runs once every probe is attached (sonde, and bpftrace's BEGIN_trigger)
{ cat "$T/gen.bt"; echo 'BEGIN { printf("ready\n"); }'; } >"$T/gen_ready.bt"

s_cc=ERR b_cc=n/a
if try_once "5 compile (sonde)" "$SONDE" -d bpf "$T/gen.bt"; then
	read -r s_cc _ < <(time_cmd "$N_COMPILE" "$SONDE" -d bpf "$T/gen.bt" 2>/dev/null)
fi
if ((HAVE_BT)); then
	b_cc=ERR
	if try_once "5 compile (bpftrace)" "$BPFTRACE" --emit-elf "$T/gen.elf" "$T/gen.bt"; then
		read -r b_cc _ < <(time_cmd "$N_COMPILE" "$BPFTRACE" --emit-elf "$T/gen.elf" "$T/gen.bt" 2>/dev/null)
	fi
fi

# attach_time TAG CMD...: launch until BEGIN's "ready" is in the output,
# then SIGINT until exit; appends ms to $T/TAG.attach and $T/TAG.detach.
attach_time() {
	local tag=$1 t0 t1 deadline stop
	shift
	: >"$T/$tag.out"
	t0=$(now_us)
	"$@" "$T/gen_ready.bt" >"$T/$tag.out" 2>"$T/$tag.err" &
	TRACER_PID=$!
	deadline=$((t0 + 60000000))
	until grep -qx ready "$T/$tag.out"; do
		if ! kill -0 "$TRACER_PID" 2>/dev/null || (($(now_us) > deadline)); then
			kill -KILL "$TRACER_PID" 2>/dev/null
			wait "$TRACER_PID" 2>/dev/null
			TRACER_PID=
			fail_note "5 attach ($tag)" "$T/$tag.err" "?" "$@" GENERATED.bt
			return 1
		fi
		snooze 0.002
	done
	t1=$(now_us)
	echo $(((t1 - t0) / 1000)) >>"$T/$tag.attach"
	stop=$(stop_tracer 120)
	[ "$stop" = killed ] && note "5 ($tag): detach took over 120 s, killed"
	[ "$stop" != killed ] && echo "$stop" >>"$T/$tag.detach"
	grep -h -m 1 -E 'Attaching|Attached' "$T/$tag.out" "$T/$tag.err" >"$T/$tag.attaching"
}
for ((i = 0; i < N_ATTACH; i++)); do
	attach_time s_gen "$SONDE"
	((HAVE_BT)) && attach_time b_gen "$BPFTRACE"
done
s_att=$(med "$T/s_gen.attach") s_det=$(med "$T/s_gen.detach")
b_att=n/a b_det=n/a
if ((HAVE_BT)); then b_att=$(med "$T/b_gen.attach") b_det=$(med "$T/b_gen.detach"); fi
row "5 compile $NLINES lines/$NPROBES probes (ms, median of $N_COMPILE)" "$s_cc" "$b_cc" "<= 50"
row "5 launch to all attached (ms, median of $N_ATTACH)" "$s_att" "$b_att" "<= 500"
row "5 detach $NPROBES probes, SIGINT to exit (ms)" "$s_det" "$b_det" "-"

# ---------------------------------------------------------------- 6. footprint
log "6/6 footprint"
# footprint BIN: MiB of BIN without its debug sections (as a distribution
# package ships it: Debian's bpftrace is stripped, sonde builds with -g) plus
# the libraries ldd resolves, minus libc, the dynamic loader and the vDSO
# (symlinks followed, each file once).
footprint() {
	local bin stripped
	bin=$(readlink -f "$(command -v "$1")") || { echo ERR; return; }
	stripped="$T/fp.stripped.$(basename "$bin")"
	strip -o "$stripped" "$bin" 2>/dev/null || cp "$bin" "$stripped"
	{
		echo "$stripped"
		ldd "$bin" | LC_ALL=C awk '$2 == "=>" && $3 ~ /^\// { print $3 }' |
			grep -v -e '/libc\.so' -e 'ld-linux' -e 'linux-vdso' |
			xargs -r readlink -f
	} | LC_ALL=C sort -u | tee "$T/fp.$(basename "$bin")" | xargs -r stat -L -c %s |
		LC_ALL=C awk '{ s += $1 } END { printf "%.1f\n", s / 1048576 }'
}
s_fp=$(footprint "$SONDE")
b_fp=n/a
((HAVE_BT)) && b_fp=$(footprint "$BPFTRACE")
row "6 footprint: binary + libs beyond libc (MiB)" "$s_fp" "$b_fp" "<= 5"
note "6 sonde files: $(tr '\n' ' ' <"$T/fp.$(basename "$(readlink -f "$SONDE")")")"

# ---------------------------------------------------------------- report
ELAPSED=$SECONDS
KERNEL=$(uname -r)
DATE=$(date '+%Y-%m-%d %H:%M:%S %Z')
S_VER=$("$SONDE" -V 2>&1 | head -n 1)
B_VER=n/a
((HAVE_BT)) && B_VER=$("$BPFTRACE" -V 2>&1 | grep -v RLIMIT | head -n 1)

METHOD=(
	"1: wall time around each run (EPOCHREALTIME), peak RSS from /usr/bin/time %M."
	"2: \`$P2\`, whole run until exit."
	"3: dd's own time; the tracer is started in the background, dd runs 100 ms after \"Attaching\" appears, then SIGINT; 5 conditions interleaved per round. Empty program: \`$P3_EMPTY\` (accepted by both). count(): \`$P3_COUNT\`."
	"4: \`$P4\` with -o FILE; lines = output lines equal to 1 (dd's $DD_WRITES writes to of=, fd 1); bpftrace gets $BT_DRAIN_CAP s after SIGINT to drain."
	"5: compile = \`sonde -d bpf FILE >/dev/null\` (parse + compile, no load) vs \`bpftrace --emit-elf\` (dry run to an ELF). Attach = launch until an added \`BEGIN { printf(\"ready\\n\"); }\` has printed (both run BEGIN after attaching every probe). Not measured with \`BEGIN { exit(); }\`: the run's wall time would include detaching, which the kernel makes slow for syscall tracepoints (shown on its own row)."
	"6: ldd-resolved files, symlinks followed, without libc.so, ld-linux, vdso; the binary stripped of debug sections (strip -o COPY), as a distribution package ships it."
)

table_text() {
	printf '%-48s %12s %12s %8s %10s  %s\n' benchmark sonde bpftrace ratio target result
	local r
	for r in "${ROWS[@]}"; do
		IFS='|' read -r a b c d e f <<<"$r"
		printf '%-48s %12s %12s %8s %10s  %s\n' "$a" "$b" "$c" "$d" "$e" "$f"
	done
}

echo
echo "sonde vs bpftrace — $DATE — kernel $KERNEL — $(nproc) CPUs — $CMDLINE — ${ELAPSED} s"
echo "ratio = sonde / bpftrace"
table_text
if ((${#NOTES[@]})); then
	echo
	printf 'note: %s\n' "${NOTES[@]}"
fi

mkdir -p bench/results
{
	echo "# sonde vs bpftrace"
	echo
	echo "- date: $DATE"
	echo "- kernel: $KERNEL ($(uname -m), $(nproc) CPUs)"
	echo "- command: \`$CMDLINE\` (took ${ELAPSED} s)"
	echo "- sonde: $S_VER; bpftrace: $B_VER"
	echo
	echo "ratio = sonde / bpftrace; the target applies to sonde."
	echo
	echo "| benchmark | sonde | bpftrace | ratio | target | result |"
	echo "|---|---:|---:|---:|---|---|"
	for r in "${ROWS[@]}"; do
		IFS='|' read -r a b c d e f <<<"$r"
		echo "| $a | $b | $c | $d | $e | $f |"
	done
	if ((${#NOTES[@]})); then
		echo
		echo "## Notes"
		echo
		printf -- '- %s\n' "${NOTES[@]}"
	fi
	echo
	echo "## Method"
	echo
	printf -- '- %s\n' "${METHOD[@]}"
} >bench/results/latest.md
echo
echo "written: bench/results/latest.md"
