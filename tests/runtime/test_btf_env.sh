#!/usr/bin/env bash
# BPFTRACE_BTF: kernel types come from that BTF file (as bpftrace 0.17);
# BPFTRACE_VMLINUX: when the kernel has no /sys/kernel/btf/vmlinux, from the
# .BTF section of that vmlinux ELF. build/progs/mkbtf writes a BTF file with
# a struct no kernel has (struct sonde_btf_probe, 24 bytes).
export SONDE_COMPAT=0.17 # compared with bpftrace 0.17: sonde speaks its generation
set -u
fail=0
tmp=$(mktemp -d /tmp/sonde-btf.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
./build/progs/mkbtf "$tmp/t.btf" || { echo "mkbtf failed"; exit 1; }
prog='BEGIN { printf("%d\n", sizeof(struct sonde_btf_probe)); exit(); }'
want="Attaching 1 probe...
24"
got=$(BPFTRACE_BTF=$tmp/t.btf timeout 30 "$SONDE" -e "$prog" 2>&1)
[ "$got" == "$want" ] || { echo "BPFTRACE_BTF: got [$got]"; fail=1; }
if command -v bpftrace >/dev/null; then
	ref=$(BPFTRACE_BTF=$tmp/t.btf timeout 30 bpftrace -e "$prog" 2>&1 | grep -v RLIMIT_MEMLOCK)
	[ "$got" == "$ref" ] || { echo "BPFTRACE_BTF: bpftrace printed [$ref]"; fail=1; }
fi
# the kernel's own BTF has no such struct
got=$(timeout 30 "$SONDE" -e "$prog" 2>&1 | head -1)
case $got in *"unknown type 'struct sonde_btf_probe'"*) ;; *) echo "no BPFTRACE_BTF: [$got]"; fail=1 ;; esac
# a file that is not there is named (bpftrace 0.17 crashes on it)
got=$(BPFTRACE_BTF=$tmp/none timeout 30 "$SONDE" -e "$prog" 2>&1 | head -1)
case $got in *"cannot read BTF from BPFTRACE_BTF=$tmp/none: No such file or directory"*) ;;
*) echo "missing BPFTRACE_BTF file: [$got]"; fail=1 ;; esac
# BPFTRACE_VMLINUX: hide the kernel's BTF in a mount namespace
if command -v objcopy >/dev/null && unshare -m true 2>/dev/null; then
	objcopy --add-section .BTF="$tmp/t.btf" /bin/true "$tmp/vmlinux"
	got=$(BPFTRACE_VMLINUX=$tmp/vmlinux timeout 30 unshare -m sh -c \
		'mount -t tmpfs none /sys/kernel/btf && exec "$0" -e "$1"' "$SONDE" "$prog" 2>&1)
	[ "$got" == "$want" ] || { echo "BPFTRACE_VMLINUX: got [$got]"; fail=1; }
else
	echo "note: no objcopy or mount namespaces: BPFTRACE_VMLINUX not tested"
fi
exit $fail
