#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* the child's last step: argv run from path (NULL: argv[0] searched in
 * $PATH), else fail_fmt's message (with argv[0] and the reason) and 127 */
static _Noreturn void exec_or_exit(const char *path, char *const argv[], const char *fail_fmt)
{
	if (path)
		execv(path, argv);
	else
		execvp(argv[0], argv);
	fprintf(stderr, fail_fmt, argv[0], strerror(errno));
	_exit(127);
}

pid_t spawn_held(const char *path, char *const argv[], int hold_fd, const char *fail_fmt,
		 int *go_fd)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		char b;
		if (hold_fd >= 0 && read(hold_fd, &b, 1) != 1)
			_exit(127);
		close(p[1]); /* so that the read ends if the parent goes */
		if (read(p[0], &b, 1) != 1)
			_exit(127);
		exec_or_exit(path, argv, fail_fmt);
	}
	close(p[0]);
	*go_fd = p[1];
	return pid;
}

/* as execvp searches: a name with a slash as it is, else the first
 * executable file of that name in $PATH; NULL when there is none */
static char *path_lookup(const char *cmd)
{
	if (strchr(cmd, '/'))
		return strdup(cmd);
	const char *path = getenv("PATH");
	char *dirs = strdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	char *found = NULL, *save = NULL;
	for (char *d = dirs ? strtok_r(dirs, ":", &save) : NULL; d && !found;
	     d = strtok_r(NULL, ":", &save)) {
		char full[4096];
		snprintf(full, sizeof(full), "%s/%s", d, cmd);
		if (access(full, X_OK) == 0)
			found = strdup(full);
	}
	free(dirs);
	return found;
}

static void child_stop_then_exec(const char *path, char *const argv[], const char *fail_fmt,
				 pid_t parent)
{
	/* a stopped process does not act on SIGTERM: only SIGKILL ends it
	 * if sonde dies before letting it go */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(127);
	kill(getpid(), SIGSTOP); /* a plain system call: nothing else runs after it but the exec */
	exec_or_exit(path, argv, fail_fmt);
}

pid_t spawn_stopped(char *const argv[], const char *fail_fmt)
{
	char *path = path_lookup(argv[0]);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0)
		child_stop_then_exec(path, argv, fail_fmt, parent);
	free(path);
	if (pid < 0)
		return -1;
	int st;
	while (waitpid(pid, &st, WUNTRACED) < 0)
		if (errno != EINTR) {
			kill(pid, SIGKILL);
			return -1;
		}
	if (!WIFSTOPPED(st)) /* it died before it stopped */
		return -1;
	return pid;
}
