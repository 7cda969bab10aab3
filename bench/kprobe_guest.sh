#!/bin/bash
# Runs in the VM lane's guest (VM_BENCH=1): time from start to "all
# attached" (BEGIN runs after every probe is attached, in sonde and in
# bpftrace) and to exit, for kprobe wildcards, sonde and bpftrace side by
# side.  One "BENCH tool pattern probes attached_ms exit_ms" line per run;
# sonde's (run with SONDE_TIMES=1) adds "listings_ms attach_ms": the time
# to its kernel listings (mapping its index of them; at a boot's first run,
# reading available_filter_functions, the blacklist and kallsyms and making
# the index; before the index, reading available_filter_functions) and the
# time of the attach system calls (one kprobe_multi link, or one kprobe each).
# "sonde" runs find sonde's copy of the kernel's listings from an earlier
# run of the boot; "sonde-first" runs do not (the copy removed first).
ROUNDS=${BENCH_ROUNDS:-3}
# settled: the previous run's kprobes are gone.  sonde exits once its output
# is complete and leaves closing its probes to a child (provider.c: on 6.1
# the kernel takes ~60 ms to remove each kprobe, 20 s for tcp_*); a run
# started meanwhile would pay for that teardown, so each run starts on a
# kernel with no kprobe and no sonde process left (at most 120 s)
settled() {
	local i=0
	while { pidof sonde > /dev/null || grep -q . /sys/kernel/debug/kprobes/list; } && [ $i -lt 1200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ $i -lt 1200 ] || echo "BENCH-ERROR: kprobes still attached after 120 s"
}
prog() { echo "kprobe:$1 { @[func] = count(); } BEGIN { printf(\"ATTACHED\\n\"); exit(); }"; }
one() { # tool pattern
	local t0 ta= n=0 line parsed= aff= idx= loaded= attached=
	settled
	t0=$EPOCHREALTIME
	# a pipe that stays open until the tool has exited (a coproc's fds go
	# when a fast run ends before the first read)
	local fd pid
	exec {fd}< <(SONDE_TIMES=1 exec "$1" -B line -e "$(prog "$2")" 2>&1)
	pid=$!
	while IFS= read -r line <&"$fd"; do
		case $line in
		Attaching*) n=${line#Attaching }; n=${n%% *} ;;
		ATTACHED*) ta=$EPOCHREALTIME; break ;;
		"sonde: "*" ms: "*) # SONDE_TIMES: "sonde: T ms: PHASE"
			local t=${line#sonde: }; t=${t%% ms:*}
			case ${line#*ms: } in
			parsed) parsed=$t ;;
			"read available_filter_functions") aff=$t ;;
			"kprobe index ready") idx=$t ;;
			"maps created, programs loaded") loaded=$t ;;
			attached) attached=$t ;;
			esac ;;
		esac
	done
	wait "$pid"
	local te=$EPOCHREALTIME
	exec {fd}<&-
	[ -n "$ta" ] || { echo "BENCH-ERROR $1 $2: never attached"; return; }
	[ -n "$idx" ] && aff=$idx # since sonde's index: the listings are ready then
	awk -v t0="$t0" -v ta="$ta" -v te="$te" -v tool="$(basename "$1")" -v p="$2" -v n="$n" \
		-v parsed="$parsed" -v aff="$aff" -v loaded="$loaded" -v attached="$attached" \
		'BEGIN { printf "BENCH %s %s %s %.1f %.1f", tool, p, n, (ta - t0) * 1000, (te - t0) * 1000
			if (aff != "" && attached != "") printf " %.1f %.1f", aff - parsed, attached - loaded
			printf "\n" }'
}
# /bin/sonde-baseline (bench/kprobe.sh BASELINE): an earlier build, measured
# in the same rounds
sondes=(/bin/sonde)
[ -x /bin/sonde-baseline ] && sondes+=(/bin/sonde-baseline)
for pat in 'vfs_*' 'tcp_*'; do
	for r in $(seq "$ROUNDS"); do
		# each sonde as at its first run in a boot: no copy of the
		# kernel's listings under /run/sonde yet (kcache.c); then at once
		# with the copies that run made (a baseline's copies are not
		# all of another build's)
		for s in "${sondes[@]}"; do
			rm -rf /run/sonde
			one "$s" "$pat" | sed -E 's/^BENCH (sonde[a-z-]*) /BENCH \1-first /'
			one "$s" "$pat"
		done
		[ -x /usr/bin/bpftrace ] && one /usr/bin/bpftrace "$pat"
	done
done
