#!/usr/bin/env bash
# sonde dtrace: a run-time fault's "BPF pc" is the index of the BPF
# instruction that detected it, as `dtrace -S` numbers the program: the
# failed helper call for a read, the test of the divisor for a division.
# dt_clause_N is the clause's number, from 0.
SONDE=${SONDE:-./sonde}
check() { # what program-text expected-instruction-pattern
	local out off
	out=$(timeout 30 "$SONDE" dtrace -S -q -n "$2" -n 'BEGIN { exit(0); }' 2>&1)
	off=$(grep -oE 'error in dt_clause_0 for probe ID 1 \(dtrace:::BEGIN\): .* at BPF pc [0-9]+' \
		<<<"$out" | grep -oE '[0-9]+$')
	[ -n "$off" ] || { echo "$1: no fault reported:"; echo "$out" | tail -5; exit 1; }
	# the first program's listing ends where the second's heading starts
	awk '/^BEGIN:/ { n++ } n == 1' <<<"$out" | grep -qE "^ *$off: $3" ||
		{ echo "$1: instruction $off is not $3:"; echo "$out" | grep -E "^ *$off: "; exit 1; }
}
check read 'BEGIN { trace(*(int *)8); }' '\(85\) call bpf_probe_read_kernel'
check copyinstr 'BEGIN { trace(copyinstr(0)); }' '\(85\) call bpf_probe_read_user_str'
check divide 'BEGIN { x = 0; trace(1 / x); }' '\(15\) if r0 == 0x0 goto'
echo "fault offsets name the faulting instruction: ok"
