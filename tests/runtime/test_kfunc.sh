#!/usr/bin/env bash
# kfunc/kretfunc (fentry/fexit) where they can be checked on any machine:
# -l/-lv list the kernel's BTF functions as bpftrace 0.17 does (parameters,
# then the return type as retval), aliases, and the error line for a
# kernel that refuses BPF trampolines (this development machine) or an
# unknown function.  Running probes are tested in the VM lane
# (tests/kernel/cases/kfunc_*, kretfunc_*).
SONDE=${SONDE:-./sonde}
fail=0
. "$(dirname "$0")/lib.sh"
[ -r /sys/kernel/btf/vmlinux ] || { echo "no kernel BTF"; exit 77; }
check "-lv" "kfunc:vmlinux:vfs_read
    struct file * file
    char * buf
    size_t count
    loff_t * pos
    ssize_t retval" -lv 'kfunc:vfs_read'
check "-lv module:func, pointer return" "kfunc:vmlinux:fget
    unsigned int fd
    struct file * retval" -lv 'f:vmlinux:fget'
check "-lv void" "kfunc:vmlinux:do_exit
    long int code" -lv 'kfunc:do_exit'
check "-l wildcard" "kfunc:vmlinux:vfs_read
kfunc:vmlinux:vfs_readlink
kfunc:vmlinux:vfs_readv" -l 'kfunc:vfs_read*'
check "-l other module" "" -l 'kfunc:nosuchmod:*'
# sonde -l lists kfuncs when the traceable functions are known (as bpftrace)
n=$("$SONDE" -l | grep -c '^kfunc:vmlinux:vfs_read$')
want=0; [ -r /sys/kernel/tracing/available_filter_functions ] && head -c1 /sys/kernel/tracing/available_filter_functions >/dev/null 2>&1 && want=1
[ "$n" = $want ] || { echo "sonde -l lists kfunc:vmlinux:vfs_read $n times, not $want"; fail=1; }

if "$SONDE" --info | grep -q '^  fentry/fexit (kfunc/kretfunc): no (the kernel refuses'; then
	for p in kfunc fentry kretfunc fexit; do
		got=$("$SONDE" -e "$p:vfs_read { @ = count(); }" 2>&1 | head -1)
		case $p in kfunc | fentry) n=kfunc ;; *) n=kretfunc ;; esac
		want="stdin:1:1-$((${#p} + 10)): ERROR: $n:vfs_read: this kernel does not allow kfunc/kretfunc (fentry/fexit): the kernel refuses BPF_PROG_TYPE_TRACING programs (Operation not permitted even for root: kernel lockdown or a security policy); use a tracepoint (sonde -l 'tracepoint:*') instead"
		[ "$got" == "$want" ] || { printf 'refused %s:\n%s\n' "$p" "$got"; fail=1; }
	done
	check "module, refused" "stdin:1:1-27: ERROR: kfunc:kvm:x86_emulate_insn: this kernel does not allow kfunc/kretfunc (fentry/fexit): the kernel refuses BPF_PROG_TYPE_TRACING programs (Operation not permitted even for root: kernel lockdown or a security policy); use a tracepoint (sonde -l 'tracepoint:*') instead
kfunc:kvm:x86_emulate_insn {}
^~~~~~~~~~~~~~~~~~~~~~~~~~" -e 'kfunc:kvm:x86_emulate_insn {}'
elif "$SONDE" --info | grep -q '^  fentry/fexit (kfunc/kretfunc): yes'; then
	check "no such function" "stdin:1:1-21: ERROR: kfunc:no_such_fn_xyz: no function 'no_such_fn_xyz' in the kernel's BTF (sonde -l 'kfunc:*' lists them)
kfunc:no_such_fn_xyz {}
^~~~~~~~~~~~~~~~~~~~" -e 'kfunc:no_such_fn_xyz {}'
	check "module not loaded" "stdin:1:1-31: ERROR: kfunc:no_such_module:some_fn: module 'no_such_module' is not loaded or has no BTF (/sys/kernel/btf/no_such_module)
kfunc:no_such_module:some_fn {}
^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~" -e 'kfunc:no_such_module:some_fn {}'
fi
exit $fail
