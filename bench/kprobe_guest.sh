#!/bin/bash
# Runs in the VM lane's guest (VM_BENCH=1): time from start to "all
# attached" (BEGIN runs after every probe is attached, in sonde and in
# bpftrace) and to exit, for kprobe wildcards, sonde and bpftrace side by
# side.  One "BENCH tool pattern probes attached_ms exit_ms" line per run.
ROUNDS=${BENCH_ROUNDS:-3}
prog() { echo "kprobe:$1 { @[func] = count(); } BEGIN { printf(\"ATTACHED\\n\"); exit(); }"; }
one() { # tool pattern
	local t0 ta= n=0 line
	t0=$EPOCHREALTIME
	coproc RUN { exec "$1" -B line -e "$(prog "$2")" 2>&1; }
	local pid=$RUN_PID
	while IFS= read -r line <&"${RUN[0]}"; do
		case $line in
		Attaching*) n=${line#Attaching }; n=${n%% *} ;;
		ATTACHED*) ta=$EPOCHREALTIME; break ;;
		esac
	done
	wait "$pid"
	local te=$EPOCHREALTIME
	[ -n "$ta" ] || { echo "BENCH-ERROR $1 $2: never attached"; return; }
	awk -v t0="$t0" -v ta="$ta" -v te="$te" -v tool="$(basename "$1")" -v p="$2" -v n="$n" \
		'BEGIN { printf "BENCH %s %s %s %.1f %.1f\n", tool, p, n, (ta - t0) * 1000, (te - t0) * 1000 }'
}
tools=(/bin/sonde)
[ -x /usr/bin/bpftrace ] && tools+=(/usr/bin/bpftrace)
for pat in 'vfs_*' 'tcp_*'; do
	for r in $(seq "$ROUNDS"); do
		for t in "${tools[@]}"; do one "$t" "$pat"; done
	done
done
