/* probe_target: a loop, a struct through a pointer, a string, for
 * `sonde probe` (-L, -V, -a) and line probes in the language. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct item {
	int id;
	long weight;
	const char *label;
	int dims[3];
};

int total;
static int calls;

__attribute__((noinline)) int weigh(struct item *it, int scale)
{
	int w = (int)it->weight * scale;
	calls++;
	if (w > 100)
		w = 100;
	total += w;
	return w;
}

__attribute__((noinline)) void open_named(const char *pathname, int flags)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%s:%d", pathname, flags);
	total += (int)strlen(buf);
}

int main(int argc, char **argv)
{
	struct item it = {1, 7, "apple", {1, 2, 3}};
	int n = argc > 1 ? atoi(argv[1]) : 5;
	for (int i = 0; i < n; i++) {
		it.id = i;
		weigh(&it, i + 1);
	}
	open_named("/tmp/probe_target.txt", 3);
	printf("%d %d\n", total, calls);
	return 0;
}
