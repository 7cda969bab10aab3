/* Paths at PATH_MAX for sonde trace's differential test: strace prints at
 * most PATH_MAX - 1 bytes of a path and "..." only when it goes on. */
#include <limits.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	static char p[PATH_MAX + 8];
	/* PATH_MAX - 1 slashes and the NUL: all of it, no "..." (it is "/") */
	memset(p, '/', PATH_MAX - 1);
	p[PATH_MAX - 1] = '\0';
	if (chdir(p))
		return 1;
	/* PATH_MAX slashes: ENAMETOOLONG, cut at PATH_MAX - 1 with "..." */
	memset(p, '/', PATH_MAX);
	p[PATH_MAX] = '\0';
	(void)chdir(p);
	/* and a short one, unchanged */
	return access("/nonexistent/x", F_OK) == 0;
}
