/* The -c command's process, stopped before its exec until the probes are
 * attached (runtime.h). */
#include "runtime.h"

#include "../util/proc.h"
#include "../util/util.h"

bool runtime_hold_child(char *const argv[], const char *fail_fmt, Options *opt, RunOpts *run)
{
	pid_t pid = argv[0] ? spawn_stopped(argv, fail_fmt) : -1;
	if (pid < 0)
		return false;
	opt->target.cmd = xstrdup(argv[0]);
	opt->cpid = pid;
	run->child_pid = pid;
	return true;
}
