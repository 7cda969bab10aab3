/* The D dialect at run time: its events, speculations, faults and drop
 * reports, reached by the runtime through D's table of hooks
 * (d_frontend_rt, frontend_d.c) */
#pragma once
#include "../runtime/runtime.h"

/* What a D session keeps beyond the runtime's state (Runtime.fe_state) */
typedef struct DRunState {
	bool exit_seen;   /* exit()'s record was read: its firing ends the output */
	int firing_depth; /* inside a firing record's slots */
	bool heading;     /* the "CPU ID FUNCTION:NAME" heading was printed */
	bool line_open;   /* a firing's line awaits its newline */
	int indent;       /* flowindent: the entry/return nesting, 2 columns a level */
	struct SpecBufs *spec;   /* records held for their speculation (spec_buf.c) */
	uint64_t dblerrors_told; /* faults in ERROR clauses already reported */
	struct DropsD *drops;    /* the drop counts already reported (drops_d.c) */
} DRunState;

/* rt's D state, made on first use (frontend_d.c) */
DRunState *d_state(Runtime *rt);

/* D's hooks, for RunOpts.fe */
extern const FrontendRt d_frontend_rt;
/* D as one front end (runtime/frontend.h): its tokens, sema, code and
 * runtime hooks, for sonde dtrace, the fuzzer and the tests */
struct Frontend;
extern const struct Frontend d_frontend;

/* events_d.c: D's printers of events, {kind, print}, ended by {0, NULL} */
extern const FrontendEvent d_events[];
/* end the last firing's line (dtrace(1) ends each firing with a newline) */
void events_d_close_line(Runtime *rt);

/* D's speculations (spec_buf.c): hold a tagged record, print (commit) or
 * drop (discard) a buffer, report new speculative drops, free all. */
void spec_hold(Runtime *rt, unsigned id, const void *data, size_t size);
void spec_release(Runtime *rt, uint64_t id, bool commit);
void spec_report_drops(Runtime *rt);
void spec_free(Runtime *rt);
/* D's run-time faults (fault_d.c): an EV_D_FAULT record as dtrace's "error
 * on enabled probe ID ..." message; new faults in ERROR clauses reported */
void fault_print_d(Runtime *rt, const EventDesc *ev, const uint8_t *data);
void fault_report_double_d(Runtime *rt);
/* "dtrace: N aggregation drops on CPU C" (agg: aggrate's turn), "...
 * dynamic variable drops" (dyn: statusrate's) (drops_d.c) */
void drops_d_report(Runtime *rt, bool agg, bool dyn);
void drops_d_free(Runtime *rt);
