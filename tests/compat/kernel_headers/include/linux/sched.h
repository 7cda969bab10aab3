/* A stand-in for a kernel tree's own include/linux/sched.h (not the UAPI
 * header of /usr/include): task states as object-like macros, one defined
 * through others.  Used with BPFTRACE_KERNEL_SOURCE by the compat case
 * kernel_header_define and by test_bpftrace_tools.sh (runqlat.bt). */
#ifndef _TEST_LINUX_SCHED_H
#define _TEST_LINUX_SCHED_H
#define TASK_RUNNING			0x00000000
#define TASK_INTERRUPTIBLE		0x00000001
#define TASK_UNINTERRUPTIBLE		0x00000002
#define TASK_WAKEKILL			0x00000100
#define TASK_KILLABLE			(TASK_WAKEKILL | TASK_UNINTERRUPTIBLE)
#endif
