#!/usr/bin/env bash
# Python stacks of a CPython whose interpreter is a shared libpython3.11.so
# (pyenv's and many distributions' builds, virtualenvs on them, programs
# embedding Python): a three-line C program linking Debian's
# libpython3.11.so.1.0 and calling Py_BytesMain is such a python3.11.  With
# -c (the library's load address learned in the process, runtime/pycode.c),
# with -p, code objects freed and replaced (code_dealloc's uprobe in the
# library), and what sonde says when it cannot read the frames.
SONDE=${SONDE:-./sonde}
LIB=/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0
PY=/usr/bin/python3.11
[ -r $LIB ] && [ -x $PY ] && command -v cc >/dev/null || { echo "no $LIB, $PY or cc"; exit 77; }
T=$PWD/tests/python
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
expect() { # name, expected, got
	[ "$2" == "$3" ] || { printf '%s\n--- expected\n%s\n--- got\n%s\n' "$1" "$2" "$3"; fail=1; }
}
printf 'extern int Py_BytesMain(int, char **);\nint main(int c, char **v) { return Py_BytesMain(c, v); }\n' \
	>"$tmp/embed.c"
cc -o "$tmp/python3.11" "$tmp/embed.c" $LIB || { echo "cannot build the embedding program"; exit 1; }
SPY=$tmp/python3.11
NS='tracepoint:syscalls:sys_enter_clock_nanosleep /pid == cpid/'
chain="
        [ $T/chain.py:5 (leaf) ]
        [ $T/chain.py:9 (middle) ]
        [ $T/chain.py:14 (Outer.method) ]
        [ $T/chain.py:17 (<module>) ]"

got=$("$SONDE" -q -e "$NS { printf(\"%s\", jstack()); }" -c "$SPY $T/chain.py" 2>&1)
expect "-c, shared libpython" "$chain" "$got"

# D's jstack() too
got=$("$SONDE" dtrace -q -n 'syscall::clock_nanosleep:entry /pid == $target/ { jstack(); }' \
	-c "$SPY $T/chain.py" 2>&1 | grep -F '[ ')
expect "-c, D" "$(sed 's/^        /                /' <<<"$chain" | sed 1d)" "$got"

# functions freed and replaced: the probe on the library's code_dealloc
STAT='tracepoint:syscalls:sys_enter_newfstatat /pid == cpid && strncmp(str(args->filename), "/nonexistent/", 13) == 0/'
got=$("$SONDE" -q -e "$STAT { printf(\"%s %s\", str(args->filename), jstack(2)); }" \
	-c "$SPY $T/churn.py gc" 2>&1 | $PY $T/check_churn.py)
expect "-c, freed code objects" "300 records 0 wrong" "$got"

# -p: the library's load address from the process's maps.  The process
# sleeps until killed, so sonde's first event is there whenever it
# attaches; it says when Python runs (its libpython mapped)
"$SPY" -c 'import time
def nap():
    print("ready", flush=True)
    while True:
        time.sleep(0.05)
nap()' >"$tmp/ready" &
pid=$!
for _ in $(seq 600); do grep -q ready "$tmp/ready" && break; sleep 0.05; done
got=$("$SONDE" -q -p $pid -e "tracepoint:syscalls:sys_enter_clock_nanosleep /pid == $pid/ {
	printf(\"%s\", jstack()); exit(); }" 2>&1)
expect "-p, shared libpython" "
        [ <string>:5 (nap) ]
        [ <string>:6 (<module>) ]" "$got"

# system-wide (no -p, no -c): a process already running when sonde starts
# (its libpython's address read from its maps, runtime/pybase.c)
got=$(timeout 60 "$SONDE" -q -e "tracepoint:syscalls:sys_enter_clock_nanosleep /pid == $pid/ {
	printf(\"%s\", jstack()); exit(); }" 2>&1)
kill $pid; wait $pid 2>/dev/null
expect "system-wide, running before" "
        [ <string>:5 (nap) ]
        [ <string>:6 (<module>) ]" "$got"

# system-wide, processes started after sonde: one probe serves each
# (Py_InitializeFromConfig's uprobe), and a forked child (the parent's entry
# copied): only the child sleeps, in child_nap
cp "$SPY" "$tmp/pyfork"
"$SONDE" -q -e 'tracepoint:syscalls:sys_enter_clock_nanosleep /comm == "pyfork"/ {
	printf("%s", jstack()); exit(); } BEGIN { printf("attached\n"); }' >"$tmp/sw" 2>&1 &
spid=$!
for _ in $(seq 1200); do grep -q attached "$tmp/sw" && break; sleep 0.05; done
"$tmp/pyfork" -c 'import os, time
def child_nap():
    while True:
        time.sleep(0.05)
if os.fork() == 0:
    child_nap()
os.wait()' &
fpid=$!
for _ in $(seq 1200); do kill -0 $spid 2>/dev/null || break; sleep 0.05; done
kill $spid 2>/dev/null
pkill -P $fpid; kill $fpid; wait $fpid 2>/dev/null
expect "system-wide, started after, forked" "attached

        [ <string>:4 (child_nap) ]
        [ <string>:6 (<module>) ]" "$(cat "$tmp/sw")"

# a script in front of the interpreter (as pyenv's shims): said, not guessed
mkdir "$tmp/shims"
printf '#!/bin/sh\nexec %s "$@"\n' "$PY" >"$tmp/shims/python3.11"; chmod +x "$tmp/shims/python3.11"
got=$("$SONDE" -e "$NS { printf(\"%s\", jstack()); }" -c "$tmp/shims/python3.11 $T/chain.py" 2>&1 | head -1)
expect "shim" "stdin:1:76-82: ERROR: jstack: $tmp/shims/python3.11 is not an ELF executable (a pyenv shim or another script?): name the interpreter itself (-c '/path/to/python3.11 ...')" "$got"
exit $fail
