/* locals_target: local variables and parameters read by name at line
 * probes (locals.NAME, args.NAME), built at -O0 and -O2 (location lists).
 * Silent unless told (-v): its output would race the tracer's. */
#include <stdio.h>
#include <stdlib.h>

struct rec {
	int id;
	long weight;
	char name[8];
	const char *label;
};

static int hits;
static char label[] = "alpha";

__attribute__((noinline)) long step(const struct rec *r, int i)
{
	hits++;
	return r->weight * i;
}

__attribute__((noinline)) long fold(const struct rec *r, int n)
{
	long acc = 0;
	for (int i = 0; i < n; i++) {
		long d = step(r, i);
		acc += d;
	}
	return acc + r->id;
}

int main(int argc, char **argv)
{
	struct rec r = {7, 3, "beta", label};
	int n = argc > 1 ? atoi(argv[1]) : 4;
	int verbose = argc > 2 && r.label[0] == 'a'; /* reads label's page in */
	long v = fold(&r, n);
	if (verbose)
		printf("%ld %d %s %s\n", v, hits, r.name, r.label);
	return 0;
}
