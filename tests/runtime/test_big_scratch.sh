#!/usr/bin/env bash
# Values placed after a 64 KiB string in the scratch buffer lie beyond the
# 16-bit offset of a BPF instruction: they must still read and write right.
set -u
cd "$(dirname "$0")/../.."
SONDE=${SONDE:-$PWD/sonde}
out=$(BPFTRACE_STRLEN=65536 "$SONDE" -e 'BEGIN { $a = str($1); $b = str($2); $c = "tail";
  printf("%s %s %d %s\n", $a, $b, $c == "tail", $c); @m[$c] = 5; exit(); }' hello world 2>&1)
want='Attaching 1 probe...
hello world 1 tail


@m[tail]: 5'
[ "$out" == "$want" ] || { printf -- '--- want\n%s\n--- got\n%s\n' "$want" "$out"; exit 1; }
exit 0
