# Shared by the guest's test scripts (busybox sh; sourced from tests/).

# kprobe_multi_kernel: 0 when sonde --info says the kernel has kprobe_multi
kprobe_multi_kernel() { sonde --info | grep -q 'kprobe_multi.*: yes'; }

# narrow_wildcard: a kprobe wildcard of 16 to 40 functions (from 16 on,
# kernels before 6.2 attach a group by address), for kernels without
# kprobe_multi, where each kprobe costs tens of ms of emulated time to
# attach and to remove; vfs_* (70-80) if none of these fits
narrow_wildcard() {
	local p c
	for p in 'vfs_*_*' 'ksys_*' 'vfs_*e*'; do
		c=$(sonde -l "kprobe:$p" | wc -l)
		[ "$c" -ge 16 ] && [ "$c" -le 40 ] && { echo "$p"; return; }
	done
	echo 'vfs_*'
}
