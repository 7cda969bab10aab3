#!/usr/bin/env bash
# -d ast / -d bpf print one of sonde's dumps; bpftrace's bare -d and -dd (its
# AST after each pass, then LLVM IR; sonde has no LLVM) print both: the AST,
# then the BPF instructions. None of them attaches anything or runs -c.
set -u
fail=0
prog='BEGIN { @x = 1; exit(); }'
ast=$("$SONDE" -d ast -e "$prog") || { echo "-d ast failed"; fail=1; }
bpf=$("$SONDE" -d bpf -e "$prog") || { echo "-d bpf failed"; fail=1; }
echo "$ast" | grep -q '^Program' || { echo "-d ast: no AST: $ast"; fail=1; }
echo "$bpf" | grep -q '^BEGIN:' || { echo "-d bpf: no BEGIN program: $bpf"; fail=1; }
both="$ast
$bpf"
for d in -d -dd; do
	got=$("$SONDE" $d -e "$prog") || { echo "$d failed"; fail=1; }
	[ "$got" == "$both" ] || { echo "$d: not the AST then the BPF dump:"; echo "$got" | head; fail=1; }
done
# a bare -d before a file name or -c: the word after it is not its argument
f=$(mktemp /tmp/sonde-dd.XXXXXX.bt); echo "$prog" > "$f"
got=$("$SONDE" -d "$f" | head -1)
[ "$got" == "Program" ] || { echo "-d FILE: $got"; fail=1; }
out=$("$SONDE" -dd -c 'touch /tmp/sonde-dd-ran' -e "$prog" >/dev/null; ls /tmp/sonde-dd-ran 2>/dev/null)
[ -z "$out" ] || { echo "-dd ran the -c command"; rm -f /tmp/sonde-dd-ran; fail=1; }
rm -f "$f"
exit $fail
