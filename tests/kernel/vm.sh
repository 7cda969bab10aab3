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
# Environment: VM_TIMEOUT (one boot, s, default 900), VM_ONLY (a regex:
# run only the tests whose name matches), VM_SMP (vCPUs, default 2),
# VM_KEEP=1 (keep the initramfs tree), VM_BENCH=1 (also run bench/kprobe.sh),
# SONDE (the binary to test; make test-kernel passes its static build),
# SONDE_BASELINE (VM_BENCH=1: an earlier build, benchmarked beside it),
# VM_QEMU_ARGS (more QEMU options: "-icount shift=3" makes guest time count
# instructions, not the host's clock, to compare builds on a loaded host).
set -u -o pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
VM=${VM_DIR:-$ROOT/build/vm}
SONDE=${SONDE:-$ROOT/sonde}
mkdir -p "$VM"

die() { echo "test-kernel: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

for t in qemu-system-x86_64 busybox xz zstd dpkg apt-get; do
	command -v $t >/dev/null || die "needs $t (apt-get install qemu-system-x86 busybox-static xz-utils zstd)"
done
[ -x "$SONDE" ] || die "no sonde binary at $SONDE (run make first)"

# --- the kernel: cached per package version under build/vm/kernel -------
# The ELF vmlinux is the compressed stream after the bzImage's setup code:
# xz in 6.1's package, zstd in 6.12's.
vmlinux_extract() { # bzImage out
	local off
	off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$1" | head -1 | cut -d: -f1)
	if [ -n "$off" ]; then
		tail -c +$((off + 1)) "$1" | xz -dc --single-stream > "$2" 2>/dev/null
	else
		off=$(LC_ALL=C grep -obUaP '\x28\xb5\x2f\xfd' "$1" | head -1 | cut -d: -f1)
		[ -n "$off" ] || die "no xz or zstd payload in $1"
		tail -c +$((off + 1)) "$1" | zstd -dcq > "$2" 2>/dev/null
	fi
	[ "$(head -c 4 "$2" | od -An -tx1 | tr -d ' ')" = 7f454c46 ] || die "vmlinux from $1 is not an ELF file"
}

kernel_fetch() { # metapackage (linux-image-amd64: Debian 12's stock kernel)
	local pkg ver dir
	pkg=$(apt-cache depends "$1" 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
	[ -n "$pkg" ] || die "apt-cache knows no $1 (run apt-get update)"
	ver=$(apt-cache policy "$pkg" | awk '/Candidate:/ {print $2}')
	dir=$VM/kernel/$pkg-$ver
	if [ ! -f "$dir/vmlinux" ]; then
		rm -rf "$dir" && mkdir -p "$dir/deb" || die "cannot create $dir"
		(cd "$dir/deb" && apt-get download "$pkg" >/dev/null 2>&1) || die "apt-get download $pkg failed"
		dpkg -x "$dir"/deb/*.deb "$dir/x" || die "dpkg -x failed"
		vmlinux_extract "$(ls "$dir"/x/boot/vmlinuz-*)" "$dir/vmlinux.tmp"
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
	IR=$VM/root-$KREL
	rm -rf "$IR"
	mkdir -p "$IR"/{bin,sbin,proc,sys,dev,tmp,run,etc,mnt,root,sonde}
	cp /bin/busybox "$IR/bin/busybox"
	for a in $("$IR/bin/busybox" --list); do [ "$a" = busybox ] || ln -sf busybox "$IR/bin/$a"; done
	copy_with_libs "$SONDE"
	cp -L "$SONDE" "$IR/bin/sonde"
	# the benchmark's earlier build to compare with (bench/kprobe.sh BASELINE)
	[ -n "${SONDE_BASELINE:-}" ] && cp -L "$SONDE_BASELINE" "$IR/bin/sonde-baseline"
	cp -r tests/kernel "$IR/sonde/tests"
	# bpftrace's own tools (.bt files only, from Debian's package)
	[ -d "$VM/bpftrace-tools" ] && cp -r "$VM/bpftrace-tools" "$IR/sonde/bpftrace-tools"
	[ -d bench ] && cp -r bench "$IR/sonde/bench"
	# what bpftrace's tools need besides sonde: bash (bashreadline), libssl
	# (ssllatency, sslsnoop), libpthread (threadsnoop) and the C headers
	# they include (linux-libc-dev, libc6-dev)
	copy_with_libs /bin/bash
	for l in libssl.so.3 libpthread.so.0; do
		[ -e "/lib/x86_64-linux-gnu/$l" ] && copy_with_libs "/lib/x86_64-linux-gnu/$l"
	done
	mkdir -p "$IR/usr/include"
	cp -r /usr/include/*.h /usr/include/linux /usr/include/asm-generic /usr/include/x86_64-linux-gnu \
		"$IR/usr/include/" 2>/dev/null
	# a module to probe as kprobe:MODULE:FUNCTION (no dependencies)
	mkdir -p "$IR/lib/modules/$KREL"
	local m=$KDIR/x/lib/modules/$KREL/kernel/drivers/net/dummy.ko
	if [ -f "$m" ]; then cp "$m" "$IR/lib/modules/$KREL/"
	else xz -dc "$m.xz" > "$IR/lib/modules/$KREL/dummy.ko"; fi
	# the benchmark compares with bpftrace: the binary and its ~200 MB of
	# libraries (LLVM, clang), only then
	[ "${VM_BENCH:-0}" = 1 ] && command -v bpftrace >/dev/null && copy_with_libs "$(command -v bpftrace)"
	# VM_EXTRA: more host binaries for the guest (e.g. strace, to see where time goes)
	[ -n "${VM_EXTRA:-}" ] && copy_with_libs $VM_EXTRA
	# the dynamic loader's cache, as an installed system has it: without it
	# ld.so tries a dozen directories per library, each a slow system call
	# under emulation (tens of ms at every start of sonde and of bpftrace)
	cp -r /etc/ld.so.conf /etc/ld.so.conf.d "$IR/etc/" 2>/dev/null
	ldconfig -r "$IR" 2>/dev/null
	cp tests/kernel/guest-init.sh "$IR/init"
	chmod +x "$IR/init"
	echo "root:x:0:0:root:/root:/bin/sh" > "$IR/etc/passwd"
	(cd "$IR" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1) > "$VM/initramfs-$KREL.cpio.gz" ||
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

# --- boot each kernel, count its tests ---------------------------------------
boot() { # only-regex (KDIR, KREL: the kernel); prints the lane's report and
	 # last "COUNTS pass fail skip"
	initramfs_build
	LOG=$VM/console-$KREL.log
	rm -f "$LOG"
	local start rc secs p f s why
	start=$(date +%s)
	# no_timer_check: on a loaded host the emulated CPU can be starved while
	# the kernel checks the IO-APIC timer at boot ("IO-APIC + timer doesn't
	# work!", a panic seen at load average 47)
	timeout --foreground -k 5 "${VM_TIMEOUT:-900}" qemu-system-x86_64 \
		-accel tcg,thread=single ${VM_QEMU_ARGS:-} -cpu max -smp "${VM_SMP:-2}" -m "${VM_MEM:-2048}" \
		-kernel "$KDIR/vmlinux" -initrd "$VM/initramfs-$KREL.cpio.gz" \
		-append "console=ttyS0 panic=-1 quiet loglevel=3 no_timer_check sonde.only=$1 sonde.bench=${VM_BENCH:-0} sonde.rounds=${BENCH_ROUNDS:-3}" \
		-display none -serial "file:$LOG" -monitor none -no-reboot -nodefaults </dev/null
	rc=$?
	secs=$(($(date +%s) - start))
	[ -f "$LOG" ] || { echo "test-kernel: qemu wrote no console log (exit $rc)"; echo "COUNTS 0 1 0"; return; }
	tr -d '\r' < "$LOG" > "$LOG.txt"
	# the guest prints one "KTEST pass|fail|skip NAME" line per test, then
	# "KTEST done"; indented lines are a failure's details
	grep -E '^(KTEST (fail|skip)|  )' "$LOG.txt" | sed "s/^KTEST /KTEST [$KREL] /" | head -200
	p=$(grep -c '^KTEST pass ' "$LOG.txt")
	f=$(grep -c '^KTEST fail ' "$LOG.txt")
	s=$(grep -c '^KTEST skip ' "$LOG.txt")
	if ! grep -q '^KTEST done' "$LOG.txt"; then
		if [ $rc = 124 ] || [ $rc = 137 ]; then why="timed out after ${VM_TIMEOUT:-900} s"
		else why="qemu exited with $rc before the tests finished"; fi
		echo "test-kernel: the $KREL guest $why; console log tail ($LOG):"
		tail -40 "$LOG.txt"
		f=$((f + 1))
	fi
	echo "test-kernel: $KREL under TCG in ${secs} s: $p passed, $f failed"
	echo "COUNTS $p $f $s"
}

# Debian 12's stock kernel (6.1: no kprobe_multi, so wildcards attach one
# kprobe each) runs everything; its 6.12 kernel (also a Debian 12 package,
# with kprobe_multi) runs the wildcard tests again through one link, and a few
# more whose kernel side changed (offsets after endbr64, modules, skboutput's perf buffer).
if [ -n "${VM_KERNELS:-}" ]; then kernels=$VM_KERNELS
else kernels="linux-image-amd64=${VM_ONLY:-} linux-image-6.12-amd64=${VM_ONLY:-wildcard|multi|offset|module|retval|sdiv|skboutput}"; fi
# Fetch first (apt-get, one at a time), then boot.  Each guest is one
# emulation thread (TCG single-threaded), so with two or more host CPUs the
# kernels boot side by side (VM_PARALLEL=0: one after the other).
tools_fetch
n=0
for k in $kernels; do
	kernel_fetch "${k%%=*}"
	kdir[n]=$KDIR krel[n]=$KREL only[n]=${k#*=}
	n=$((n + 1))
done
parallel=${VM_PARALLEL:-$([ "$(nproc)" -ge 2 ] && echo 1 || echo 0)}
for ((i = 0; i < n; i++)); do
	if [ "$parallel" = 1 ]; then
		(KDIR=${kdir[i]} KREL=${krel[i]} boot "${only[i]}") > "$VM/lane-$i.out" 2>&1 &
	else
		(KDIR=${kdir[i]} KREL=${krel[i]} boot "${only[i]}") > "$VM/lane-$i.out" 2>&1
	fi
done
wait
pass=0 fail=0 skip=0
for ((i = 0; i < n; i++)); do
	grep -v '^COUNTS ' "$VM/lane-$i.out"
	read -r _ p f s < <(grep '^COUNTS ' "$VM/lane-$i.out" | tail -1)
	[ -n "${p:-}" ] || { echo "test-kernel: the ${krel[i]} lane reported nothing"; p=0 f=1 s=0; }
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
done
if [ "$skip" -gt 0 ]; then echo "$pass passed, $fail failed, $skip skipped"; else echo "$pass passed, $fail failed"; fi
[ "$fail" = 0 ]
