#!/usr/bin/env bash
# sonde flamegraph: samples flame_target (~90% of its time in hot_function,
# ~10% in cold_function, both called from main) and checks that the SVG is
# well-formed XML and that hot_function is the widest frame above main;
# --from-folded escapes names and skips bad lines; --off-cpu charges a
# sleep to the kernel's nanosleep path; bad options fail with a message.
# While it samples, sonde sleeps: no periodic wake-ups (a few context
# switches in 2 s, where polling every 20 ms made 100), and a library the
# program dlopen()s after it started still gets its function names (the
# mappings are read again when the process maps code, not on a timer).
SONDE=${SONDE:-./sonde}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { printf '%s\n' "$1"; [ -f "$tmp/err" ] && cat "$tmp/err"; exit 1; }

"$SONDE" flamegraph -F 199 -o "$tmp/fg.svg" -- build/progs/flame_target 1.5 2>"$tmp/err" ||
	fail "sonde flamegraph failed"
grep -q "wrote $tmp/fg.svg" "$tmp/err" || fail "no 'wrote' message"
/usr/bin/python3.11 - "$tmp/fg.svg" <<'PY' || fail "SVG check failed"
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()          # raises if not well-formed
frames = []
for g in root.iter("{http://www.w3.org/2000/svg}g"):
    if g.get("class") != "f":
        continue
    title = g.find("s:title", ns).text
    frames.append((title[: title.rindex(" (")], int(g.get("data-s")), int(g.get("data-n")),
                   int(g.get("data-d")), float(g.find("s:rect", ns).get("width"))))
mains = [f for f in frames if f[0] == "main"]
assert mains, "no main frame"
m = max(mains, key=lambda f: f[2])
kids = [f for f in frames if f[3] == m[3] + 1 and m[1] <= f[1] < m[1] + m[2]]
assert kids, "nothing above main"
widest = max(kids, key=lambda f: f[4])
assert widest[0] == "hot_function", "widest above main is %s: %s" % (widest[0], kids)
assert root.find("s:script", ns) is not None, "no script"
print("hot_function %d of %d samples under main" % (widest[2], m[2]))
PY

printf 'a;b;c 5\na;b;d 3\nnot a stack line\nx&y;<z> 2\n' |
	"$SONDE" flamegraph --from-folded - >"$tmp/f.svg" 2>"$tmp/err" || fail "--from-folded failed"
/usr/bin/python3.11 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$tmp/f.svg" || fail "--from-folded: not XML"
grep -q '<title>b (8 samples, 80.00%)</title>' "$tmp/f.svg" || fail "--from-folded: b is not 8 samples, 80%"
grep -q '<title>x&amp;y (2 samples' "$tmp/f.svg" || fail "--from-folded: & not escaped"
grep -q '1 of 4 lines' "$tmp/err" || fail "--from-folded: bad line not reported"

"$SONDE" flamegraph --off-cpu --folded -- sleep 0.3 >"$tmp/off" 2>"$tmp/err" || fail "--off-cpu failed"
us=$(grep -E 'nanosleep_\[k\];' "$tmp/off" | awk '{s += $NF} END {print s + 0}')
[ "$us" -ge 250000 ] || { cat "$tmp/off"; fail "--off-cpu: sleep 0.3 charged $us us to nanosleep"; }

# voluntary context switches of sonde (and sleep) while sampling for 2 s: the
# times it chose to wake.  Involuntary ones (preemption) count the machine's
# load, not sonde, so they are left out (wait4's ru_nvcsw, not perf's total).
cs=$(python3 - "$SONDE" "$tmp/err" <<'PY'
import os, subprocess, sys
with open(sys.argv[2], "w") as err:
    p = subprocess.Popen([sys.argv[1], "flamegraph", "--folded", "--", "sleep", "2"],
                         stdout=subprocess.DEVNULL, stderr=err)
    _, status, ru = os.wait4(p.pid, 0)
print(ru.ru_nvcsw if os.waitstatus_to_exitcode(status) == 0 else "")
PY
)
[ -n "$cs" ] || fail "flamegraph -- sleep 2 failed"
[ "$cs" -lt 50 ] || fail "sonde woke up $cs times while sampling sleep 2 (expected a few)"

"$SONDE" flamegraph --folded -- build/progs/dlopen_target "$PWD/build/progs/libspin_lib.so" \
	>"$tmp/dl" 2>"$tmp/err" || fail "flamegraph -- dlopen_target failed"
grep -q ';spin_in_lib ' "$tmp/dl" || { cat "$tmp/dl"; fail "spin_in_lib (dlopen()ed while sampled) not named"; }

"$SONDE" flamegraph -p 999999999 2>"$tmp/err" && fail "-p of no process succeeded"
grep -q 'no such process' "$tmp/err" || fail "-p: no message"
"$SONDE" flamegraph -F abc 2>"$tmp/err" && fail "-F abc succeeded"
grep -q -- '-F takes' "$tmp/err" || fail "-F: no message"
exit 0
