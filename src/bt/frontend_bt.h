/* The bpftrace dialect's hooks into the runtime (runtime/frontend_rt.h):
 * where bpftrace 0.17 and dtrace(1) differ, the runtime asks its front end */
#pragma once
#include "../runtime/runtime.h"

/* for RunOpts.fe, by generation (generation_bt.c): 0.17's, 0.26's */
extern const FrontendRt bt_frontend_rt;
extern const FrontendRt bt_frontend_rt_026;

/* 0.26: "Attached N probes" on stderr (attached_bt.c) */
void attached_report_026(Runtime *rt, int nprobes);

/* at the end: "sonde: lost N aggregation updates ..." and "... map stores
 * ..." on stderr when a map update failed (drops_bt.c) */
void drops_report_lost(Runtime *rt);
void drops_report_lost_026(Runtime *rt); /* in 0.26's words */
