# SONDE_TIMES=1 on a kprobe wildcard: the start-up phases in order, with
# times that never decrease, and the program's output as usual; the
# breakdown is printed as notes (the lane's log shows where time goes).
# Before 6.2 (no kprobe_multi), and with kprobe_multi, a "looked up the
# functions' addresses" line comes with the attach.  Twice: the first run
# of a boot reads the kernel's listings and makes sonde's index of them,
# the second maps the index (/run/sonde, kcache.c, kfuncs.c) and reads
# nothing else.
. ./lib.sh
pat='vfs_*'
kprobe_multi_kernel || pat=$(narrow_wildcard)
prog="kprobe:$pat { @ = count(); } BEGIN { printf(\"ready\\n\"); exit(); }"
phases() { # the listings' phases (first run only), then the rest
	printf '%s\n' main parsed "$@" 'kprobe index ready' 'matched the wildcard' 'checked for kprobe_multi' \
		compiled 'maps created, programs loaded' attached 'BEGIN ran'
}
rm -rf /run/sonde
for run in first second; do
	if [ $run = first ]; then
		phases 'read available_filter_functions' 'split available_filter_functions' \
			'read and indexed the kprobe blacklist' > /tmp/times.want
	else
		phases > /tmp/times.want
	fi
	SONDE_TIMES=1 sonde -e "$prog" > /tmp/times.out 2> /tmp/times.err || { cat /tmp/times.err; exit 1; }
	sed "s/^/note: $run run: /" /tmp/times.err
	head -2 /tmp/times.out | grep -q '^ready' || { echo "no output"; cat /tmp/times.out; exit 1; }
	sed -n 's/^sonde: [0-9.]* ms: //p' /tmp/times.err | grep -v -e '^kprobe:' -e '^looked up' > /tmp/times.phases
	cmp -s /tmp/times.want /tmp/times.phases || { echo "$run run:"; diff /tmp/times.want /tmp/times.phases; exit 1; }
	sed -n 's/^sonde: \([0-9.]*\) ms: .*/\1/p' /tmp/times.err |
		awk 'NR > 1 && $1 < prev { bad = 1 } { prev = $1 } END { exit bad }' || { echo "times decrease"; exit 1; }
done
# kprobe_multi links by address (the kernel's walk of kallsyms for names
# is skipped): vfs_* has no name two functions share
if kprobe_multi_kernel && ! grep -q "^sonde: [0-9.]* ms: looked up the functions' addresses\$" /tmp/times.err; then
	echo "kprobe_multi: the link was not made by address"; exit 1
fi
# the index: "NAME ADDR FLAG MODULE" per line of available_filter_functions,
# sorted by name (sonde binary-searches it); ADDR is kallsyms' for a name
# only one function has; FLAG b for the names on the kprobe blacklist
X=/run/sonde/kprobe_index
A=/sys/kernel/tracing/available_filter_functions
[ -f $X ] || { echo "no $X"; exit 1; }
[ "$(tail -n +2 $X | wc -l)" = "$(wc -l < $A)" ] || { echo "$X: $(wc -l < $X) lines, $A $(wc -l < $A)"; exit 1; }
tail -n +2 $X | awk 'NF != 4 { print "bad line: " $0; bad = 1; exit } NR > 1 && $1 < prev { print "not sorted: " prev ", " $1; bad = 1; exit } { prev = $1 } END { exit bad }' || exit 1
for f in vfs_read vfs_write vfs_open; do
	want=$(grep " [tT] $f\$" /proc/kallsyms | cut -d' ' -f1 | sed 's/^0*//')
	got=$(grep "^$f " $X | cut -d' ' -f2)
	[ -n "$got" ] && [ "$got" = "$want" ] || { echo "$f: kallsyms $want, index $got"; exit 1; }
done
bad=$(awk -F'\t' 'NR == FNR { black[$2] = 1; next } FNR > 1 && (($1 in black) != ($3 == "b")) { print; exit }' \
	/sys/kernel/debug/kprobes/blacklist FS=' ' $X)
[ -z "$bad" ] || { echo "blacklist flag wrong: $bad"; exit 1; }
exit 0
