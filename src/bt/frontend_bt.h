/* The bpftrace dialect's hooks into the runtime (runtime/frontend_rt.h):
 * where bpftrace 0.17 and dtrace(1) differ, the runtime asks its front end */
#pragma once
#include "../runtime/runtime.h"

/* for RunOpts.fe (main.c) */
extern const FrontendRt bt_frontend_rt;

/* at the end: "sonde: lost N aggregation updates ..." and "... map stores
 * ..." on stderr when a map update failed (drops_bt.c) */
void drops_report_lost(Runtime *rt);
