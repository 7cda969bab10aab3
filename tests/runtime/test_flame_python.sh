#!/usr/bin/env bash
# sonde flamegraph of a CPython 3.11 program (issue 30 item 3): its Python
# functions are in the graph, merged with the native frames they call.
# tests/python/flame_app.py spends its time in spin() (Python) and in
# squeeze() (zlib's C code under a Python frame).  Checked on the folded
# stacks: nearly every sample of the program has its Python frames, spin
# and squeeze sit under main and <module>, squeeze's samples go on into
# libz's native frames, and no caller is [unknown] (the frame-pointer walk
# of Debian's CPython, built without frame pointers, went astray into
# towers of them; frames that do not follow a call are cut and "[...]"
# marks the cut).  Without Python frames (before this) the first check
# fails.  Then -p, the SVG, --off-cpu and --pprof (the same merge,
# runtime/stack_merge.c), and a python* command sonde cannot read.
# Counts are samples of the program's own CPU time, not wall-clock rates.
SONDE=${SONDE:-./sonde}
PY=/usr/bin/python3.11
[ -x "$PY" ] || { echo "skip: no $PY"; exit 0; }
tmp=$(mktemp -d); trap 'kill $spid 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { printf '%s\n' "$1"; [ -f "$tmp/err" ] && cat "$tmp/err"; exit 1; }
app=$PWD/tests/python/flame_app.py

check_folded() { # FILE WHAT: the merged stacks of flame_app.py
	python3 - "$1" "$app" "$2" <<'PY'
import re, sys
path, app, what = sys.argv[1], sys.argv[2], sys.argv[3]
total = with_py = spin = squeeze = squeeze_native = 0
bad = []
for line in open(path):
    stack, _, n = line.rstrip("\n").rpartition(" ")
    frames, n = stack.split(";"), int(n)
    if frames[0] != "python3.11":
        continue
    total += n
    py = [i for i, f in enumerate(frames) if re.search(r" \(.*:(\d+|\?)\)$", f)]
    if py:
        with_py += n
    # an address with no name is honest as the sampled instruction (the
    # innermost user frame); above it, it is a walk gone astray
    user = [f for f in frames[1:] if not f.endswith("_[k]")]
    if "[unknown]" in user[:-1]:
        bad.append(line.strip())
    mine = [frames[i].split(" (")[0] for i in py if app in frames[i]]
    if mine[:2] == ["<module>", "main"] and mine[2:3] == ["spin"]:
        spin += n
    if mine[:2] == ["<module>", "main"] and mine[2:3] == ["squeeze"]:
        squeeze += n
        rest = frames[py[-1] + 1:]
        if any("libz" in f or "deflate" in f for f in rest):
            squeeze_native += n
print("%s: %d samples, %d with Python frames, spin %d, squeeze %d (%d into libz)"
      % (what, total, with_py, spin, squeeze, squeeze_native))
assert total >= 20, "too few samples"
assert with_py >= 0.8 * total, "Python frames in only %d of %d samples" % (with_py, total)
assert spin >= 0.15 * total, "spin under main under <module>: %d of %d" % (spin, total)
assert squeeze >= 0.15 * total, "squeeze under main under <module>: %d of %d" % (squeeze, total)
assert squeeze_native >= 0.5 * squeeze, "squeeze's native frames: %d of %d" % (squeeze_native, squeeze)
assert not bad, "[unknown] callers:\n" + "\n".join(bad[:5])
PY
}

"$SONDE" flamegraph --folded -- "$PY" "$app" >"$tmp/cmd.folded" 2>"$tmp/err" || fail "flamegraph -- python3.11 failed"
check_folded "$tmp/cmd.folded" "-- $PY" || { head -20 "$tmp/cmd.folded"; fail "-- $PY: wrong stacks"; }

# -p samples until the process exits: ~1.5 s of its CPU time, whatever the load
"$PY" "$app" 15 & spid=$!
"$SONDE" flamegraph --folded -p "$spid" >"$tmp/pid.folded" 2>"$tmp/err" || fail "flamegraph -p failed"
wait "$spid" 2>/dev/null
check_folded "$tmp/pid.folded" "-p" || { head -20 "$tmp/pid.folded"; fail "-p: wrong stacks"; }

"$SONDE" flamegraph -o "$tmp/py.svg" -- "$PY" "$app" 2 2>"$tmp/err" || fail "flamegraph SVG failed"
grep -q '<title>spin (' "$tmp/py.svg" || fail "SVG: no spin frame"

# --off-cpu: the time nap() sleeps is charged to its Python frames under
# main and <module>: at least the 15 x 20 ms it asked for, whatever the load
# (before, off-CPU stacks had no Python frames)
nap=$PWD/tests/python/nap_app.py
"$SONDE" flamegraph --off-cpu --folded -- "$PY" "$nap" >"$tmp/off.folded" 2>"$tmp/err" ||
	fail "flamegraph --off-cpu failed"
us=$(python3 - "$tmp/off.folded" "$nap" <<'PY'
import re, sys
f = re.escape(sys.argv[2])
pat = re.compile(r"^python3\.11;<module> \(%s:\d+\);main \(%s:\d+\);nap \(%s:\d+\);" % (f, f, f))
print(sum(int(l.rsplit(" ", 1)[1]) for l in open(sys.argv[1]) if pat.match(l)))
PY
)
[ "${us:-0}" -ge 250000 ] || { grep -F nap "$tmp/off.folded" | head -5; fail "--off-cpu: <module>;main;nap charged ${us:-?} us"; }

# --pprof: the same merged stacks in the profile (functions with their file
# and line), on-CPU and off-CPU; read back by go tool pprof when installed
if command -v go >/dev/null; then
	"$SONDE" flamegraph --pprof "$tmp/py.pb.gz" -- "$PY" "$app" 2 2>"$tmp/err" || fail "--pprof failed"
	go tool pprof -traces "$tmp/py.pb.gz" 2>/dev/null | grep -A1 -E '^ +spin$' | grep -qE '^ +main$' ||
		fail "--pprof: no trace with spin under main"
	"$SONDE" flamegraph --off-cpu --pprof "$tmp/off.pb.gz" -- "$PY" "$nap" 2>"$tmp/err" ||
		fail "--off-cpu --pprof failed"
	out=$(go tool pprof -top -unit=ms -focus='^nap$' "$tmp/off.pb.gz" 2>&1)
	ms=$(sed -nE 's/^Showing nodes accounting for ([0-9.]+)ms.*/\1/p' <<<"$out")
	python3 -c "import sys; sys.exit(0 if float('${ms:-0}') >= 250 else 1)" ||
		{ echo "$out"; fail "--off-cpu --pprof: nap charged ${ms:-?} ms"; }
	go tool pprof -raw "$tmp/off.pb.gz" 2>/dev/null | grep -qE " nap $nap:[0-9]+ " ||
		fail "--off-cpu --pprof: nap's location has no file and line"
fi

# a python* command that is not an ELF file (a pyenv shim): native frames,
# and a message that says why
printf '#!/bin/sh\nexec %s "$@"\n' "$PY" >"$tmp/python3.11"; chmod +x "$tmp/python3.11"
"$SONDE" flamegraph --folded -- "$tmp/python3.11" "$app" 1 >"$tmp/shim" 2>"$tmp/err" || fail "flamegraph of a shim failed"
grep -q 'native frames only: .*not an ELF executable' "$tmp/err" || fail "shim: no message"
grep -q 'spin (' "$tmp/shim" && fail "shim: Python frames without the interpreter's layout"
exit 0
