/* D's drop reports, as dtrace(1) prints them on stderr: "dtrace: N
 * aggregation drops on CPU C" (an aggregation whose map was full: the
 * aggsize option) and "dtrace: N dynamic variable drops" (an associative
 * array or thread-local that could not be stored: dynvarsize).  The BPF
 * programs count them in the per-CPU drops map (D_DROP_* keys); each
 * report says what is new since the last one.  (The bpftrace dialect's
 * report of the same counts: bt/drops_bt.c.) */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <stdlib.h>

#include "runtime_d.h"

struct DropsD {
	int ncpu;
	uint64_t *told_agg; /* per CPU */
	uint64_t told_dyn;
};

/* key's per-CPU counts into v (ncpu values); false when unreadable */
static bool read_counts(const Runtime *rt, uint32_t key, uint64_t *v)
{
	return bpf_map_lookup_elem(rt->drops_fd, &key, v) == 0;
}

void drops_d_report(Runtime *rt, bool agg, bool dyn)
{
	if (rt->drops_fd < 0)
		return;
	DRunState *ds = d_state(rt);
	if (!ds->drops) {
		ds->drops = xcalloc(1, sizeof(*ds->drops));
		ds->drops->ncpu = libbpf_num_possible_cpus();
		ds->drops->told_agg = xcalloc((size_t)ds->drops->ncpu, sizeof(uint64_t));
	}
	struct DropsD *d = ds->drops;
	uint64_t *v = xcalloc((size_t)d->ncpu, sizeof(uint64_t));
	bool flushed = false;
	if (agg && read_counts(rt, D_DROP_AGG, v))
		for (int c = 0; c < d->ncpu; c++) {
			if (v[c] <= d->told_agg[c])
				continue;
			uint64_t n = v[c] - d->told_agg[c];
			d->told_agg[c] = v[c];
			if (!flushed)
				fflush(rt->out.f);
			flushed = true;
			fprintf(stderr, "dtrace: %llu aggregation drop%s on CPU %d\n",
				(unsigned long long)n, n == 1 ? "" : "s", c);
		}
	uint64_t sum = 0;
	if (dyn && read_counts(rt, D_DROP_DYNVAR, v))
		for (int c = 0; c < d->ncpu; c++)
			sum += v[c];
	if (sum > d->told_dyn) {
		uint64_t n = sum - d->told_dyn;
		d->told_dyn = sum;
		if (!flushed)
			fflush(rt->out.f);
		fprintf(stderr, "dtrace: %llu dynamic variable drop%s\n", (unsigned long long)n,
			n == 1 ? "" : "s");
	}
	free(v);
}

void drops_d_free(Runtime *rt)
{
	DRunState *ds = d_state(rt);
	if (ds->drops)
		free(ds->drops->told_agg);
	free(ds->drops);
	ds->drops = NULL;
}
