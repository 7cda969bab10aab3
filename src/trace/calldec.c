/* The calls decoded whole (calldec.h): one row each. */
#include "calldec.h"

#include <string.h>

static const CallDec rows[] = {
	/* arg2 is a value, a string or a place the call fills: up to 16
	 * bytes (a task's name); arg3 PR_SET_SECCOMP's struct sock_fprog,
	 * arg5 PR_SCHED_CORE_GET's cookie or PR_SET_VMA's name */
	{"prctl", {[1] = {CAP_UPTO, 0, 16}, [2] = {CAP_UPTO, 0, 16}, [4] = {CAP_UPTO, 0, 64}},
	 dec_prctl_args, dec_prctl_ret},
	/* the option's value (up to the end of its page: strace reads what
	 * the length asks for, and shows an address when that faults);
	 * getsockopt's length at the exit (4) and at the entry (5) */
	{"getsockopt", {[3] = {CAP_UPTO, 0, 64}, [4] = {CAP_FIXED, 0, 4}, [5] = {CAP_ENTRY, 4, 4}},
	 dec_getsockopt_args, NULL},
	{"setsockopt", {[3] = {CAP_UPTO, 0, 64}}, dec_setsockopt_args, NULL},
};

const CallDec *call_dec(const char *name)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!strcmp(rows[i].name, name))
			return &rows[i];
	return NULL;
}
