#!/usr/bin/env bash
# The ready tools (tools/*.bt): each is run with `sonde --tool NAME`, made
# to see what it watches (a known file opened, a known command run, a
# signal sent, direct I/O to a loop device, a pwritev, a TCP exchange on
# loopback, CPython collecting garbage...) and its output must name it.
# The -c commands sleep a little after the trigger so that sonde reads the
# events before the command's exit stops it.
SONDE=${SONDE:-./sonde}
tmp=$(mktemp -d)
loopdev=
cleanup() { [ -n "$loopdev" ] && losetup -d "$loopdev"; rm -rf "$tmp" build/direct_io.tmp; }
trap cleanup EXIT
rm -f build/direct_io.tmp
failed=0
fail() { printf 'FAIL %s\n--- output\n%s\n' "$1" "$out"; failed=1; }
run() { out=$(timeout 60 "$SONDE" "$@" 2>&1); }

# --tools: every tool, one line each with what it answers
out=$("$SONDE" --tools)
for f in tools/*.bt; do
	n=$(basename "$f" .bt)
	grep -qE "^$n +[A-Z].{10,}" <<<"$out" || fail "--tools: no line for $n"
done
"$SONDE" --tool no_such_tool 2>&1 | grep -q "no tool 'no_such_tool'" || fail "--tool: unknown name"

run -c "sh -c 'cat /etc/hostname /nonexistent_sonde_x >/dev/null 2>&1; sleep 0.3'" --tool opensnoop
grep -qE '^[0-9]+ +cat +[0-9]+ +0 /etc/hostname$' <<<"$out" || fail "opensnoop: /etc/hostname"
grep -qE '^[0-9]+ +cat +-1 +2 /nonexistent_sonde_x$' <<<"$out" || fail "opensnoop: ENOENT"

run -c "sh -c '/bin/echo sonde_exec_marker 42 >/dev/null; sleep 0.3'" --tool execsnoop
grep -qE '^[0-9]+ +[0-9]+ +/bin/echo sonde_exec_marker 42$' <<<"$out" || fail "execsnoop: argv"

run -c "sh -c 'sleep 5 & kill -USR1 \$!; kill -TERM 999999999 2>/dev/null; sleep 0.3'" --tool killsnoop
grep -qE '^[0-9:]{8} +[0-9]+ +sh +10 +[0-9]+ +0$' <<<"$out" || fail "killsnoop: SIGUSR1 sent, result 0"
grep -qE '^[0-9:]{8} +[0-9]+ +sh +15 +999999999 +-3$' <<<"$out" || fail "killsnoop: SIGTERM to no process, -ESRCH"

run -c "sleep 2.5" --tool syscount 1
grep -qE '^[0-9:]{8} Top 10 syscalls:$' <<<"$out" || fail "syscount: no interval output"
grep -qE '^@syscall\[(read|write|openat|close|mmap|futex|bpf|ioctl|epoll_wait|wait4|newfstatat)\]: [0-9]+$' <<<"$out" ||
	fail "syscount: syscalls not by name"
grep -qE '^@syscall\[[0-9]+\]' <<<"$out" && fail "syscount: a syscall shown as a number"
grep -qE '^@process\[.+\]: [0-9]+$' <<<"$out" || fail "syscount: no processes"

run -c "/usr/bin/python3.11 -c 'import os, time
fd = os.open(\"$tmp/w\", os.O_WRONLY | os.O_CREAT)
os.pwritev(fd, [b\"abc\", b\"def\"], 0); time.sleep(0.3)'" --tool writelat
grep -qE '^@usecs\[python3[.0-9]*, pwritev2?\]: $' <<<"$out" || fail "writelat: pwritev by python3"

cat >"$tmp/tcp.py" <<'PY'
import socket, threading, time
srv = socket.socket(); srv.bind(("127.0.0.1", 0)); srv.listen(1)
port = srv.getsockname()[1]
def serve():
    c, _ = srv.accept()
    while c.recv(65536): pass
    c.sendall(b"y" * 3000); c.close()
t = threading.Thread(target=serve); t.start()
s = socket.create_connection(("127.0.0.1", port)); s.sendall(b"x" * 5000); s.shutdown(socket.SHUT_WR)
while s.recv(65536): pass
s.close(); t.join(); print("port", port, flush=True); time.sleep(0.3)
PY
run -c "/usr/bin/python3.11 $tmp/tcp.py" --tool tcplife
port=$(sed -nE 's/^port ([0-9]+)$/\1/p' <<<"$out")
grep -qE "^[0-9]+ +python3[.0-9]* +127\.0\.0\.1 +[0-9]+ +127\.0\.0\.1 +$port +4 +2 +[0-9]+$" <<<"$out" ||
	fail "tcplife: client side (5000 bytes sent, 3000 received)"
grep -qE "^[0-9]+ +python3[.0-9]* +127\.0\.0\.1 +$port +127\.0\.0\.1 +[0-9]+ +2 +4 +[0-9]+$" <<<"$out" ||
	fail "tcplife: server side"

run -c "sh -c 'for i in 1 2 3 4 5; do sleep 0.05; done'" --tool runqlat
grep -qE '^@usecs: $' <<<"$out" && grep -qE '^\[[0-9]+(, [0-9]+[KM]?\))? +[0-9]+ \|' <<<"$out" ||
	fail "runqlat: no histogram"

run -c "/usr/bin/python3.11 -c 'import gc, time
for i in range(5): gc.collect(2)
time.sleep(0.3)'" --tool pythongc
gen2=$(awk '/^@usecs\[2\]: $/ { on = 1; next } /^@/ { on = 0 } on && /^\[/ { sub(/^[^])]*[])] +/, ""); s += $1 } END { print s + 0 }' <<<"$out")
[ "$gen2" -ge 5 ] || fail "pythongc: $gen2 generation-2 pauses (want at least 5)"
grep -qE '^@collected\[2\]: [0-9]+$' <<<"$out" || fail "pythongc: collected"

cp /bin/true "$tmp/sonde_xw_true"
run -q -c "sh -c 'sleep 0.2; $tmp/sonde_xw_true; $tmp/sonde_xw_true; sleep 0.3'" --tool execwatch sonde_xw_true
[ "$(grep -cE '^[0-9]+$' <<<"$out")" = 2 ] || fail "execwatch: want 2 pids"

# block tools: direct I/O to a loop device
dd if=/dev/zero of="$tmp/disk" bs=1M count=4 status=none
if loopdev=$(losetup -f --show "$tmp/disk" 2>/dev/null); then
	disk=$(basename "$loopdev")
	io="dd if=/dev/zero of=$loopdev bs=8k count=3 oflag=direct"
else # no loop devices (a container): direct writes to a file on this disk
	loopdev=
	disk='[a-z]+[0-9a-z]*'
	io="dd if=/dev/zero of=$PWD/build/direct_io.tmp bs=8k count=3 oflag=direct conv=notrunc"
	echo "no loop device: block tools watch direct I/O to build/direct_io.tmp"
fi
run -c "sh -c '$io 2>/dev/null; sleep 0.3'" --tool biosnoop
if [ -n "$loopdev" ]; then
	for off in 0 8192 16384; do
		grep -qE "^[0-9]+ +dd +[0-9]+ +$disk +W +$off +8192 +[0-9]+$" <<<"$out" || fail "biosnoop: write at $off"
	done
else
	[ "$(grep -cE "^[0-9]+ +dd +[0-9]+ +$disk +W +[0-9]+ +8192 +[0-9]+$" <<<"$out")" -ge 3 ] ||
		fail "biosnoop: three 8 KiB writes by dd"
fi
run -c "sh -c '$io 2>/dev/null; sleep 0.3'" --tool biolatency 1
# the heading compared as a string: awk -v treats backslashes differently in gawk and mawk
n=$(awk -v d="@disk_usecs[$disk]: " '$0 == d { on = 1; next } /^@/ { on = 0 } on && /^\[/ { sub(/^[^])]*[])] +/, ""); s += $1 } END { print s + 0 }' <<<"$out")
[ "$n" -ge 3 ] || fail "biolatency 1: $n requests on $disk (want at least 3)"
run -c "sh -c '$io 2>/dev/null; sleep 0.3'" --tool biolatency
grep -qE '^@usecs: $' <<<"$out" || fail "biolatency: no histogram"
exit $failed
