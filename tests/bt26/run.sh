#!/usr/bin/env bash
# bpftrace v0.26.1's own runtime tests (upstream/: its test files, the programs
# they trace, and a runner that runs them as upstream's engine does) against
# sonde in its default language, bpftrace 0.26.  Every test that is not in
# expected-fail.txt must pass; machine-dependent ones (kprobes, fentry,
# hardware counters) SKIP by the runner's feature table.
#   tests/bt26/run.sh              the expected passes: "bt26: N passed, N failed, N skipped"
#   tests/bt26/run.sh --all        every test; lists the expected failures that now pass (XPASS)
#   tests/bt26/run.sh -- ARGS...   ARGS to the runner (e.g. --filter '^for\.' -v)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
SONDE=${SONDE:-$root/sonde}
all=false
[ "${1:-}" = --all ] && { all=true; shift; }
[ "${1:-}" = -- ] && shift
tmp=$(mktemp -d /tmp/sonde-bt26.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
unset SONDE_COMPAT # the default language is the one under test

ids() { sed -E 's/[[:space:]]+#.*//; /^#/d; /^[[:space:]]*$/d' "$here/expected-fail.txt"; }
ids | sort > "$tmp/expected-fail"
# the selection: every test id, minus the expected failures
python3 - "$here/upstream/tests/runtime" "$tmp/expected-fail" "$all" > "$tmp/selection" <<'PY'
import os, re, sys
tests, skip, run_all = sys.argv[1], set(open(sys.argv[2]).read().split("\n")), sys.argv[3] == "true"
for suite in sorted(os.listdir(tests)):
    path = os.path.join(tests, suite)
    if not os.path.isfile(path):
        continue
    for line in open(path, errors="replace"):
        m = re.match(r"NAME (.*)", line.rstrip("\n"))
        if m:
            tid = "%s.%s" % (suite, m.group(1).strip())
            if run_all or tid not in skip:
                print(tid)
PY
python3 "$here/upstream/run.py" --tracer "$SONDE" --baseline "$tmp/selection" --jobs 2 \
	--build-dir "$root/build/bt26" --json "$tmp/results.json" "$@" > "$tmp/out" 2>&1
rc=$?
# A test that failed next to another job runs again alone: upstream's tests
# trace system-wide events (every execve, every sys_enter) and have
# second-long timeouts, so the other job's processes can be what they see.
# Its second result counts, and the first failure is still printed.
python3 - "$tmp/results.json" "$tmp/expected-fail" "$all" > "$tmp/rerun" <<'PY'
import json, sys
expected = set(open(sys.argv[2]).read().split("\n"))
for t in json.load(open(sys.argv[1])):
    if t["status"] not in ("PASS", "SKIP") and (sys.argv[3] != "true" or t["id"] not in expected):
        print(t["id"])
PY
echo '[]' > "$tmp/rerun.json"
if [ -s "$tmp/rerun" ] && [ "$(wc -l < "$tmp/rerun")" -le 10 ]; then
	python3 "$here/upstream/run.py" --tracer "$SONDE" --baseline "$tmp/rerun" --jobs 1 \
		--build-dir "$root/build/bt26" --json "$tmp/rerun.json" "$@" > "$tmp/rerun.out" 2>&1
	sed -n 's/^PASS /passed when run alone (failed next to another job): /p' "$tmp/rerun.out"
fi
grep -E '^(FAIL|ERROR)' "$tmp/out"
python3 - "$tmp/results.json" "$tmp/expected-fail" "$all" "$tmp/rerun.json" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))
alone = {t["id"]: t["status"] for t in json.load(open(sys.argv[4]))}
expected = set(open(sys.argv[2]).read().split("\n"))
run_all = sys.argv[3] == "true"
count = {"PASS": 0, "FAIL": 0, "SKIP": 0}
for t in res:
    st = alone.get(t["id"], t["status"])
    if run_all and t["id"] in expected:
        if st == "PASS":
            print("XPASS %s" % t["id"])
        continue
    count[st if st in count else "FAIL"] += 1
print("bt26: %d passed, %d failed, %d skipped" % (count["PASS"], count["FAIL"], count["SKIP"]))
PY
[ $rc -le 1 ] || { tail -20 "$tmp/out"; echo "bt26: the runner failed (status $rc)"; }
