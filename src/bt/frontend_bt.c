/* The bpftrace dialect's table of runtime hooks: bpftrace 0.17 prints
 * every map on SIGUSR1, prints Python stacks, and tells of lost map
 * updates at the end; everything else is the runtime's own printing. */
#include "../python/pystack_format.h"
#include "frontend_bt.h"

const FrontendRt bt_frontend_rt = {
	.pystack = &pystack_printer,
	.sigusr1_prints_maps = true,
	.after_maps = drops_report_lost,
};
