#!/bin/sh
# /init of the VM lane's initramfs: mount what sonde needs, run the
# kernel-probe tests as root, report one "KTEST ..." line each, power off.
export PATH=/bin:/sbin SONDE=/bin/sonde HOME=/root
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
# what udev links on an installed system (bash's process substitution opens /dev/fd/N)
ln -sf /proc/self/fd /dev/fd
mount -t tmpfs tmp /tmp
mount -t tmpfs run /run # as on Debian: sonde keeps kernel listings there
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t bpf bpf /sys/fs/bpf
ulimit -l unlimited
for a in $(cat /proc/cmdline); do
	case $a in
	sonde.only=*) ONLY=${a#sonde.only=} ;;
	sonde.bench=*) BENCH=${a#sonde.bench=} ;;
	sonde.rounds=*) BENCH_ROUNDS=${a#sonde.rounds=} ;;
	esac
done
export ONLY BENCH BENCH_ROUNDS
# a module for kprobe:MODULE:FUNCTION tests (creates dummy0)
insmod /lib/modules/*/dummy.ko
echo "KTEST kernel $(uname -r)"
cd /sonde/tests && sh ./run-guest.sh
echo "KTEST done"
sync
poweroff -f
