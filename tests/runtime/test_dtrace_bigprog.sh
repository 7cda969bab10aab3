#!/usr/bin/env bash
# sonde dtrace compiles programs of thousands of clauses (the compiler's
# name lookups are indexed, not searched: bench/dtrace.sh --compile times
# them): 3000 syscall clauses and 3000 clauses with a global and an
# aggregation each compile (-e); 200 of the latter run (each clause is a BPF
# program the kernel verifies: more would only time the verifier) and count
# exactly.
set -u
cd "$(dirname "$0")"
SONDE=${SONDE:-$PWD/../../sonde}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((i = 0; i < 3000; i++)); do echo "syscall::read:entry { @[1] = count(); }"; done >"$tmp/a.d"
out=$(timeout 100 "$SONDE" dtrace -e -s "$tmp/a.d" 2>&1)
[ "$out" == "dtrace: script '$tmp/a.d' matched 3000 probes" ] || { echo "3000 clauses: $out" | head -5; exit 1; }
clauses() { # N: N clauses, then the checks
	for ((i = 0; i < $1; i++)); do echo "BEGIN { x$i = $i; @a$i = sum($i); n++; }"; done
	echo "BEGIN { printf(\"%d %d %d\\n\", n, x0 + x$(($1 - 1)), x123); exit(0); }"
	echo "END { printa(\"%@d\\n\", @a$(($1 - 1))); }"
}
clauses 3000 >"$tmp/c.d"
out=$(timeout 100 "$SONDE" dtrace -e -s "$tmp/c.d" 2>&1)
[ "$out" == "dtrace: script '$tmp/c.d' matched 3002 probes" ] || { echo "3000 globals: $out" | head -5; exit 1; }
clauses 200 >"$tmp/b.d"
want="200 199 123"
got=$(timeout 100 "$SONDE" dtrace -q -s "$tmp/b.d" 2>&1)
grep -qx "$want" <<<"$got" || { echo "200 clauses run: expected '$want' in:"; head -5 <<<"$got"; exit 1; }
grep -qx "199" <<<"$got" || { echo "printa of @a199 missing:"; head -5 <<<"$got"; exit 1; }
exit 0
