#!/usr/bin/env bash
# sonde trace on bad input: clear one-line errors, strace-like statuses,
# nothing left attached; record/report round trip and damaged files.
set -u
cd "$(dirname "$0")/../.."
SONDE=${SONDE:-$PWD/sonde}
known=build/progs/trace_known
[ -x "$known" ] || { echo "build/progs missing"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
links() { bpftool link 2>/dev/null | grep -c perf_event; }
# earlier runs detach in the background: let them finish first
for i in $(seq 50); do [ "$(links)" = 0 ] && break; sleep 0.1; done
before=$(links)
out=$("$SONDE" trace -e trace=nosuchcall -- true 2>&1); rc=$?
[ $rc = 1 ] && [ "$out" = "sonde trace: invalid system call 'nosuchcall'" ] || fail "unknown name: $rc $out"
out=$("$SONDE" trace -e trace=%nosuchclass -- true 2>&1); rc=$?
[ $rc = 1 ] && grep -q "invalid system call '%nosuchclass'" <<<"$out" || fail "unknown class: $out"
out=$("$SONDE" trace -p 999999999 2>&1); rc=$?
[ $rc = 1 ] && grep -q "no such process" <<<"$out" || fail "bad pid: $out"
# getopt's messages and the others say "sonde trace:"
out=$("$SONDE" trace --nosuchoption -- true 2>&1 | head -1)
[ "$out" = "sonde trace: unrecognized option '--nosuchoption'" ] || fail "getopt message: $out"
out=$("$SONDE" trace --event 'nosuchcat:*' -- true 2>&1); rc=$?
[ $rc = 1 ] && [ "$out" = "sonde trace: --event nosuchcat:*: no tracepoint matches" ] || fail "--event glob: $rc $out"
out=$("$SONDE" trace --event nocolon -- true 2>&1); rc=$?
[ $rc = 1 ] && grep -q "^sonde trace: --event takes CATEGORY:NAME" <<<"$out" || fail "--event: $rc $out"
out=$("$SONDE" trace -a -- true 2>&1); rc=$?
[ $rc = 1 ] && [ "$out" = "sonde trace: give a command, -p or -a, not two of them" ] || fail "-a and a command: $out"
out=$("$SONDE" trace -- /no/such/command 2>&1); rc=$?
[ $rc = 127 ] && grep -q "cannot run '/no/such/command'" <<<"$out" || fail "bad command: $rc $out"
# detachers of earlier runs may still be finishing: wait for the count to
# come back to (at most) where it was
for i in $(seq 50); do [ "$(links)" -le "$before" ] && break; sleep 0.1; done
[ "$(links)" -le "$before" ] || fail "links left attached: $(links) > $before"
# record, then report with filters and -c
"$SONDE" trace record -o "$tmp/rec" -- "$known" "$tmp/f"; rc=$?
[ $rc = 3 ] || fail "record exit status $rc"
"$SONDE" trace report -e trace=write "$tmp/rec" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc = 0 ] || { cat "$tmp/out"; fail "report status $rc"; }
grep -qxF 'write(3, "hello\tworld\n", 12)          = 12' "$tmp/out" || { cat "$tmp/out"; fail "report line"; }
! grep -q '^read(' "$tmp/out" || fail "report ignored -e"
[ ! -s "$tmp/err" ] || { cat "$tmp/err"; fail "report wrote to stderr (its output goes to stdout)"; }
"$SONDE" trace report -c "$tmp/rec" >"$tmp/out"
grep -qE ' 1 +1 connect$' "$tmp/out" || { cat "$tmp/out"; fail "report -c"; }
# damaged files
head -c 300 "$tmp/rec" > "$tmp/short"
"$SONDE" trace report "$tmp/short" 2>"$tmp/out"; rc=$?
[ $rc = 1 ] && grep -q truncated "$tmp/out" || { cat "$tmp/out"; fail "truncated file: $rc"; }
echo "not a trace" > "$tmp/foreign"
"$SONDE" trace report "$tmp/foreign" 2>"$tmp/out"; rc=$?
[ $rc = 1 ] && grep -q "not a sonde trace record file" "$tmp/out" || fail "foreign file"
# without privileges: one line naming what is missing
if command -v setpriv >/dev/null; then
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$SONDE" trace -- true 2>&1); rc=$?
	[ $rc = 1 ] && grep -q "CAP_BPF" <<<"$out" && [ "$(wc -l <<<"$out")" = 1 ] || fail "unprivileged: $rc $out"
fi
exit 0
