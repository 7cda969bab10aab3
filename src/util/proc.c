#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
		if (path)
			execv(path, argv);
		else
			execvp(argv[0], argv);
		fprintf(stderr, fail_fmt, argv[0], strerror(errno));
		_exit(127);
	}
	close(p[0]);
	*go_fd = p[1];
	return pid;
}
