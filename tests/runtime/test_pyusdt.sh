#!/usr/bin/env bash
# CPython 3.11's function__entry fires for every Python call while sonde is
# attached (sonde raises the line semaphore, CPython issue 98894): counts
# equal the calls the program makes; function__return too; stderr says so.
SONDE=${SONDE:-./sonde}
PY=/usr/bin/python3.11
[ -x $PY ] || { echo "no $PY"; exit 77; }
"$SONDE" -l "usdt:$PY:python:function__entry" | grep -q function__entry || { echo "no USDT in $PY"; exit 77; }
fail=0
prog=$(mktemp --suffix=.py)
trap 'rm -f "$prog" "$prog.err"' EXIT
cat >"$prog" <<'PY'
def leaf(x):
    return x + 1
def mid(x):
    return leaf(x) * 2
for i in range(700):
    mid(i)
for i in range(300):
    leaf(i)
PY
out=$("$SONDE" -q -e "usdt:$PY:python:function__entry { @e[str(arg1), arg2] = count(); }
usdt:$PY:python:function__return { @r[str(arg1)] = count(); }" -c "$PY $prog" 2>"$prog.err" |
	grep -E '^@.\[(leaf|mid)')
want='@e[leaf, 1]: 1000
@e[mid, 3]: 700
@r[leaf]: 1000
@r[mid]: 700'
[ "$(sort <<<"$out")" == "$want" ] || { printf 'counts\n--- want\n%s\n--- got\n%s\n' "$want" "$out"; fail=1; }
grep -q "CPython issue 98894" "$prog.err" || { echo "no stderr note"; cat "$prog.err"; fail=1; }
# without sonde the semaphore is down again: Python runs untraced (nothing to
# observe directly; a second run with function__return only does not warn)
"$SONDE" -q -e "usdt:$PY:python:function__return { @r = count(); }" -c "$PY $prog" 2>"$prog.err" >/dev/null
grep -q "98894" "$prog.err" && { echo "warned for function__return"; fail=1; }
exit $fail
