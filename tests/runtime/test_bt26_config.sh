#!/usr/bin/env bash
# bpftrace 0.26's config block and config variables (the default
# generation): names in any of their three forms, values checked by kind
# with 0.26's located errors, BPFTRACE_<NAME> winning over the block, and
# 0.17 (SONDE_COMPAT=0.17) knowing no config block.
SONDE=${SONDE:-./sonde}
fail=0
bad() { printf '%s\n' "$*"; fail=1; }
unset SONDE_COMPAT BPFTRACE_PRINT_MAPS_ON_EXIT BPFTRACE_MAX_PROBES
run() { "$SONDE" -e "$1" 2>&1; }

prog='begin { @["test"] = count(); }'
run "$prog" | grep -q '^@\[test\]: 1$' || bad "maps print by default"
out=$(run "config = { print_maps_on_exit=0 } $prog")
grep -q '@\[test\]' <<<"$out" && bad "print_maps_on_exit=0: $out"
for k in PRINT_MAPS_ON_EXIT BPFTRACE_PRINT_MAPS_ON_EXIT print_maps_on_exit; do
	out=$(run "config = { $k = 0; } $prog")
	grep -q '@\[test\]' <<<"$out" && bad "$k = 0: $out"
done
out=$(BPFTRACE_PRINT_MAPS_ON_EXIT=1 "$SONDE" -e "config = { print_maps_on_exit=0 } $prog" 2>&1)
grep -q '^@\[test\]: 1$' <<<"$out" || bad "the environment wins over the block: $out"
out=$(BPFTRACE_PRINT_MAPS_ON_EXIT=0 "$SONDE" -e "$prog" 2>&1)
grep -q '@\[test\]' <<<"$out" && bad "BPFTRACE_PRINT_MAPS_ON_EXIT=0: $out"

# errors, located in the script
out=$(run 'config = { bad_config=raw } begin {}'); rc=$?
[ $rc != 0 ] && grep -q '^stdin:1:12-26: ERROR: bad_config: not a known configuration option$' <<<"$out" ||
	bad "unknown variable ($rc): $out"
grep -qx '           ^~~~~~~~~~~~~~' <<<"$out" || bad "its caret: $out"
run 'config = { max_strlen = "x" } begin {}' | grep -q 'ERROR: Invalid type for max_strlen' ||
	bad "max_strlen = string"
run 'config = { missing_probes = "maybe" } begin {}' | grep -q 'Invalid value for missing_probes' ||
	bad "missing_probes = maybe"
run 'config = { print_maps_on_exit = 2 } begin {}' | grep -q 'Needs to be 0 or 1' || bad "bool 2"
run 'config = { btf = "x" } begin {}' | grep -q 'btf can only be set as an environment variable' ||
	bad "env-only btf"
out=$(run 'begin {} config = { max_strlen = 8 }')
grep -q 'ERROR' <<<"$out" || bad "a config block after a probe: $out"
out=$(BPFTRACE_MAX_STRLEN=x "$SONDE" -e 'begin {}' 2>&1)
grep -q "^ERROR: Env var 'BPFTRACE_MAX_STRLEN' did not contain a valid uint64_t$" <<<"$out" ||
	bad "BPFTRACE_MAX_STRLEN=x: $out"

# 0.17's names of renamed variables: 0.26's warning, and they still count
out=$(BPFTRACE_MAP_KEYS_MAX=1 "$SONDE" -e 'begin { @[1] = 1; @[2] = 2; exit(); }' 2>&1)
grep -q '^WARNING: BPFTRACE_MAP_KEYS_MAX is deprecated. Use BPFTRACE_MAX_MAP_KEYS instead.$' <<<"$out" &&
	[ "$(grep -c '^@\[' <<<"$out")" = 1 ] || bad "BPFTRACE_MAP_KEYS_MAX=1: $out"
out=$(BPFTRACE_CAT_BYTES_MAX=10 "$SONDE" -e 'begin { exit(); }' 2>&1)
grep -q '^WARNING: BPFTRACE_CAT_BYTES_MAX is deprecated. Use BPFTRACE_MAX_CAT_BYTES instead.$' <<<"$out" ||
	bad "BPFTRACE_CAT_BYTES_MAX: $out"
out=$(BPFTRACE_NO_CPP_DEMANGLE=1 "$SONDE" -e 'begin { exit(); }' 2>&1)
grep -q '^WARNING: BPFTRACE_NO_CPP_DEMANGLE is deprecated. Use BPFTRACE_CPP_DEMANGLE=0 instead.$' <<<"$out" ||
	bad "BPFTRACE_NO_CPP_DEMANGLE: $out"
out=$(SONDE_COMPAT=0.17 BPFTRACE_MAP_KEYS_MAX=1 BPFTRACE_NO_CPP_DEMANGLE=1 "$SONDE" -e 'BEGIN { exit(); }' 2>&1)
grep -q 'deprecated' <<<"$out" && bad "0.17 warned of its own BPFTRACE_MAP_KEYS_MAX/NO_CPP_DEMANGLE: $out"

# the limits take effect
out=$(run 'config = { max_probes = 1 } begin {} interval:s:1 {} interval:s:2 {}')
grep -q "Can't attach to 3 probes because it exceeds the current limit of 1 probes" <<<"$out" ||
	bad "max_probes = 1: $out"
out=$(run 'config = { license = "Dual BSD/GPL"; on_stack_limit = 0; log_size = 100 } begin { printf("ok\n"); }')
grep -q '^ok$' <<<"$out" || bad "accepted variables: $out"

# 0.17 has no config block
out=$(SONDE_COMPAT=0.17 "$SONDE" -e 'config = { max_strlen = 8 } BEGIN { exit(); }' 2>&1); rc=$?
[ $rc != 0 ] || bad "0.17 took a config block: $out"
exit $fail
