/* The -c command's process, held until the probes are attached (runtime.h). */
#include "runtime.h"

#include "../util/proc.h"
#include "../util/util.h"

bool runtime_hold_child(char *const argv[], const char *fail_fmt, Options *opt, RunOpts *run)
{
	int go_fd;
	pid_t pid = argv[0] ? spawn_held(NULL, argv, -1, fail_fmt, &go_fd) : -1;
	if (pid < 0)
		return false;
	opt->target.cmd = xstrdup(argv[0]);
	opt->cpid = pid;
	run->child_pid = pid;
	run->child_go_fd = go_fd;
	return true;
}
