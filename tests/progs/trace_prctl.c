/* prctl options for the differential test against strace: each decodes
 * its arguments its own way (names, values, flags, what the call fills
 * in, its return).  Every call fails harmlessly or changes nothing that
 * matters (this process's name, its unused bounding-set bit read only). */
#define _GNU_SOURCE
#include <linux/capability.h>
#include <linux/prctl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	syscall(SYS_prctl, 0xffffffffu, 0xfffffffeu, 0xfffffffdu, 0xfffffffcu, 0xfffffffbu);
	syscall(SYS_prctl, PR_CAPBSET_READ, CAP_NET_RAW, 0, 0, 0);
	syscall(SYS_prctl, PR_CAPBSET_READ, 0xff, 0, 0, 0);
	syscall(SYS_prctl, PR_SET_DUMPABLE, 0xdeadc0de00000003ul, 0, 0, 0);
	syscall(SYS_prctl, PR_GET_DUMPABLE, 0, 0, 0, 0);
	syscall(SYS_prctl, PR_MCE_KILL, PR_MCE_KILL_SET, 0xff, 0, 0);
	syscall(SYS_prctl, PR_MCE_KILL_GET, 0, 0, 0, 0);
	syscall(SYS_prctl, PR_SET_NAME, "trace-prctl-long-name", 0, 0, 0);
	syscall(SYS_prctl, PR_SET_NAME, "trace_prctl", 0, 0, 0);
	char name[16];
	syscall(SYS_prctl, PR_GET_NAME, name, 0, 0, 0);
	int v = -1;
	syscall(SYS_prctl, PR_SET_PDEATHSIG, 0, 0, 0, 0);
	syscall(SYS_prctl, PR_GET_PDEATHSIG, &v, 0, 0, 0);
	syscall(SYS_prctl, PR_GET_PDEATHSIG, NULL, 0, 0, 0);
	syscall(SYS_prctl, PR_GET_TSC, &v, 0, 0, 0);
	syscall(SYS_prctl, PR_GET_UNALIGN, &v, 0, 0, 0);
	syscall(SYS_prctl, PR_SET_UNALIGN, PR_UNALIGN_NOPRINT | 0xff00, 0, 0, 0);
	syscall(SYS_prctl, PR_GET_SECUREBITS, 0, 0, 0, 0);
	syscall(SYS_prctl, PR_GET_SPECULATION_CTRL, PR_SPEC_STORE_BYPASS, 0, 0, 0);
	syscall(SYS_prctl, PR_SET_TAGGED_ADDR_CTRL, PR_TAGGED_ADDR_ENABLE | PR_MTE_TCF_ASYNC | 0xcafe << 3,
		1, 2, 3);
	syscall(SYS_prctl, PR_PAC_RESET_KEYS, PR_PAC_APIBKEY | PR_PAC_APGAKEY | 0x100, 1, 2, 3);
	uint64_t cookie;
	syscall(SYS_prctl, PR_SCHED_CORE, PR_SCHED_CORE_GET, 0, 0, &cookie);
	syscall(SYS_prctl, PR_SET_SECCOMP, 0xff, 1, 2, 3);
	syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 0, 1, 2, 3);
	syscall(SYS_prctl, PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
	return 0;
}
