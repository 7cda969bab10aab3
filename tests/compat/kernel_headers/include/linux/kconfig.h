/* bpftrace force-includes the kernel tree's linux/kconfig.h: it must exist */
