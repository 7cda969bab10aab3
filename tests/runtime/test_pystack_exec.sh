#!/usr/bin/env bash
# Python stacks across an exec (issue 30, "never a stale frame"): a python
# process that execs keeps the same pid, and -c follows it.  python ->
# python: the frames before the exec are exec_app.py's, after it chain.py's;
# python -> /bin/sleep: no Python frame at all in the new image.  For
# Debian's fixed-address python3.11 and for a program on the shared
# libpython3.11 (whose per-process entry the exec deletes and the new
# interpreter's Py_InitializeFromConfig makes again, runtime/pybase.c).
SONDE=${SONDE:-./sonde}
PY=/usr/bin/python3.11
LIB=/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0
[ -x $PY ] || { echo "no $PY"; exit 77; }
T=$PWD/tests/python
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
expect() { # name, expected, got
	[ "$2" == "$3" ] || { printf '%s\n--- expected\n%s\n--- got\n%s\n' "$1" "$2" "$3"; fail=1; }
}
pys=$PY
if [ -r $LIB ] && command -v cc >/dev/null; then
	printf 'extern int Py_BytesMain(int, char **);\nint main(int c, char **v) { return Py_BytesMain(c, v); }\n' \
		>"$tmp/embed.c"
	cc -o "$tmp/python3.11" "$tmp/embed.c" $LIB && pys="$pys $tmp/python3.11"
fi
# each sleep of the process: its image's name and its Python stack
NS='tracepoint:syscalls:sys_enter_clock_nanosleep /pid == cpid/ { printf("%s:%s", comm, jstack()); }'
before="python3.11:
        [ $T/exec_app.py:10 (before_exec) ]
        [ $T/exec_app.py:13 (<module>) ]"
chain="python3.11:
        [ $T/chain.py:5 (leaf) ]
        [ $T/chain.py:9 (middle) ]
        [ $T/chain.py:14 (Outer.method) ]
        [ $T/chain.py:17 (<module>) ]"
for spy in $pys; do
	got=$("$SONDE" -q -e "$NS" -c "$spy $T/exec_app.py $spy $T/chain.py" 2>&1)
	expect "$spy -> python" "$before
$chain" "$got"
	got=$("$SONDE" -q -e "$NS" -c "$spy $T/exec_app.py /bin/sleep 0.1" 2>&1)
	expect "$spy -> /bin/sleep" "$before
sleep:" "$got"
done
exit $fail
