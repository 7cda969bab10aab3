/* The D dialect's table of runtime hooks (runtime/frontend_rt.h), and
 * what a D session does beyond the runtime's: the activity state of
 * dtrace's consumer, exit()'s last firing, the drop and fault reports at
 * their rates, and the aggregations at exit in dtrace(1)'s layout. */
#include <bpf/libbpf.h>
#include <stdlib.h>
#include <unistd.h>

#include "../python/pystack_format.h"
#include "../runtime/frontend.h"
#include "dtrace.h"
#include "runtime_d.h"
#include "sema_d.h"

DRunState *d_state(Runtime *rt)
{
	if (!rt->fe_state)
		rt->fe_state = xcalloc(1, sizeof(DRunState));
	return rt->fe_state;
}

/* BEGIN's clauses have all run: the traced probes' clauses may start
 * (codegen.c's state gate), unless one of BEGIN's called exit() */
static void d_activate(Runtime *rt)
{
	uint64_t inactive = D_STATE_INACTIVE;
	__atomic_compare_exchange_n(&rt->control[D_CTL_STATE / 8], &inactive, D_STATE_ACTIVE, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

/* The run ends (Ctrl-C, the -c command's end, exit()): as dtrace_stop()
 * the state turns draining before END runs, so that END runs once and no
 * traced probe's clause starts while END and the final printing happen
 * (sonde's own writes of that output would otherwise fire syscall probes) */
static void d_drain(Runtime *rt)
{
	__atomic_store_n(&rt->control[D_CTL_STATE / 8], D_STATE_DRAINING, __ATOMIC_SEQ_CST);
}

/* exit() set the control word; its firing's record (the rest of the
 * clause, sent when the clause ends) follows within microseconds.  Read
 * until it has been printed, where the output stops (events_d.c), or for
 * at most 100 ms (a fault after exit() drops the record). */
static void d_wait_exit_record(Runtime *rt)
{
	for (int i = 0; i < 1000 && !rt->exit_requested; i++) {
		usleep(100);
		ring_buffer__consume(rt->rb);
	}
}

/* at the aggrate (agg) and statusrate (status) periods */
static void d_wakeup(Runtime *rt, bool agg, bool status)
{
	if (status) {
		spec_report_drops(rt);
		fault_report_double_d(rt);
	}
	drops_d_report(rt, agg, status);
}

static void d_before_maps(Runtime *rt)
{
	drops_d_report(rt, true, true);
}

/* dtrace(1) ends the last firing's line, then writes one newline to its
 * output, then the aggregations printa() did not print, in its layout */
static void d_print_maps(Runtime *rt)
{
	events_d_close_line(rt);
	fputc('\n', rt->out.f);
	maps_print_d_exit(&rt->out, rt->maps, rt->sc->maps.n);
}

static void d_after_maps(Runtime *rt)
{
	spec_report_drops(rt);
	fault_report_double_d(rt);
	drops_d_free(rt);
	spec_free(rt);
	free(rt->fe_state);
	rt->fe_state = NULL;
}

const FrontendRt d_frontend_rt = {
	.events = d_events,
	.held_record = spec_hold,
	.format_stack = stack_format_d,
	.format_sym = sym_text_d,
	.pystack = &pystack_printer,
	.polls = true,
	.after_begin = d_activate,
	.before_end = d_drain,
	.exit_called = d_wait_exit_record,
	.wakeup = d_wakeup,
	.before_maps = d_before_maps,
	.print_maps = d_print_maps,
	.after_maps = d_after_maps,
};

/* D, as sonde dtrace compiles and runs it */
const Frontend d_frontend = {
	.name = "D",
	.dialect = DIALECT_D,
	.lex = &d_lex_hooks,
	.sema = &d_sema_hooks,
	.codegen = &d_codegen_hooks,
	.rt = &d_frontend_rt,
};
