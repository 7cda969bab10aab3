#!/usr/bin/env bash
# Differential test: the same programs under strace and under sonde trace
# must decode the same calls the same way (addresses and pids normalized).
set -u
cd "$(dirname "$0")/../.."
SONDE=${SONDE:-$PWD/sonde}
command -v strace >/dev/null || { echo "strace not installed"; exit 77; }
[ -x build/progs/trace_known ] || { echo "build/progs missing"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
calls=openat,read,write,close,unlink,socket,connect,clock_nanosleep,kill,getpid,exit_group,access,wait4,pipe2,dup2,lseek
# strace -f -o: "PID  call(...)    = ret", calls split as "<unfinished ...>" and
# "<... call resumed>" when processes interleave; sonde: "[pid N] call(...) = ret".
# Padding is checked on each whole line (the pid prefix counts, so the two
# differ there), then join the split calls, drop pids, padding and addresses,
# compare sorted
# (the two tools order lines of different processes differently).
# keep=1: signal lines ("--- SIG... {...} ---") are compared too
norm() {
	awk -v keep="${keep:-0}" '
	{ line = $0; pid = "" }
	# padding, checked on the whole line: after the last ") =", spaces so
	# "=" lands at column 40 counting the prefix, or one space past it; a
	# bad line shows up in the diff
	{ s = line; p = 0; off = 0
	  while (match(s, /\) +=( |$)/)) { p = off + RSTART; off += RSTART; s = substr(line, off + 1) }
	  if (p) { match(substr(line, p + 1), /^ +/); if (RLENGTH != (p < 39 ? 40 - p : 1)) print "BAD PADDING: " line } }
	line ~ /^[0-9]+ / { pid = line; sub(/ .*/, "", pid); sub(/^[0-9]+ +/, "", line) }
	line ~ /^\[pid +[0-9]+\] / { pid = line; sub(/^\[pid +/, "", pid); sub(/\].*/, "", pid); sub(/^\[pid +[0-9]+\] /, "", line) }
	line ~ / <unfinished \.\.\.>$/ { sub(/ <unfinished \.\.\.>$/, "", line); part[pid] = line; next }
	line ~ /^<\.\.\. [a-z0-9_]+ resumed>/ { sub(/^<\.\.\. [a-z0-9_]+ resumed>/, "", line); line = part[pid] line }
	line ~ /^\+\+\+/ { next }
	line ~ /^---/ && !keep { next }
	{ print line }' "$1" |
	sed -E -e 's/0x[0-9a-f]+/ADDR/g' -e 's/\) +=/) =/' \
	    -e 's/^(getpid\(\) = |kill\(|wait4\(|tgkill\(|rt_sigqueueinfo\(|pidfd_open\()[0-9]+(, [0-9]+)?/\1PID/' \
	    -e 's/si_pid=[0-9]+/si_pid=PID/g' -e 's/\{pid=[0-9]+/{pid=PID/' -e 's/si_([us])time=[0-9]+( \/\* [^*]* \*\/)?/si_\1time=T/g' -e 's/^(clone3\(.*\) = )[0-9]+$/\1PID/' -e 's/^(set_tid_address\(.*\) = )[0-9]+$/\1PID/' -e 's/^(wait4\(.*\) = )[0-9]+$/\1PID/' \
	    -e 's/\{tv_sec=[0-9]+, tv_nsec=[0-9]+\}\) = \? ERESTART/{LEFT}) = ? ERESTART/' | sort
}
fails=0
# follow=-f by default; without it sonde takes only the entries it needs
# (execve, exit...) and everything else at the exit: both ways are compared
follow=-f
run() {
	local name=$1; shift
	# output to a pipe, not /dev/null: a buffer nobody reads may not be paged
	# in, and BPF cannot fault it in to show it (strace can); see docs/trace.md
	strace $follow ${yflag:-} -qq -s 32 -e trace=$calls -o "$tmp/strace.$name" "$@" 2>&1 < /dev/null | cat >/dev/null
	"$SONDE" trace $follow ${yflag:-} -s 32 -e trace=$calls -o "$tmp/sonde.$name" -- "$@" 2>&1 < /dev/null | cat >/dev/null
	if ! diff <(norm "$tmp/strace.$name") <(norm "$tmp/sonde.$name") > "$tmp/diff.$name"; then
		echo "DIFF for $name ($*):"; head -20 "$tmp/diff.$name"; fails=$((fails + 1))
	fi
}
run known build/progs/trace_known "$tmp/known"
run cat cat /etc/hostname /nonexistent
# a directory nothing changes while the test runs (/ holds /proc, whose
# link count follows the number of processes)
run ls ls -la tests/unit
run fork build/progs/trace_fork
run sh sh -c 'echo hi > /dev/null; exit 4'
# calls blocked while the other task prints: "<unfinished ...>" in both (the
# program waits until the other task is blocked, so no timing decides it)
# (pipe2 left out: its flags 0 are decoded as O_RDONLY, strace says 0)
saved=$calls; calls=read,write,poll,wait4,clock_nanosleep,exit_group
run block build/progs/trace_block
calls=$saved
# signals as strace prints them (SIGCHLD from signal_generate, the others
# from signal_deliver with their siginfo), iovecs (one cut by an unmapped
# page: ... /* 0x... */), msghdrs, clone3
keep=1
calls=kill,tgkill,rt_sigqueueinfo,wait4,readv,writev,pwritev,sendmsg,recvmsg,clone3,rt_sigreturn
run signals build/progs/trace_signals
run iov build/progs/trace_iov
# the same without -f (one process each): then only the calls that need it
# are seen at their entry
follow=
run signals-nof build/progs/trace_signals
keep=0
calls=$saved,mmap,mprotect,brk,newfstatat,pread64,arch_prctl,set_tid_address,set_robust_list,munmap,prlimit64,rseq,fadvise64,futex,execve
run known-nof build/progs/trace_known "$tmp/known"
run cat-nof cat /etc/hostname /nonexistent
calls=openat,read,write,close,exit_group,kill,execve
run sh-nof sh -c 'kill -USR1 $$ 2>/dev/null; trap "" USR1; kill -USR1 $$; echo hi > /dev/null; exit 4'
# table rows and signature letters (modes as umode_t, mknod's device,
# faccessat2's and the mount API's flags, preadv2's five arguments, an empty
# buffer, gid arrays, getcpu's cpu and node) and -y on the fds a call returns and on an inherited
# one (stdin, /dev/null here: named before the command runs, so also when it
# exits before its calls are printed)
calls=getcpu,pwritev2,pidfd_send_signal,mkdir,mknodat,faccessat,faccessat2,open_tree,fspick,mount_setattr,lookup_dcookie,mlock2,preadv2,pwrite64,getgroups,setgroups,dup,close,pidfd_open
yflag=-y
run rows build/progs/trace_rows
yflag=
# netlink messages, decoded by the protocol of the socket they go to (the
# socket call itself is not shown: sonde takes it to know the protocol)
calls=sendto
run netlink build/progs/trace_netlink
# the sockets' protocols named by their families (NETLINK_NETFILTER, IPPROTO_RAW)
calls=sendto,socket
run netlink-socket build/progs/trace_netlink
# prctl: each option's arguments, what the call fills in, its return
calls=prctl
run prctl build/progs/trace_prctl
# socket addresses a call fills and their lengths in and out ([110 => 21]),
# a recvfrom that returns more than its buffer holds (MSG_TRUNC)
calls=getsockname,getpeername,accept4,recvfrom
run sockname build/progs/trace_sockname "$tmp/sock"
# ioctl requests without a name: _IOC(dir, type, nr, size), as strace
calls=ioctl
run ioctl build/progs/trace_ioctl
# directory entries: their count (/* 31 entries */)
calls=getdents64,getdents
run dirents ls -a tests/progs
# flags in strace's order, unknown values with its comment, ids of -1
calls=eventfd2,signalfd4,sync_file_range,fadvise64,rt_sigaction,setregid,setresuid,setfsgid,setgid,process_mrelease
run flagorder build/progs/trace_flagorder
# paths at PATH_MAX: PATH_MAX - 1 bytes, "..." only when the path goes on
calls=chdir,access
run pathmax build/progs/trace_pathmax
# socket options: the level and option decide what the value is
calls=getsockopt,setsockopt
run sockopt build/progs/trace_sockopt
# a sleep a stop signal interrupts (the time left), the stop, the
# restart_syscall that resumes it (named also when the sleep is not traced:
# sonde takes it, not shown), a handler's signal that ends it
keep=1
calls=clock_nanosleep,restart_syscall,wait4
run restart build/progs/trace_restart
calls=restart_syscall
run restart-alone build/progs/trace_restart
keep=0
calls=$saved
# no hot call (read, write...) traced: the programs are on these calls' own
# tracepoints, with -f and without
calls=openat,close,unlink,socket,connect,clock_nanosleep,kill,exit_group,access,pipe2,dup2,execve
run known-own-nof build/progs/trace_known "$tmp/known"
follow=-f
run fork-own build/progs/trace_fork
run sh-own sh -c 'echo hi > /dev/null; exit 4'
# -f with a call of no arguments on its own tracepoints (its entry record
# is shorter than the raw tracepoint's), and rt_sigreturn's mask
keep=1
calls=rt_sigreturn,kill,tgkill
run signals-own build/progs/trace_signals
keep=0
# nothing the command's own process does before its execve shows, even
# when it runs only after the probes are attached (a child scheduled late):
# the test knob holds it until then, so that race always goes that way
export SONDE_TRACE_TEST_LATE_CHILD=1
follow=
calls=openat,close,unlink,socket,connect,clock_nanosleep,kill,exit_group,access,pipe2,dup2,execve
run late-own-nof build/progs/trace_known "$tmp/known"
calls=openat,close,exit_group,access
run late-own-noexec-nof build/progs/trace_known "$tmp/known"
calls=$saved,execve,rt_sigaction
run late-nof build/progs/trace_known "$tmp/known"
follow=-f
run late build/progs/trace_known "$tmp/known"
calls=close,read,exit_group
run late-noexec build/progs/trace_known "$tmp/known"
# a recording holds none of it either (with execve traced and without)
for calls in close,read,execve,exit_group close,exit_group; do
	strace -qq -s 32 -e trace=$calls -o "$tmp/strace.rec" build/progs/trace_known "$tmp/known" 2>/dev/null
	"$SONDE" trace record -e trace=$calls -o "$tmp/late.rec" -- build/progs/trace_known "$tmp/known" 2>/dev/null
	"$SONDE" trace report "$tmp/late.rec" > "$tmp/sonde.rec" 2>&1
	diff <(norm "$tmp/strace.rec") <(norm "$tmp/sonde.rec") ||
		{ echo "DIFF for a late child's recording ($calls)"; fails=$((fails + 1)); }
done
unset SONDE_TRACE_TEST_LATE_CHILD
[ $fails = 0 ]
