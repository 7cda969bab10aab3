#!/usr/bin/env bash
# bpftrace 0.26's write_user(dst, src, len): stdlib.md's example, an open
# redirected to another file by rewriting the path in the caller's memory
# (cat then prints the other file), only with --unsafe.  A kernel that is
# locked down (this project's VMs: CONFIG_LOCK_DOWN_KERNEL_FORCE_INTEGRITY)
# refuses bpf_probe_write_user to every program: sonde must say so in
# those words, and the write itself is then skipped.
SONDE=${SONDE:-./sonde}
fail=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
a=$dir/aaaa; b=$dir/bbbb
echo original > "$a"; echo redirected > "$b"
prog="tracepoint:syscalls:sys_enter_openat /pid == cpid && str(args.filename) == \"$a\"/ {
	printf(\"wrote %d\\n\", write_user(args.filename, \"$b\", ${#b} + 1));
}"
out=$("$SONDE" -e "$prog" -c "cat $a" 2>&1)
grep -q 'write_user() is an unsafe function being used in safe mode' <<<"$out" ||
	{ printf 'without --unsafe:\n%s\n' "$out"; fail=1; }
out=$(timeout 30 "$SONDE" --unsafe -e "$prog" -c "cat $a" 2>&1)
if grep -q 'cannot use helper bpf_probe_write_user' <<<"$out"; then
	grep -q 'the kernel refuses bpf_probe_write_user while it is locked down' <<<"$out" ||
		{ printf 'refused without the reason:\n%s\n' "$out"; fail=1; }
	echo "SKIP write: the kernel refuses bpf_probe_write_user (locked down)"
else
	grep -q '^wrote 1$' <<<"$out" && grep -q '^redirected$' <<<"$out" &&
		! grep -q '^original$' <<<"$out" || { printf 'write_user:\n%s\n' "$out"; fail=1; }
fi
out=$(SONDE_COMPAT=0.17 "$SONDE" --unsafe -e 'BEGIN { $x = 1; write_user(0, $x, 1); }' 2>&1)
grep -q 'Unknown function: write_user' <<<"$out" || { printf '0.17:\n%s\n' "$out"; fail=1; }
exit $fail
