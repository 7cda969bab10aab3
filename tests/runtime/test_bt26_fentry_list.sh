#!/usr/bin/env bash
# bpftrace 0.26 lists the kernel's BTF functions under the names it gives
# kfunc/kretfunc: fentry:MODULE:NAME and fexit:MODULE:NAME, for each name
# and alias (fentry f kfunc, fexit fr kretfunc); -lv shows an fentry's
# parameters without retval, an fexit's with it (0.26's changelog: "Fix
# kfunc/fentry probe listing incorrectly showing a retval parameter").
# bpftrace's tests basic."regression for #4162" and "it lists fentry events
# with regex filter" run -l 'fentry:*'.  0.17 (test_kfunc.sh) is unchanged.
SONDE=${SONDE:-./sonde}
fail=0
. "$(dirname "$0")/lib.sh"
[ -r /sys/kernel/btf/vmlinux ] || { echo "no kernel BTF"; exit 77; }
unset SONDE_COMPAT
for t in fentry f kfunc; do
	check "-l $t:" "fentry:vmlinux:vfs_read" -l "$t:vfs_read"
done
for t in fexit fr kretfunc; do
	check "-l $t:" "fexit:vmlinux:vfs_read" -l "$t:vmlinux:vfs_read"
done
check "-lv fentry" "fentry:vmlinux:vfs_read
    struct file * file
    char * buf
    size_t count
    loff_t * pos" -lv 'fentry:vfs_read'
check "-lv fexit" "fexit:vmlinux:fget
    unsigned int fd
    struct file * retval" -lv 'fexit:vmlinux:fget'
n=$("$SONDE" -l 'fentry:*' | grep -cv '^fentry:')
[ "$n" = 0 ] || { echo "-l 'fentry:*' lists $n lines that are not fentry:"; fail=1; }
"$SONDE" -l 'fentry:*' | grep -qx 'fentry:vmlinux:vfs_read' || { echo "-l 'fentry:*' lacks vfs_read"; fail=1; }
out=$(SONDE_COMPAT=0.17 "$SONDE" -l 'kfunc:vfs_read' 2>&1)
[ "$out" = "kfunc:vmlinux:vfs_read" ] || { echo "0.17's kfunc listing: $out"; fail=1; }
exit $fail
