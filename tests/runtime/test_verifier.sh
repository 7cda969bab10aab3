#!/usr/bin/env bash
# A program the kernel's verifier rejects: exit status 1, the probe and the
# reason in one line, the full log only with -v, and nothing attached.
SONDE=${SONDE:-./sonde}
prog='BEGIN { $i = 0; while ($i < 10) { @x = 1; } }'
out=$("$SONDE" -e "$prog" 2>&1); rc=$?
[ $rc = 1 ] || { echo "rc=$rc"; exit 1; }
[ "$(wc -l <<<"$out")" = 1 ] || { echo "more than one line without -v: $out"; exit 1; }
grep -q '^sonde: probe BEGIN: .*verifier rejected.*infinite loop' <<<"$out" || { echo "$out"; exit 1; }
grep -q Attaching <<<"$out" && { echo "attached"; exit 1; }
full=$("$SONDE" -v -e "$prog" 2>&1)
grep -q '^processed [0-9]* insns' <<<"$full" || { echo "no full log with -v"; exit 1; }
exit 0
