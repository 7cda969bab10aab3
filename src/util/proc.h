/* Child processes. */
#pragma once
#include <sys/types.h>

/* Fork a command now and hold it until the caller lets it go (-c CMD: it
 * runs once the probes are attached).  The child waits for a byte on a
 * pipe, then execs; when the parent ends without writing, the child exits
 * 127.  hold_fd >= 0: before that, it waits for a byte on hold_fd too
 * (sonde trace's test knob for a child scheduled late).  path NULL: look
 * argv[0] up in PATH.  fail_fmt: what the child prints when exec fails,
 * with the program ("%s") and why ("%s").  Returns the pid, or -1 when the
 * pipe or fork failed; *go_fd gets the pipe's write end (close-on-exec):
 * write a byte to it to let the child exec. */
pid_t spawn_held(const char *path, char *const argv[], int hold_fd, const char *fail_fmt,
		 int *go_fd);

/* Fork a command that stops itself (SIGSTOP) before it execs, and wait
 * until it has: the caller attaches its probes, then sends SIGCONT, and
 * the first thing the child does is its exec (argv[0] is looked up in
 * $PATH here, so the child makes no other system call): a probe on the
 * command sees nothing of sonde's own code, not even a read of a pipe.
 * If sonde dies first, the child gets SIGKILL.  fail_fmt: what the child
 * prints when exec fails, with the program ("%s") and why ("%s").
 * Returns the pid, or -1 when the fork failed or the child died first. */
pid_t spawn_stopped(char *const argv[], const char *fail_fmt);
