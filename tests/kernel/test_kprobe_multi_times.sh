# SONDE_TIMES=1 on a kprobe wildcard: the start-up phases in order, with
# times that never decrease, and the program's output as usual; the
# breakdown is printed as notes (the lane's log shows where time goes).
# Before 6.2 (no kprobe_multi), and with kprobe_multi, a "looked up the
# functions' addresses" line comes with the attach.  Twice: the first run
# of a boot reads the kernel's listings, the second sonde's copy of them
# (/run/sonde, kcache.c).
. ./lib.sh
pat='vfs_*'
kprobe_multi_kernel || pat=$(narrow_wildcard)
prog="kprobe:$pat { @ = count(); } BEGIN { printf(\"ready\\n\"); exit(); }"
printf '%s\n' main parsed 'read available_filter_functions' 'split available_filter_functions' \
	'read and indexed the kprobe blacklist' 'matched the wildcard' 'checked for kprobe_multi' \
	compiled 'maps created, programs loaded' attached 'BEGIN ran' > /tmp/times.want
rm -rf /run/sonde
for run in first second; do
	SONDE_TIMES=1 sonde -e "$prog" > /tmp/times.out 2> /tmp/times.err || { cat /tmp/times.err; exit 1; }
	sed "s/^/note: $run run: /" /tmp/times.err
	head -2 /tmp/times.out | grep -q '^ready' || { echo "no output"; cat /tmp/times.out; exit 1; }
	sed -n 's/^sonde: [0-9.]* ms: //p' /tmp/times.err | grep -v -e '^kprobe:' -e '^looked up' > /tmp/times.phases
	cmp -s /tmp/times.want /tmp/times.phases || { diff /tmp/times.want /tmp/times.phases; exit 1; }
	sed -n 's/^sonde: \([0-9.]*\) ms: .*/\1/p' /tmp/times.err |
		awk 'NR > 1 && $1 < prev { bad = 1 } { prev = $1 } END { exit bad }' || { echo "times decrease"; exit 1; }
done
# kprobe_multi links by address (the kernel's walk of kallsyms for names
# is skipped): vfs_* has no name two functions share
if kprobe_multi_kernel && ! grep -q "^sonde: [0-9.]* ms: looked up the functions' addresses\$" /tmp/times.err; then
	echo "kprobe_multi: the link was not made by address"; exit 1
fi
# by address (before 6.2, and kprobe_multi): the extract of kallsyms sonde
# saved names the address kallsyms gives, for names only one function has
if grep -q '^sonde: [0-9.]* ms: looked up' /tmp/times.err; then
	X=/run/sonde/kprobe_addresses_by_name
	[ -f $X ] || { echo "no $X"; exit 1; }
	[ "$(wc -l < $X)" -gt 1000 ] || { echo "$X has $(wc -l < $X) lines"; exit 1; }
	# sorted by name: sonde looks names up by binary search
	tail -n +2 $X | awk 'NR > 1 && $3 <= prev { print "not sorted: " prev ", " $3; bad = 1; exit } { prev = $3 } END { exit bad }' || exit 1
	for f in vfs_read vfs_write vfs_open; do
		want=$(grep " [tT] $f\$" /proc/kallsyms | cut -d' ' -f1 | sed 's/^0*//')
		got=$(grep " t $f\$" $X | cut -d' ' -f1)
		[ -n "$got" ] && [ "$got" = "$want" ] || { echo "$f: kallsyms $want, extract $got"; exit 1; }
	done
fi
exit 0
