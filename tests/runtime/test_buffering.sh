#!/usr/bin/env bash
# -B none / -B line: printf output reaches a file while sonde runs;
# -B full holds it until exit (as bpftrace 0.17 does).  Also checks that
# streamed events are read promptly (not only at exit).
SONDE=${SONDE:-./sonde}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
for m in none line full; do
	"$SONDE" -B $m -e 'interval:ms:50 { printf("tick\n"); }' >"$tmp/$m" 2>&1 &
	p=$!
	sleep 1.5
	live=$(grep -c tick "$tmp/$m")
	kill -INT $p; wait $p
	final=$(grep -c tick "$tmp/$m")
	case $m in
	full) [ "$live" -eq 0 ] && [ "$final" -ge 10 ] || { echo "-B full: live=$live final=$final"; fail=1; } ;;
	*) [ "$live" -ge 10 ] && [ "$final" -ge "$live" ] || { echo "-B $m: live=$live final=$final"; fail=1; } ;;
	esac
done
exit $fail
