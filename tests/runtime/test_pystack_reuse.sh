#!/usr/bin/env bash
# Python stacks never name a freed code object: CPython reuses the address
# of a freed code object for the next one, and sonde's cache of names
# (runtime/pycode.c) must not print the old one's file, name or lines for
# it.  tests/python/churn.py frees and replaces 300 code objects three ways;
# every frame must be right, in printf (printed as the events come), in
# map keys (printed after the process exited), and in D's jstack().
SONDE=${SONDE:-./sonde}
PY=/usr/bin/python3.11
[ -x $PY ] || { echo "no $PY"; exit 77; }
T=$PWD/tests/python
fail=0
expect() { # name, expected, got
	[ "$2" == "$3" ] || { printf '%s\n--- expected\n%s\n--- got\n%s\n' "$1" "$2" "$3"; fail=1; }
}
check() { $PY $T/check_churn.py "$@"; }
STAT='tracepoint:syscalls:sys_enter_newfstatat /pid == cpid && strncmp(str(args->filename), "/nonexistent/", 13) == 0/'

# the test: each round's <module> takes the last one's address
got=$("$SONDE" -q -e "$STAT { printf(\"%s %s\", str(args->filename), jstack(2)); }" \
	-c "$PY $T/churn.py" 2>&1 | check)
expect "exec/compile churn" "300 records 0 wrong" "$got"

# functions dropped and garbage-collected, others made in their place
got=$("$SONDE" -q -e "$STAT { printf(\"%s %s\", str(args->filename), jstack(2)); }" \
	-c "$PY $T/churn.py gc" 2>&1 | check)
expect "garbage-collected functions" "300 records 0 wrong" "$got"

# the same file, name and first line at the same address: only the lines
# differ, which only the line table cached for each object tells
got=$("$SONDE" -q -e "$STAT { printf(\"%s %s\", str(args->filename), jstack(1)); }" \
	-c "$PY $T/churn.py same" 2>&1 | check same)
expect "same names, other lines" "300 records 0 wrong" "$got"

# map keys, printed after the process exited and its objects were freed
got=$("$SONDE" -q -e "$STAT { @[jstack(2)] = count(); }" -c "$PY $T/churn.py" 2>&1 | check keys)
expect "map keys" "300 records 0 wrong" "$got"

# D's jstack() prints from the same cache
got=$("$SONDE" dtrace -q -n 'syscall::newfstatat:entry /pid == $target &&
	strtok(copyinstr(arg1), "0123456789") == "/nonexistent/"/ {
	printf("%s\n", copyinstr(arg1)); jstack(2); }' -c "$PY $T/churn.py" 2>&1 |
	grep -v '^ *\(libc\|0x\)' | check)
expect "D jstack" "300 records 0 wrong" "$got"

# pyaudit names the line of the script that opened the file
got=$(SONDE_TOOLS_DIR=$PWD/tools "$SONDE" --tool pyaudit -c "$PY $T/readf.py" 2>/dev/null |
	grep -A1 '^[0-9]* *open$' | grep -c -F "[ $T/readf.py:4 (<module>) ]")
expect "pyaudit: readf.py's open" 1 "$got"
exit $fail
