/* Maps code after it has started: sleeps, then dlopen()s the library named
 * by argv[1] and spins in its spin_in_lib.  A sampler that read this
 * process's mappings only at the start cannot name that function. */
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: dlopen_target LIBRARY\n");
		return 2;
	}
	struct timespec ts = {0, 300000000};
	nanosleep(&ts, NULL);
	void *h = dlopen(argv[1], RTLD_NOW);
	void (*spin)(double) = h ? (void (*)(double))dlsym(h, "spin_in_lib") : NULL;
	if (!spin) {
		fprintf(stderr, "dlopen_target: %s\n", dlerror());
		return 1;
	}
	spin(0.5);
	return 0;
}
