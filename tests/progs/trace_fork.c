/* A forking program for sonde trace -f: the child writes and exits 7, the
 * parent waits for it and exits 0. */
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	pid_t p = fork();
	if (p == 0) {
		if (write(1, "child\n", 6) != 6)
			_exit(1);
		_exit(7);
	}
	int st;
	waitpid(p, &st, 0);
	if (write(1, "parent\n", 7) != 7)
		return 1;
	return WEXITSTATUS(st) == 7 ? 0 : 1;
}
