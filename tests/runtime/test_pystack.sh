#!/usr/bin/env bash
# pystack / jstack(): the Python frames of the current thread, at a syscall
# tracepoint, in Debian's CPython 3.11: a known call chain with its lines,
# three threads, a generator, map keys (printed after the process exited),
# jstack(n, strsize), and the refusals.
SONDE=${SONDE:-./sonde}
PY=/usr/bin/python3.11
[ -x $PY ] || { echo "no $PY"; exit 77; }
T=$PWD/tests/python
fail=0
expect() { # name, expected, got
	[ "$2" == "$3" ] || { printf '%s\n--- expected\n%s\n--- got\n%s\n' "$1" "$2" "$3"; fail=1; }
}
NS='tracepoint:syscalls:sys_enter_clock_nanosleep /pid == cpid/'
rm -f /run/sonde/task_fsbase # made again by the first run (checked below)

got=$("$SONDE" -q -e "$NS { printf(\"%s\", jstack()); }" -c "$PY $T/chain.py" 2>&1)
expect "call chain" "
        [ $T/chain.py:5 (leaf) ]
        [ $T/chain.py:9 (middle) ]
        [ $T/chain.py:14 (Outer.method) ]
        [ $T/chain.py:17 (<module>) ]" "$got"

# jstack(); alone prints, as in DTrace
got=$("$SONDE" -q -e "$NS { jstack(2); }" -c "$PY $T/chain.py" 2>&1)
expect "jstack(); statement" "
        [ $T/chain.py:5 (leaf) ]
        [ $T/chain.py:9 (middle) ]" "$got"

# a frame link into unmapped memory (cut.py sets it while it sleeps): the
# walk is marked as cut short, not passed off as a whole stack
got=$("$SONDE" -q -e "$NS { printf(\"%s\", jstack()); }" -c "$PY $T/cut.py" 2>&1)
expect "unreadable frame" "
        [ $T/cut.py:11 (leaf) ]
        [ unreadable memory: walk stopped ]" "$got"
got=$("$SONDE" -q -f folded -e "$NS { @[pystack] = count(); }" -c "$PY $T/cut.py" 2>&1)
expect "unreadable frame, folded" "[...];leaf ($T/cut.py:11) 1" "$got"

# the kernel's task_struct.thread.fsbase offset is kept for the boot (its
# BTF is not parsed again): the runs above left it, a number after its key
got=$(sed -n 2p /run/sonde/task_fsbase 2>&1)
[[ $got =~ ^[1-9][0-9]*$ ]] || { echo "/run/sonde/task_fsbase: '$got'"; fail=1; }

# three threads, one sleep each: three keys, counted once each (the lines
# in threading.py are read from the installed file)
TH=/usr/lib/python3.11/threading.py
run_line=$(grep -n 'self._target(\*self._args, \*\*self._kwargs)' $TH | head -1 | cut -d: -f1)
boot_line=$(grep -n '^ *self._bootstrap_inner()$' $TH | head -1 | cut -d: -f1)
got=$("$SONDE" -q -e "$NS { @[pystack] = count(); }" -c "$PY $T/threads.py" 2>&1)
for f in "6 (alpha)" "10 (beta)" "14 (gamma)"; do
	n=$(grep -A1 -F "[ $T/threads.py:$f ]" <<<"$got" | grep -c -F "threading.py:$run_line (Thread.run) ]")
	expect "thread $f" 1 "$n"
done
expect "three stacks" 3 "$(grep -c '^]: 1$' <<<"$got")"
expect "thread bootstrap" 3 "$(grep -c -F "threading.py:$boot_line (Thread._bootstrap) ]" <<<"$got")"

got=$("$SONDE" -q -e "$NS { print(pystack); }" -c "$PY $T/gen.py" 2>&1)
expect "generator" "
        [ $T/gen.py:6 (ticker) ]
        [ $T/gen.py:11 (consume) ]
        [ $T/gen.py:15 (<module>) ]" "$got"

got=$("$SONDE" -q -e "$NS { printf(\"%s|\", jstack(2, 16)); }" -c "$PY $T/gen.py" 2>&1)
expect "jstack(2, 16)" "
        [ ${T:0:14}
        [ ${T:0:14}
|" "$got"

# a function whose line table is longer than the 1 KiB sonde caches: the
# line comes from the live process
big=$(mktemp --suffix=.py)
{ echo 'import time'; echo 'def big():'; for i in $(seq 700); do echo "    x$i = $i"; done
  echo '    time.sleep(0.2)'; echo 'big()'; } >"$big"
got=$("$SONDE" -q -e "$NS { printf(\"%s\", jstack()); }" -c "$PY $big" 2>&1)
rm -f "$big"
expect "long line table" "
        [ $big:703 (big) ]
        [ $big:704 (<module>) ]" "$got"

# a process that runs no Python: nothing to show, and no error
got=$("$SONDE" -q -e "$NS { @[pystack] = count(); }" -c "sleep 0.1" 2>&1)
expect "not python" "

@[
]: 1" "$got"

# refusals: a -p process without CPython, another CPython version, bad depth
sleep 3 & sp=$!
got=$("$SONDE" -p $sp -e 'profile:hz:99 { @[pystack] = count(); }' 2>&1)
kill $sp
expect "-p sleep" "stdin:1:17-26: ERROR: pystack: process $sp runs no CPython that sonde can read (neither its executable nor a libpython3.11 it maps has _PyRuntime)
profile:hz:99 { @[pystack] = count(); }
                ~~^~~~~~~" "$got"
# a copy of python3.11 claiming another version, or with other struct sizes:
# refused before anything runs (the check reads the binary's own data)
patch() { # SYMBOL OFFSET VALUE(4 bytes) -> a patched copy at $tmp_py
	$PY - "$PY" "$tmp_py" "$@" <<'PYEOF'
import struct, sys, subprocess
src, dst, sym, add, val = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5], 0)
out = subprocess.run(["readelf", "-sW", src], capture_output=True, text=True).stdout
va = next(int(l.split()[1], 16) for l in out.splitlines() if l.split()[-1:] == [sym]) + add
data = bytearray(open(src, "rb").read())
phoff, = struct.unpack_from("<Q", data, 32); phnum, = struct.unpack_from("<H", data, 56)
for i in range(phnum):
    t, f, off, v, pa, fsz = struct.unpack_from("<IIQQQQ", data, phoff + 56 * i)
    if t == 1 and v <= va < v + fsz:
        struct.pack_into("<I", data, off + va - v, val)
open(dst, "wb").write(data)
PYEOF
	chmod +x "$tmp_py"
}
tmp_py=$(mktemp -d)/python3.11
patch Py_Version 0 0x030c02f0
got=$("$SONDE" -e 'BEGIN { print(pystack); }' -c "$tmp_py -c 1" 2>&1)
expect "3.12" "stdin:1:9-22: ERROR: pystack: $tmp_py is CPython 3.12.2: sonde reads the frames of CPython 3.11 only
BEGIN { print(pystack); }
        ~~~~~~^~~~~~~" "$got"
patch PyCode_Type 32 200
got=$("$SONDE" -e 'BEGIN { print(pystack); }' -c "$tmp_py -c 1" 2>&1 | head -1)
expect "layout" "stdin:1:9-22: ERROR: pystack: $tmp_py (CPython 3.11.2) does not match sonde's 3.11 layout (code objects 200 bytes, expected 184; _PyRuntime 166688 bytes, expected 166688): refusing to print wrong stacks" "$got"
rm -rf "$(dirname "$tmp_py")"
got=$("$SONDE" -e 'BEGIN { print(jstack(200)); }' 2>&1)
expect "depth" "stdin:1:9-21: ERROR: jstack(): the depth must be from 1 to 127
BEGIN { print(jstack(200)); }
        ~~~~~~^~~~~~" "$got"
exit $fail
