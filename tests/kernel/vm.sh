#!/usr/bin/env bash
# The VM lane: boots Debian 12's stock kernel (linux-image-amd64, fetched
# with apt-get download and unpacked with dpkg -x, never installed) under
# QEMU with an initramfs holding busybox, sonde and tests/kernel, runs the
# kernel-probe tests as root in the guest and prints "N passed, N failed".
#
# QEMU runs TCG single-threaded: /dev/kvm here is a nested hypervisor that
# cannot run a stock kernel, and multi-threaded TCG crashed guests while
# kprobes patched a function another vCPU ran.  The kernel boots through PVH
# from the ELF vmlinux inside the bzImage (no BIOS, no decompressor).
#
# Environment: VM_TIMEOUT (whole boot, s, default 270), VM_ONLY (a regex:
# run only the tests whose name matches), VM_SMP (vCPUs, default 2),
# VM_KEEP=1 (keep the initramfs tree), VM_BENCH=1 (also run bench/kprobe.sh).
set -u -o pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
VM=$ROOT/build/vm
SONDE=${SONDE:-$ROOT/sonde}
mkdir -p "$VM"

die() { echo "test-kernel: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

for t in qemu-system-x86_64 busybox xz dpkg apt-get; do
	command -v $t >/dev/null || die "needs $t (apt-get install qemu-system-x86 busybox-static xz-utils)"
done
[ -x "$SONDE" ] || die "no sonde binary at $SONDE (run make first)"

# --- the kernel: cached per package version under build/vm/kernel -------
kernel_fetch() {
	local pkg ver dir
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
	[ -n "$pkg" ] || die "apt-cache knows no linux-image-amd64 (run apt-get update)"
	ver=$(apt-cache policy "$pkg" | awk '/Candidate:/ {print $2}')
	dir=$VM/kernel/$pkg-$ver
	if [ ! -f "$dir/vmlinux" ]; then
		rm -rf "$dir" && mkdir -p "$dir/deb" || die "cannot create $dir"
		(cd "$dir/deb" && apt-get download "$pkg" >/dev/null 2>&1) || die "apt-get download $pkg failed"
		dpkg -x "$dir"/deb/*.deb "$dir/x" || die "dpkg -x failed"
		local z off
		z=$(ls "$dir"/x/boot/vmlinuz-*)
		# the ELF vmlinux is the xz stream after the bzImage's setup code
		off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$z" | head -1 | cut -d: -f1)
		[ -n "$off" ] || die "no xz payload in $z"
		tail -c +$((off + 1)) "$z" | xz -dc --single-stream > "$dir/vmlinux.tmp" 2>/dev/null
		[ "$(head -c 4 "$dir/vmlinux.tmp" | od -An -tx1 | tr -d ' ')" = 7f454c46 ] ||
			die "extracted vmlinux is not an ELF file"
		mv "$dir/vmlinux.tmp" "$dir/vmlinux"
		rm -rf "$dir/deb"
	fi
	KDIR=$dir
	KREL=$(ls "$dir/x/lib/modules")
}

# --- the initramfs --------------------------------------------------------
copy_with_libs() { # copy binaries and the shared libraries they load
	local f l
	for f in "$@"; do
		mkdir -p "$IR$(dirname "$f")"
		cp -L "$f" "$IR$f"
		for l in $(ldd "$f" 2>/dev/null | grep -oE '/[^ ]+'); do
			[ -e "$IR$l" ] && continue
			mkdir -p "$IR$(dirname "$l")"
			cp -L "$l" "$IR$l"
		done
	done
}

initramfs_build() {
	IR=$VM/root
	rm -rf "$IR"
	mkdir -p "$IR"/{bin,sbin,proc,sys,dev,tmp,etc,mnt,root,sonde}
	cp /bin/busybox "$IR/bin/busybox"
	for a in $("$IR/bin/busybox" --list); do [ "$a" = busybox ] || ln -sf busybox "$IR/bin/$a"; done
	copy_with_libs "$SONDE"
	cp -L "$SONDE" "$IR/bin/sonde"
	cp -r tests/kernel "$IR/sonde/tests"
	# bpftrace's own tools (.bt files only, from Debian's package)
	tools_fetch && cp -r "$VM/bpftrace-tools" "$IR/sonde/bpftrace-tools"
	[ -d bench ] && cp -r bench "$IR/sonde/bench"
	# a module to probe as kprobe:MODULE:FUNCTION (no dependencies)
	mkdir -p "$IR/lib/modules/$KREL"
	cp "$KDIR/x/lib/modules/$KREL/kernel/drivers/net/dummy.ko" "$IR/lib/modules/$KREL/"
	cp tests/kernel/guest-init.sh "$IR/init"
	chmod +x "$IR/init"
	echo "root:x:0:0:root:/root:/bin/sh" > "$IR/etc/passwd"
	(cd "$IR" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1) > "$VM/initramfs.cpio.gz" ||
		die "cannot pack the initramfs"
	[ "${VM_KEEP:-0}" = 1 ] || rm -rf "$IR"
}

tools_fetch() { # bpftrace's tools, from its Debian package, never installed
	[ -d "$VM/bpftrace-tools" ] && return 0
	local t=$VM/bpftrace-deb
	rm -rf "$t" && mkdir -p "$t"
	(cd "$t" && apt-get download bpftrace >/dev/null 2>&1) || { echo "test-kernel: apt-get download bpftrace failed (tools test will fail)" >&2; return 1; }
	dpkg -x "$t"/*.deb "$t/x"
	mkdir -p "$VM/bpftrace-tools"
	cp "$t"/x/usr/sbin/*.bt "$VM/bpftrace-tools/" 2>/dev/null ||
		cp "$(find "$t/x" -name '*.bt' | head -1 | xargs dirname)"/*.bt "$VM/bpftrace-tools/"
	rm -rf "$t"
}

kernel_fetch
initramfs_build

# --- boot -------------------------------------------------------------------
LOG=$VM/console.log
rm -f "$LOG"
start=$(date +%s)
timeout --foreground -k 5 "${VM_TIMEOUT:-270}" qemu-system-x86_64 \
	-accel tcg,thread=single -cpu max -smp "${VM_SMP:-2}" -m 1024 \
	-kernel "$KDIR/vmlinux" -initrd "$VM/initramfs.cpio.gz" \
	-append "console=ttyS0 panic=-1 quiet loglevel=3 sonde.only=${VM_ONLY:-} sonde.bench=${VM_BENCH:-0}" \
	-display none -serial "file:$LOG" -monitor none -no-reboot -nodefaults </dev/null
rc=$?
secs=$(( $(date +%s) - start ))
[ -f "$LOG" ] || die "qemu wrote no console log (exit $rc)"
tr -d '\r' < "$LOG" > "$LOG.txt"

# the guest prints one "KTEST pass|fail|skip NAME" line per test, then
# "KTEST done"; anything else is context (shown for failures)
grep -E '^(KTEST (fail|skip)|  )' "$LOG.txt" | grep -v '^KTEST pass' | head -200
pass=$(grep -c '^KTEST pass ' "$LOG.txt")
fail=$(grep -c '^KTEST fail ' "$LOG.txt")
skip=$(grep -c '^KTEST skip ' "$LOG.txt")
if ! grep -q '^KTEST done' "$LOG.txt"; then
	if [ $rc = 124 ] || [ $rc = 137 ]; then why="timed out after ${VM_TIMEOUT:-270} s"
	else why="qemu exited with $rc before the tests finished"; fi
	echo "test-kernel: the guest $why; console log tail ($LOG):"
	tail -40 "$LOG.txt"
	fail=$((fail + 1))
fi
grep '^FAILED:' "$LOG.txt"
echo "test-kernel: $KREL under TCG in ${secs} s"
if [ "$skip" -gt 0 ]; then echo "$pass passed, $fail failed, $skip skipped"; else echo "$pass passed, $fail failed"; fi
[ "$fail" = 0 ]
