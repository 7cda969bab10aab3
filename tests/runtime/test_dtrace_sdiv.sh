#!/usr/bin/env bash
# D's signed / and % without the kernel's BPF_SDIV/BPF_SMOD (Linux < 6.6):
# SONDE_BPF_SDIV=0 makes sonde emit its sign-fixing sequence around
# unsigned division; tests/dtrace/tst.sdiv.d must print the same, and -S
# must show that no signed division instruction was emitted.
set -u
cd "$(dirname "$0")/../dtrace"
SONDE=${SONDE:-$PWD/../../sonde}
out=$(SONDE_BPF_SDIV=0 "$SONDE" dtrace -q -s tst.sdiv.d 2>&1)
[ "$out" == "$(cat tst.sdiv.d.out)" ] ||
	{ printf -- '--- want\n%s\n--- got\n%s\n' "$(cat tst.sdiv.d.out)" "$out"; exit 1; }
bpf=$(SONDE_BPF_SDIV=0 "$SONDE" dtrace -q -S -n 'BEGIN { x = -7; printf("%d", x / 2); exit(0); }' 2>&1)
grep -q 's/=' <<<"$bpf" && { echo "signed division emitted without the kernel's support"; exit 1; }
grep -q '/=' <<<"$bpf" || { echo "no division in -S output:"; echo "$bpf" | head; exit 1; }
exit 0
