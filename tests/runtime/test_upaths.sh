#!/usr/bin/env bash
# User-space probes in files named by a wildcard (two programs, wild_a and
# wild_b, and the library they link, libwild_lib.so): listing and attaching,
# each probe named with its real path; a wildcard that matches nothing gets
# bpftrace's message.  With -p: no file (or `*`) means the process's files,
# named through /proc/PID/root as bpftrace names them, and a process in
# another mount namespace (unshare -m, a tmpfs only it sees) is reached
# through its root.  `-l` cannot run in the differential suite (bpftrace -l
# takes no script), so each listing is also compared with bpftrace 0.17's
# when it is installed.
export SONDE_COMPAT=0.17 # compared with bpftrace 0.17: sonde speaks its generation
SONDE=${SONDE:-./sonde}
P=$PWD/build/progs
fail=0
. "$(dirname "$0")/lib.sh"
# like check, and the same output from bpftrace when there is one
check_bt() { # name, expected, then arguments
	check "$@"
	command -v bpftrace >/dev/null || return 0
	local name=$1 want=$2 got; shift 2
	got=$(bpftrace "$@" 2>&1 | grep -v "RLIMIT_MEMLOCK" | sed -E 's/^(stdin:1:1-[0-9]+): /\1: /; s/^~+$/~/')
	want=$(sed -E 's/^\^~*$/~/' <<<"$want")
	[ "$got" = "$want" ] || { printf '%s: bpftrace %s differs\n--- sonde\n%s\n--- bpftrace\n%s\n' "$name" "$*" "$want" "$got"; fail=1; }
}
check_bt "-l uprobe wildcard file" "uprobe:$P/wild_a:wild_func
uprobe:$P/wild_b:wild_func" -l "uprobe:$P/wild_*:wild_f*"
check_bt "-l usdt wildcard file" "usdt:$P/libwild_lib.so:wild_lib:lib_probe1
usdt:$P/libwild_lib.so:wild_lib:lib_probe2
usdt:$P/wild_a:wild:probe1
usdt:$P/wild_a:wild:probe2
usdt:$P/wild_b:wild:probe1
usdt:$P/wild_b:wild:probe2" -l "usdt:$P/*wild*:*"
check_bt "-l usdt empty provider" "usdt:$P/wild_a:wild:probe2
usdt:$P/wild_b:wild:probe2" -l "usdt:$P/wild_*::probe2"
ap="uprobe:$P/nosuch_*:wild_func"
under=$(printf '%*s' ${#ap} '' | tr ' ' '~')
check_bt "-l no file" "stdin:1:1-$((${#ap} + 1)): ERROR: uprobe target file '$P/nosuch_*' does not exist or is not executable
$ap
^${under:1}" -l "$ap"
ap="usdt:$P/nosuch_*:wild:probe1"
check "-e no file" "stdin:1:1-$((${#ap} + 1)): ERROR: usdt target file '$P/nosuch_*' does not exist or is not executable
$ap { exit(); }
^$(printf '%*s' $((${#ap} - 1)) '' | tr ' ' '~')" -e "$ap { exit(); }"
# attaching: every matching file (bpftrace 0.17 attaches a wildcarded usdt
# file but its probes never fire, or with -c it fails: no comparison)
check "usdt wildcard file" "Attaching 3 probes...
usdt:$P/wild_b:wild:probe1 0
usdt:$P/libwild_lib.so:wild_lib:lib_probe2 1
usdt:$P/wild_b:wild:probe1 1
usdt:$P/libwild_lib.so:wild_lib:lib_probe2 2" \
	-e "usdt:$P/wild_*::probe1, usdt:$P/libwild*:*:*2 { printf(\"%s %d\n\", probe, arg0); }" -c "$P/wild_b 2"

# -p: a process that keeps firing (wild_a N=0: until killed), killed at exit
pids=()
trap 'kill "${pids[@]}" 2>/dev/null' EXIT
# until PID has mapped libwild_lib.so (it then runs wild_a's loop)
wait_mapped() { for _ in $(seq 100); do grep -q libwild_lib "/proc/$1/maps" 2>/dev/null && return; sleep 0.1; done; }
"$P/wild_a" 0 20 & pid=$!; pids+=($pid)
wait_mapped $pid
R=/proc/$pid/root$P
check_bt "-p -l usdt:*" "usdt:$R/libwild_lib.so:wild_lib:lib_probe1
usdt:$R/libwild_lib.so:wild_lib:lib_probe2
usdt:$R/wild_a:wild:probe1
usdt:$R/wild_a:wild:probe2" -p $pid -l 'usdt:*'
check_bt "-p -l usdt:::*probe2" "usdt:$R/libwild_lib.so:wild_lib:lib_probe2
usdt:$R/wild_a:wild:probe2" -p $pid -l 'usdt:::*probe2'
check_bt "-p -l usdt:*:prov:*" "usdt:$R/libwild_lib.so:wild_lib:lib_probe1
usdt:$R/libwild_lib.so:wild_lib:lib_probe2" -p $pid -l 'usdt:*:wild_lib:*'
check_bt "-p -l uprobe:FUNC" "uprobe:$R/wild_a:wild_func" -p $pid -l 'uprobe:wild*'
# the first probe that fires prints, once (wild:probe2 fires before the library's)
once='/@once == 0/ { @once = 1; printf("%s\n", probe); exit(); }'
# two probes: each prints once, in the order they happen to fire (sorted here)
each='/@seen[probe] == 0/ { @seen[probe] = 1; printf("%s\n", probe); @n++; if (@n == 2) { exit(); } }'
for tool in "$SONDE" bpftrace; do
	command -v "$tool" >/dev/null || continue
	got=$("$tool" -p $pid -e "usdt:::*probe2 $each" 2>&1 | grep -E "^(Attaching|usdt:)" | sort)
	want="Attaching 2 probes...
usdt:$R/libwild_lib.so:wild_lib:lib_probe2
usdt:$R/wild_a:wild:probe2"
	[ "$got" = "$want" ] || { printf -- '-p usdt:::*probe2: %s\n--- expected\n%s\n--- got\n%s\n' "$tool" "$want" "$got"; fail=1; }
done
check_bt "-p uprobe:FUNC" "Attaching 1 probe...
uprobe:$R/wild_a:wild_func


@once: 1" -p $pid -e "uprobe:wild_func $once"
# sonde's: `*` with -p is every file the process maps (bpftrace 0.17 globs
# `*` in the current directory and $PATH)
check "-p -l uprobe:*:FUNC" "uprobe:$R/libwild_lib.so:wild_lib_call" -p $pid -l 'uprobe:*:wild_lib*'
# sonde's: a wildcard without '/' picks among the files the process maps
check "-p -l uprobe:*lib*:FUNC" "uprobe:$R/libwild_lib.so:wild_lib_call" -p $pid -l 'uprobe:*wild_lib*:wild*'
check "-p -l usdt:wild_?:*:*" "usdt:$R/wild_a:wild:probe1
usdt:$R/wild_a:wild:probe2" -p $pid -l 'usdt:wild_?:*:*'
check "-p uprobe:*:FUNC" "Attaching 1 probe...
uprobe:$R/libwild_lib.so:wild_lib_call


@once: 1" -p $pid -e "uprobe:*:wild_lib_call $once"
# a program deleted since it started: reached through /proc/PID/exe
t=$(mktemp -d); cp "$P/wild_a" "$P/libwild_lib.so" "$t/"
"$t/wild_a" 0 20 & dpid=$!; pids+=($dpid)
wait_mapped $dpid
rm -r "$t"
check "-p deleted program" "Attaching 1 probe...
uprobe:/proc/$dpid/exe:wild_func


@once: 1" -p $dpid -e "uprobe:wild_func $once"
check "usdt without file or -p" "stdin:1:1-14: ERROR: usdt probe must specify at least path or pid to probe
usdt:::probe1 { exit(); }
^~~~~~~~~~~~~" -e 'usdt:::probe1 { exit(); }'

# a process in another mount namespace: its files exist only there
if ! unshare -m true 2>/dev/null; then
	echo "no unshare -m here: mount namespace cases skipped"; exit $fail
fi
d=$(mktemp -d /tmp/sonde-mntns.XXXXXX)
trap 'kill "${pids[@]}" 2>/dev/null; rmdir "$d" 2>/dev/null' EXIT
unshare -m --propagation private sh -c "mount -t tmpfs none $d && cp $P/wild_a $P/libwild_lib.so $d/ && exec $d/wild_a 0 20" &
npid=$!; pids+=($npid)
for _ in $(seq 50); do [ "$(readlink /proc/$npid/exe)" = "$d/wild_a" ] && break; sleep 0.1; done
wait_mapped $npid
if [ "$(readlink /proc/$npid/exe)" != "$d/wild_a" ]; then
	echo "no tmpfs mount in a new mount namespace here: mount namespace cases skipped"; exit $fail
fi
N=/proc/$npid/root$d
[ -e "$d/wild_a" ] && { echo "mount namespace: $d/wild_a is visible outside"; fail=1; }
check_bt "mntns -p -l usdt:FILE" "usdt:$N/wild_a:wild:probe1
usdt:$N/wild_a:wild:probe2" -p $npid -l "usdt:$d/wild_a:*"
check_bt "mntns -p -l usdt:*" "usdt:$N/libwild_lib.so:wild_lib:lib_probe1
usdt:$N/libwild_lib.so:wild_lib:lib_probe2
usdt:$N/wild_a:wild:probe1
usdt:$N/wild_a:wild:probe2" -p $npid -l 'usdt:*'
check_bt "mntns -p uprobe:FILE:FUNC" "Attaching 1 probe...
uprobe:$N/wild_a:wild_func


@once: 1" -p $npid -e "uprobe:$d/wild_a:wild_func $once"
check_bt "mntns -p uprobe:LIB:FUNC" "Attaching 1 probe...
uprobe:$N/libwild_lib.so:wild_lib_call


@once: 1" -p $npid -e "uprobe:libwild_lib:wild_lib_call $once"
check_bt "mntns -p usdt:FILE" "Attaching 1 probe...
usdt:$N/wild_a:wild:probe2


@once: 1" -p $npid -e "usdt:$d/wild_a:wild:probe2 $once"
# its stacks resolve through its root (bpftrace 0.17 prints wild_lib_call+0 too)
check "mntns ustack" "Attaching 1 probe...

        wild_lib_call+0



@once: 1" -p $npid -e "uprobe:libwild_lib:wild_lib_call /@once == 0/ { @once = 1; printf(\"%s\n\", ustack(1)); exit(); }"
# sonde's: a wildcard is globbed in the process's namespace (bpftrace 0.17
# globs its own and finds nothing)
check "mntns -p -l wildcard" "uprobe:$N/wild_a:wild_func" -p $npid -l "uprobe:$d/wild_*:wild*"
# without -p the file is not there
ap="uprobe:$d/wild_a:wild_func"
check_bt "mntns without -p" "stdin:1:1-$((${#ap} + 1)): ERROR: uprobe target file '$d/wild_a' does not exist or is not executable
$ap
^$(printf '%*s' $((${#ap} - 1)) '' | tr ' ' '~')" -l "$ap"
exit $fail
