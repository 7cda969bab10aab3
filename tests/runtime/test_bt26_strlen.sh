#!/usr/bin/env bash
# bpftrace 0.26's strings (the default generation): str() keeps max_strlen
# bytes (1024 by default), and a string that fills them prints with
# str_trunc_trailer ("..") after it; strcontains() of such a string loads.
# SONDE_COMPAT=0.17 keeps 0.17's 64 bytes (63 characters and the NUL) and
# no trailer.
SONDE=${SONDE:-./sonde}
fail=0
bad() { printf '%s\n' "$*"; fail=1; }
unset SONDE_COMPAT BPFTRACE_MAX_STRLEN BPFTRACE_STR_TRUNC_TRAILER BPFTRACE_STRLEN
dir=$(mktemp -d /tmp/sl.XXXXXX) # short: max_strlen = 12 keeps "/tmp/sl." 
trap 'rm -rf "$dir"' EXIT
long="$dir/$(printf 'x%.0s' $(seq 1 150))"
: > "$long"
# the path `cat` opens, as the probe prints it (one line: the first open of it)
opened() {
	"$SONDE" -c "cat $long" -e "$1"'
		tracepoint:syscalls:sys_enter_openat /pid == cpid/ { printf("<%s>\n", str(args.filename)); }' \
		2>&1 | grep -m1 '^</tmp/sl\.'
}

out=$(opened '')
[ "$out" = "<$long>" ] || bad "default max_strlen keeps a ${#long}-byte path whole: $out"
out=$(opened 'config = { max_strlen = 16 }')
[ "$out" = "<${long:0:16}..>" ] || bad "max_strlen = 16: 16 bytes and '..': $out"
out=$(BPFTRACE_STR_TRUNC_TRAILER= opened 'config = { max_strlen = 16 }')
[ "$out" = "<${long:0:16}>" ] || bad "an empty trailer: $out"
out=$(BPFTRACE_MAX_STRLEN=20 BPFTRACE_STR_TRUNC_TRAILER=_cut opened '')
[ "$out" = "<${long:0:20}_cut>" ] || bad "BPFTRACE_MAX_STRLEN=20, trailer _cut: $out"

# a map key shows the trailer too; print() of the value as well
out=$("$SONDE" -c "cat $long" -e 'config = { max_strlen = 12 }
	tracepoint:syscalls:sys_enter_openat /pid == cpid/ { @[str(args.filename)] = count(); }' 2>&1)
grep -qxF "@[${long:0:12}..]: 1" <<<"$out" || bad "a map key: $out"

# strcontains() of a 1024-byte string: one start position per bpf_loop call
out=$("$SONDE" -c "cat $long" -e 'tracepoint:syscalls:sys_enter_openat /pid == cpid/ {
		if (strcontains(str(args.filename), "xxxxxxxxxx")) { printf("found\n"); } }' 2>&1)
grep -qx found <<<"$out" || bad "strcontains of a 1024-byte str(): $out"

# the other functions of strings at 1024 bytes load (the verifier follows
# their byte loops): == of two computed strings, strncmp, strlen, a copy
long1k="$dir/$(printf 'z%.0s' $(seq 1 250))/$(printf 'w%.0s' $(seq 1 250))/$(printf 'v%.0s' $(seq 1 250))/$(printf 'u%.0s' $(seq 1 250))"
out=$("$SONDE" -c "cat $long1k" -e 'tracepoint:syscalls:sys_enter_openat /pid == cpid/ {
		$a = str(args.filename); $b = str(args.filename); $c = $a;
		printf("eq=%d ne=%d ncmp=%d len=%d copy=%d\n", $a == $b, $a != comm, strncmp($a, $b, 1024),
		       strlen($a), $c == $a); }' 2>&1 | grep -m1 "^eq=.* len=${#long1k} ")
[ "$out" = "eq=1 ne=1 ncmp=0 len=${#long1k} copy=1" ] ||
	bad "==, !=, strncmp, strlen of ${#long1k}-byte strings: $out"

# 0.17: 64 bytes, the last the NUL, and no trailer
out=$(SONDE_COMPAT=0.17 "$SONDE" -c "cat $long" -e '
	tracepoint:syscalls:sys_enter_openat /pid == cpid/ { printf("<%s>\n", str(args.filename)); }' \
	2>&1 | grep -m1 '^</tmp/sl\.')
[ "$out" = "<${long:0:63}>" ] || bad "0.17 keeps 63 characters, no trailer: $out"

[ $fail = 0 ] && echo "test_bt26_strlen: ok"
exit $fail
