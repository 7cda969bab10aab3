/* The bpftrace dialect's drop report: the BPF programs count failed map
 * updates in the per-CPU drops map (D_DROP_* keys), as for D
 * (dtrace/drops_d.c); bpftrace 0.17 loses them silently, sonde says how
 * many at the end of the run. */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <stdlib.h>

#include "frontend_bt.h"

/* key's count summed over the CPUs (0 when unreadable) */
static uint64_t total(const Runtime *rt, uint32_t key)
{
	int ncpu = libbpf_num_possible_cpus();
	uint64_t *v = xcalloc((size_t)(ncpu > 0 ? ncpu : 1), sizeof(uint64_t)), sum = 0;
	if (bpf_map_lookup_elem(rt->drops_fd, &key, v) == 0)
		for (int c = 0; c < ncpu; c++)
			sum += v[c];
	free(v);
	return sum;
}

void drops_report_lost(Runtime *rt)
{
	if (rt->drops_fd < 0)
		return;
	uint64_t agg = total(rt, D_DROP_AGG), store = total(rt, D_DROP_DYNVAR);
	if (!agg && !store)
		return;
	fflush(rt->out.f);
	/* full: BPFTRACE_MAP_KEYS_MAX keys; busy: the program interrupted
	 * another that was updating the same map on this CPU */
	if (agg)
		fprintf(stderr, "sonde: lost %llu aggregation update%s (map full or busy): "
			"the maps printed miss them\n", (unsigned long long)agg, agg == 1 ? "" : "s");
	if (store)
		fprintf(stderr, "sonde: lost %llu map store%s (map full or busy)\n",
			(unsigned long long)store, store == 1 ? "" : "s");
}


/* bpftrace 0.26 warns of a full map in its own words (at each failed
 * update; sonde counts them and says so once, at the end) */
void drops_report_lost_026(Runtime *rt)
{
	if (rt->drops_fd < 0)
		return;
	uint64_t n = total(rt, D_DROP_AGG) + total(rt, D_DROP_DYNVAR);
	if (!n)
		return;
	fflush(rt->out.f);
	fprintf(stderr, "WARNING: Map full; can't update element (%llu update%s lost: a map was "
		"full or busy). Try increasing max_map_keys config or manually setting the max "
		"entries in a map declaration e.g. `let @a = hash(5000)`\n",
		(unsigned long long)n, n == 1 ? "" : "s");
}
