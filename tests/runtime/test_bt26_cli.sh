#!/usr/bin/env bash
# bpftrace 0.26's command line (the default generation), each beside 0.17's
# (SONDE_COMPAT=0.17): long options, --dry-run, --probe-filter, --mode
# codegen, -d STAGE, -k's single level, -p's checks, -V and -h on stdout.
SONDE=${SONDE:-./sonde}
fail=0
bad() { printf '%s\n' "$*"; fail=1; }
t=$(mktemp -d /tmp/sonde-bt26-cli.XXXXXX)
trap 'rm -rf "$t"' EXIT
unset SONDE_COMPAT

"$SONDE" --version | grep -q '^bpftrace v0\.26\.1 (sonde v' || bad "--version: $("$SONDE" --version)"
SONDE_COMPAT=0.17 "$SONDE" -V | grep -q '^sonde v' || bad "0.17 -V"
"$SONDE" --help 2>/dev/null | grep -q -- '--dry-run' || bad "--help on stdout lists --dry-run"

# long options are the short ones
out=$("$SONDE" --quiet --output "$t/o" -e 'begin { printf("SUCCESS\n"); exit(); }' 2>&1)
[ -z "$out" ] && grep -q '^SUCCESS$' "$t/o" || bad "--quiet --output: '$out' / $(cat "$t/o")"
out=$("$SONDE" --cmd 'true' -e 'begin { printf("cpid %d\n", cpid > 0); }' 2>/dev/null)
grep -q '^cpid 1$' <<<"$out" || bad "--cmd: $out"
out=$(SONDE_COMPAT=0.17 "$SONDE" --cmd true -e 'BEGIN { exit(); }' 2>&1)
grep -q "unrecognized option '--cmd'" <<<"$out" || bad "0.17 knows no --cmd: $out"

# --dry-run attaches, runs nothing, prints no maps
out=$("$SONDE" --dry-run -e 'begin { printf("hello\n"); @ = 0; }' 2>&1); rc=$?
[ $rc = 0 ] && grep -q 'Attached 1 probe' <<<"$out" && ! grep -q 'hello\|@:' <<<"$out" ||
	bad "--dry-run ($rc): $out"

# --probe-filter: only matching probes, begin/end kept; none matching fails
prog='begin { printf("begin\n"); } interval:ms:100 { printf("bad\n"); exit(); }
interval:ms:20 { printf("hit\n"); exit(); } end { printf("end\n"); }'
out=$("$SONDE" --probe-filter ':20$' -e "$prog" 2>/dev/null)
[ "$(grep -v '^$' <<<"$out" | tr '\n' ' ')" = "begin hit end " ] || bad "--probe-filter: $out"
out=$("$SONDE" --probe-filter 'kprobe' -e "$prog" 2>&1); rc=$?
[ $rc != 0 ] && grep -q 'No probes matched the probe filter' <<<"$out" || bad "filter, none: $out"

# --mode codegen compiles and loads nothing; an unknown mode is refused
out=$("$SONDE" --mode codegen -e 'begin { printf("x\n"); }' 2>&1); rc=$?
[ $rc = 0 ] && [ -z "$out" ] || bad "--mode codegen ($rc): $out"
"$SONDE" --mode nope -e 'begin {}' 2>&1 | grep -q "USAGE: --mode can only be" || bad "--mode nope"

# -d STAGE[,STAGE]
"$SONDE" -d dis -e 'begin { exit(); }' | grep -q '(bf) r6 = r1' || bad "-d dis"
out=$("$SONDE" -d ast,dis -e 'begin { exit(); }'); grep -q '^Program' <<<"$out" && grep -q 'r6 = r1' <<<"$out" || bad "-d ast,dis"
"$SONDE" -d nope -e 'begin {}' 2>&1 | grep -q 'USAGE: invalid option for -d: nope' || bad "-d nope"

# -k is one level in 0.26
"$SONDE" -kk -e 'begin {}' 2>&1 | grep -q -- '-kk has been deprecated' || bad "-kk"
"$SONDE" --no-warnings -k -e 'begin {}' 2>&1 | grep -q 'conflicts with --no-warnings' || bad "-k --no-warnings"

# -p
"$SONDE" -p 5000000 -e 'begin {}' 2>&1 | grep -q '^ERROR: Pid out of range: 5000000$' || bad "-p range"
"$SONDE" -p 1 -c true -e 'begin {}' 2>&1 | grep -q 'Cannot use both -c and -p' || bad "-p and -c"
SONDE_COMPAT=0.17 "$SONDE" -p 5000000 -e 'BEGIN {}' 2>&1 | grep -q 'out of valid pid range' || bad "0.17 -p"

# --no-feature is checked
"$SONDE" --no-feature nope -e 'begin {}' 2>&1 | grep -q 'USAGE: --no-feature can only have' || bad "--no-feature"
exit $fail
