/* The bpftrace dialect's tables of runtime hooks, one per generation
 * (bt/generation_bt.c picks one).  bpftrace 0.17 prints every map on
 * SIGUSR1, prints Python stacks, and tells of lost map updates at the end;
 * everything else is the runtime's own printing.  bpftrace 0.26 adds its
 * own rules of output (each hook says which); on SIGUSR1 it runs the
 * script's self:signal:SIGUSR1 probes and prints no map. */
#include "../python/pystack_format.h"
#include "../runtime/runtime.h"
#include "frontend_bt.h"

/* BEGIN has run: 0.26's traced probes may start (CodegenHooks.gate_probes) */
static void bt_activate(Runtime *rt)
{
	__atomic_store_n(&rt->control[CTL_RUN_STATE / 8], CTL_RUN_ACTIVE, __ATOMIC_SEQ_CST);
}

const FrontendRt bt_frontend_rt = {
	.pystack = &pystack_printer,
	.sigusr1_prints_maps = true,
	.after_maps = drops_report_lost,
};

const FrontendRt bt_frontend_rt_026 = {
	.pystack = &pystack_printer,
	.after_maps = drops_report_lost_026,
	.attached = attached_report_026,
	.ends_without_probes = true,
	.stats_as_record = true,
	.hist_heading_bare = true,
	.json_records_compact = true,
	.json_quotes_all_text = true,
	.exit_gap_in_output = true,
	.pointers_hex = true,
	.keys_as_values = true,
	.json_keys_unspaced = true,
	.after_begin = bt_activate,
};
