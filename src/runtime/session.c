/* The life of a tracing session: load, attach, BEGIN, events until exit
 * (exit(), Ctrl-C, SIGTERM, end of the -c command), detach, END, maps. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "../sym/elf_syms.h"
#include "runtime.h"
#include "verbose.h"
#include "skb_capture.h"
#include "../util/phase_time.h"
#include "../util/clock.h"

/* Streamed events do not wake the reader (see gen_event_send), so it looks
 * this often: the bound on how late a printf line can appear.  A script
 * that streams nothing (a profile filling a map, as sonde flamegraph's)
 * is not woken at all until something happens: each wake-up is CPU time
 * taken from the machine being measured. */
#define POLL_MS 20

/* Globals because signal handlers set them (a handler takes no context):
 * the flags, the pipe a handler writes to and the time it came.  Nothing
 * else of a run lives here. */
static volatile sig_atomic_t got_signal; /* signal handler */
static int signal_wake_fd = -1; /* signal handler: it writes here to wake the event loop */
static volatile sig_atomic_t child_exited; /* signal handler */
static volatile sig_atomic_t maps_requested; /* signal handler: SIGUSR1 came */
static volatile sig_atomic_t stopping; /* signal handler: the run is ending, stop_time is set */
static struct timespec stop_time; /* signal handler: when a signal came or the event loop ended */

/* Once the run ends (a signal, exit(), the -c command's or the -p
 * process's end), events still in the ring print for this long; then
 * reading stops, so that a script whose events feed themselves (system()
 * under sched_switch) still ends, runs END and exits at once. */
#define STOP_DRAIN_NS 200000000LL
/* After the -c command's or the -p process's end, for this long: the
 * events it owes are what the user asked for, and a loaded machine may
 * not run sonde for a while */
#define END_DRAIN_NS 1000000000LL
#define EXIT_DRAIN_NS 1000000000LL
/* The event loop reads the ring for this long at most before it looks at
 * its ways out again */
#define READ_SLICE_NS 50000000LL

/* from the handler too: clock_gettime is async-signal-safe */
static void note_stop(void)
{
	if (stopping)
		return;
	clock_gettime(CLOCK_MONOTONIC, &stop_time);
	stopping = 1;
}

static void on_run_signal(int sig)
{
	if (sig == SIGCHLD) {
		child_exited = 1;
	} else if (sig == SIGUSR1) {
		maps_requested = 1;
	} else if (!got_signal) {
		note_stop();
		got_signal = sig;
	}
	int saved = errno;
	if (signal_wake_fd >= 0 && write(signal_wake_fd, "", 1) < 0) {
		/* full pipe: the loop has a wake-up pending anyway */
	}
	errno = saved;
}

DrainState session_drain_overdue(void)
{
	if (!stopping)
		return DRAIN_PRINT;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	int64_t ns = (now.tv_sec - stop_time.tv_sec) * 1000000000LL + (now.tv_nsec - stop_time.tv_nsec);
	if (got_signal)
		return ns <= STOP_DRAIN_NS ? DRAIN_PRINT : DRAIN_STOP;
	return ns <= END_DRAIN_NS ? DRAIN_PRINT : DRAIN_COUNT;
}

/* The run ended: what the ring holds now is owed, at most its size */
static void start_drain(Runtime *rt)
{
	note_stop();
	struct bpf_map_info info = {0};
	uint32_t len = sizeof(info);
	rt->drain_left = bpf_obj_get_info_by_fd(rt->ringbuf_fd, &info, &len) ? 0 : info.max_entries;
}

/* Whether the script has probes of that special kind */
static bool has_special(const Script *sc, ProbeSpecial which)
{
	for (int i = 0; i < sc->progs.n; i++)
		if (sc->progs.v[i]->spec->prov->is_special == which)
			return true;
	return false;
}

/* Every way out ends the run the same way: END, the maps, then the probes
 * are detached by a helper after sonde has exited (bpf/attach.c).  Killed
 * by SIGPIPE (a reader such as head(1) that has seen enough) or SIGHUP,
 * the kernel would detach them in sonde's exit instead: seconds to tens
 * of seconds with hundreds of tracepoints, in an unkillable state.
 * bpftrace 0.17 prints every map on SIGUSR1 and goes on (dtrace does not);
 * 0.26 runs the script's self:signal:SIGUSR1 probes instead. */
static void install_signals(const FrontendRt *fe, const Script *sc)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGPIPE, SIGHUP, 0};
	static const int usr1[] = {SIGUSR1, 0};
	handle_signals(on_run_signal, sigs);
	/* only its end: the -c command, let go by SIGCONT, would otherwise
	 * send sonde a SIGCHLD that probes see as its first act */
	struct sigaction chld = {.sa_handler = on_run_signal, .sa_flags = SA_RESTART | SA_NOCLDSTOP};
	sigemptyset(&chld.sa_mask);
	sigaction(SIGCHLD, &chld, NULL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	if (fe->sigusr1_prints_maps || has_special(sc, SPECIAL_SIGNAL))
		handle_signals(on_run_signal, usr1);
}

static int64_t boot_to_real(void)
{
	struct timespec b, r;
	clock_gettime(CLOCK_MONOTONIC, &b);
	clock_gettime(CLOCK_REALTIME, &r);
	return ((int64_t)r.tv_sec - b.tv_sec) * 1000000000LL + (r.tv_nsec - b.tv_nsec);
}

static void run_special(Runtime *rt, ProbeSpecial which)
{
	for (int i = 0; i < rt->sc->progs.n; i++) {
		ProgCode *pc = rt->sc->progs.v[i];
		if (pc->spec->prov->is_special != which)
			continue;
		if (which == SPECIAL_END) /* -v: as bpftrace, END's program is told last */
			verbose_attaching(rt, pc);
		uint64_t args[1] = {0};
		LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = args, .ctx_size_in = sizeof(args));
		int r = bpf_prog_test_run_opts(pc->fd, &o);
		if (r)
			fprintf(stderr, "sonde: running %s failed: %s\n", pc->spec->prov->name,
				strerror(-r));
		ring_buffer__consume(rt->rb);
	}
}

/* Tests only: SONDE_TEST_LATE_BEGIN=MS makes sonde wait MS milliseconds
 * between attaching the probes and running BEGIN, as a sonde scheduled
 * late does, so that tests see what probes do before BEGIN has run;
 * SONDE_TEST_LATE_END=MS between running END and detaching, so that they
 * see what probes do after END */
static void test_delay_knob(const char *var)
{
	const char *v = getenv(var);
	long ms = v ? strtol(v, NULL, 10) : 0;
	if (ms > 0 && ms <= 10000)
		usleep((useconds_t)ms * 1000);
}

/* A front end's hook of the session (frontend_rt.h), when it has one */
#define FE_HOOK(rt, hook, ...)                                  \
	do {                                                    \
		if (frontend_rt(&(rt)->out)->hook)              \
			frontend_rt(&(rt)->out)->hook(__VA_ARGS__); \
	} while (0)

/* iter probes: each iterator's programs run inside our read() of it; true
 * when there was at least one (err set if one failed). */
static bool run_iterators(Runtime *rt, char *err, size_t errlen)
{
	bool any = false;
	err[0] = 0;
	for (int i = 0; i < rt->sc->progs.n && !err[0]; i++) {
		ProgCode *pc = rt->sc->progs.v[i];
		if (!pc->spec->prov->run)
			continue;
		any = true;
		pc->spec->prov->run(pc->spec, pc->fd, err, errlen);
		ring_buffer__consume(rt->rb);
	}
	return any;
}

static bool child_done(Runtime *rt)
{
	if (!rt->opt.child_pid || !child_exited)
		return false;
	int st;
	child_exited = 0;
	if (waitpid(rt->opt.child_pid, &st, WNOHANG) != rt->opt.child_pid)
		return false;
	rt->child_status = st;
	return true;
}

/* After the run: reap the -c command, ending it first if it still runs;
 * -v tells how it exited when it did by itself */
static void end_child(Runtime *rt)
{
	if (rt->opt.child_pid <= 0)
		return;
	bool killed = rt->child_status < 0 && !child_exited;
	if (killed)
		kill(rt->opt.child_pid, SIGTERM);
	int st;
	if (rt->child_status < 0 && waitpid(rt->opt.child_pid, &st, 0) == rt->opt.child_pid && !killed)
		rt->child_status = st;
	verbose_child_exit(rt, rt->child_status);
}

static void print_maps_sorted(Runtime *rt, const MapsSink *sink);

/* What the event loop waits on (one epoll set): the event ring, signals
 * (a self-pipe), the -p process's end (a pidfd) and new mappings of the
 * traced process; with the timeout, if something must be looked at
 * periodically. */
typedef struct Waiter {
	int epfd, pipe[2], pidfd;
	int track_pid;    /* its maps are kept for ustack/usym */
	MapsWatch maps;
	bool maps_watched; /* else the maps are read at every tick */
	bool maps_stale;   /* a new mapping was reported: read them again */
	bool pid_gone;     /* the -p process ended */
	bool service_due;  /* the RunService has work */
	int timeout_ms;    /* -1: only events wake the loop */
} Waiter;

static bool script_watches(const Script *sc)
{
	for (int i = 0; i < sc->progs.n; i++)
		if (sc->progs.v[i]->spec->wp_setup || sc->progs.v[i]->spec->prov->watch)
			return true;
	return false;
}

static bool wait_on(Waiter *w, int fd, uint64_t tag)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = tag};
	return fd >= 0 && epoll_ctl(w->epfd, EPOLL_CTL_ADD, fd, &ev) == 0;
}

/* Before the -c child starts, so that its first mappings are reported. */
static void waiter_open(Runtime *rt, Waiter *w)
{
	*w = (Waiter){.epfd = -1, .pipe = {-1, -1}, .pidfd = -1, .maps_stale = true};
	if (rt->sc->uses_ustack || rt->sc->uses_usym)
		w->track_pid = rt->opt.watch_pid > 0 ? rt->opt.watch_pid : rt->opt.child_pid;
	/* skboutput()'s perf buffer is read at every tick */
	bool tick = rt->sc->lazy_events || frontend_rt(&rt->out)->polls || script_watches(rt->sc) ||
		    rt->skb;
	w->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (w->epfd < 0 || !wait_on(w, ring_buffer__epoll_fd(rt->rb), WAKE_RING) ||
	    pipe2(w->pipe, O_CLOEXEC | O_NONBLOCK) < 0 || !wait_on(w, w->pipe[0], WAKE_SIGNAL)) {
		w->timeout_ms = POLL_MS; /* ring_buffer__poll, as before */
		return;
	}
	signal_wake_fd = w->pipe[1];
	if (rt->service_started) /* a scrape is served between two reads of the ring */
		wait_on(w, rt->opt.service->fd(rt->opt.service->self), WAKE_SERVICE);
	if (rt->opt.watch_pid > 0) {
		w->pidfd = (int)syscall(SYS_pidfd_open, rt->opt.watch_pid, 0);
		if (w->pidfd >= 0 && !wait_on(w, w->pidfd, WAKE_PID)) {
			close(w->pidfd); /* the loop then looks with kill(pid, 0) */
			w->pidfd = -1;
		}
		tick |= w->pidfd < 0;
	}
	if (w->track_pid > 0) {
		w->maps_watched = maps_watch_open(&w->maps, w->track_pid, rt->opt.watch_pid > 0, w->epfd);
		tick |= !w->maps_watched;
	}
	/* -p's process runs already: its maps now, as the loop's first wait
	 * may end only when it has exited (its stacks then had no names) */
	if (w->track_pid > 0 && w->track_pid == rt->opt.watch_pid)
		usym_note_pid(rt->sc->opt.sym, w->track_pid, true);
	w->timeout_ms = tick ? POLL_MS : -1;
	if (rt->opt.switch_ns > 0) /* D's switchrate: the ring is read at that rate */
		w->timeout_ms = rt->opt.switch_ns < 1000000 ? 1 : (int)(rt->opt.switch_ns / 1000000);
}

static void waiter_close(Waiter *w)
{
	signal_wake_fd = -1;
	maps_watch_close(&w->maps);
	int *fds[] = {&w->epfd, &w->pipe[0], &w->pipe[1], &w->pidfd};
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (*fds[i] >= 0) {
			close(*fds[i]);
			*fds[i] = -1;
		}
}

/* Blocks until something to handle or the timeout; the ring is read by
 * the caller.  Returns a negative errno on failure. */
static int waiter_wait(Waiter *w, Runtime *rt)
{
	if (w->epfd < 0 || w->pipe[0] < 0)
		return ring_buffer__poll(rt->rb, POLL_MS);
	struct epoll_event evs[16];
	int n = epoll_wait(w->epfd, evs, 16, w->timeout_ms);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	char buf[64];
	for (int i = 0; i < n; i++) {
		uint64_t tag = evs[i].data.u64;
		if (tag == WAKE_SIGNAL)
			while (read(w->pipe[0], buf, sizeof(buf)) > 0)
				;
		else if (tag == WAKE_PID)
			w->pid_gone = true;
		else if (tag == WAKE_SERVICE)
			w->service_due = true;
		else if (tag >= WAKE_MAPS) {
			maps_watch_ready(&w->maps, (int)(tag - WAKE_MAPS), evs[i].events, w->epfd);
			w->maps_stale = true;
		}
	}
	return n;
}

/* D's aggrate/statusrate: whether a period of rate ns has passed since
 * *last (a rate of 0: at every wake-up) */
static bool rate_due(uint64_t *last, int64_t rate)
{
	if (rate <= 0)
		return true;
	uint64_t now = mono_ns();
	if (*last && now - *last < (uint64_t)rate)
		return false;
	*last = now;
	return true;
}

/* SIGUSR1 came: bpftrace 0.17 prints every map, 0.26 runs the
 * self:signal:SIGUSR1 probes (in the script's order) */
static void on_sigusr1(Runtime *rt)
{
	maps_requested = 0;
	fflush(rt->out.f);
	if (frontend_rt(&rt->out)->sigusr1_prints_maps)
		print_maps_sorted(rt, NULL);
	run_special(rt, SPECIAL_SIGNAL);
	fflush(rt->out.f);
}

static void event_loop(Runtime *rt, Waiter *w)
{
	uint64_t last_agg = mono_ns(), last_status = last_agg;
	while (!rt->exit_requested && !got_signal) {
		if (child_done(rt))
			break;
		if (rt->control && rt->control[0]) {
			/* what exit() followed: its event ends the reading,
			 * else (lost in a full ring) a second at most */
			rt->read_until_ns = mono_ns() + EXIT_DRAIN_NS;
			ring_buffer__consume(rt->rb);
			rt->read_until_ns = 0;
			FE_HOOK(rt, exit_called, rt);
			rt->exit_requested = true;
			break;
		}
		/* with a pidfd, epoll reports the end: no signal probe per wake-up */
		if (rt->opt.watch_pid > 0 &&
		    (w->pid_gone || (w->pidfd < 0 && kill(rt->opt.watch_pid, 0) < 0 && errno == ESRCH)))
			break;
		/* what BEGIN or the last drain printed is out before sonde
		 * sleeps (bpftrace's printf reaches a pipe at once) */
		if (rt->flush_pending && rt->opt.buffering != BUF_FULL) {
			fflush(rt->out.f);
			rt->flush_pending = false;
		}
		int n = waiter_wait(w, rt);
		if (n < 0 && n != -EINTR) {
			fprintf(stderr, "sonde: reading events: %s\n", strerror(-n));
			break;
		}
		/* keep the traced process's maps: its stacks and usym() values
		 * must still resolve once it has exited.  Read after the wait:
		 * the exec's mappings are reported in the same wake-up as the
		 * first events whose stacks need them */
		if (w->track_pid > 0 && (w->maps_stale || !w->maps_watched))
			usym_note_pid(rt->sc->opt.sym, w->track_pid, true);
		w->maps_stale = false;
		/* streamed events are sent with BPF_RB_NO_WAKEUP, so epoll may
		 * never report them: read whatever the ring holds, for a slice
		 * of time at most (events.c) */
		rt->read_until_ns = mono_ns() + READ_SLICE_NS;
		ring_buffer__consume(rt->rb);
		rt->read_until_ns = 0;
		skb_capture_consume(rt);
		if (w->service_due) {
			w->service_due = false;
			rt->opt.service->ready(rt->opt.service->self);
		}
		if (maps_requested) /* after the events sent before it */
			on_sigusr1(rt);
		watchpoint_resume(rt);
		bool agg = rate_due(&last_agg, rt->opt.agg_ns);
		bool status = rate_due(&last_status, rt->opt.status_ns);
		FE_HOOK(rt, wakeup, rt, agg, status);
	}
}

uint64_t runtime_lost_events(const Runtime *rt)
{
	int ncpu = libbpf_num_possible_cpus();
	uint64_t vals[ncpu > 0 ? ncpu : 1], total = 0;
	uint32_t key = 0;
	if (bpf_map_lookup_elem(rt->lost_fd, &key, vals))
		return 0;
	for (int i = 0; i < ncpu; i++)
		total += vals[i];
	return total;
}

static int cmp_map_name(const void *a, const void *b)
{
	const MapDesc *x = a, *y = b;
	return strcmp(x->name, y->name);
}

/* At exit; false when the maps sink could not write them */
static bool print_all_maps(Runtime *rt)
{
	if (rt->opt.no_maps_at_exit)
		return true;
	if (frontend_rt(&rt->out)->print_maps) { /* D: in dtrace(1)'s layout */
		frontend_rt(&rt->out)->print_maps(rt);
		return true;
	}
	/* bpftrace 0.17 writes these two newlines to stdout even with -o
	 * (not folded output: flame graph tools read it); 0.26 to its
	 * output, in text only */
	if (frontend_rt(&rt->out)->exit_gap_in_output) {
		if (rt->out.fmt == OUT_TEXT)
			fputs("\n\n", rt->out.f);
	} else if (rt->out.fmt != OUT_FOLDED) {
		fputs("\n\n", stdout);
	}
	fflush(stdout);
	print_maps_sorted(rt, rt->opt.maps_sink);
	char err[512];
	if (rt->opt.maps_sink && !rt->opt.maps_sink->done(rt->opt.maps_sink->self, err, sizeof(err))) {
		fprintf(stderr, "sonde: %s\n", err);
		return false;
	}
	return true;
}

/* Every map in name order: at exit (those the sink takes go there) and on SIGUSR1 */
static void print_maps_sorted(Runtime *rt, const MapsSink *sink)
{
	int n = rt->sc->maps.n;
	MapDesc *sorted = xcalloc((size_t)n + 1, sizeof(MapDesc));
	memcpy(sorted, rt->maps, sizeof(MapDesc) * (size_t)n);
	qsort(sorted, (size_t)n, sizeof(MapDesc), cmp_map_name);
	for (int i = 0; i < n; i++)
		if (!sink || !sink->take(sink->self, &rt->out, &sorted[i]))
			map_print(&rt->out, &sorted[i], 0, 0);
	free(sorted);
}

/* Before attaching, unless the front end tells it once attached */
static void announce(Runtime *rt)
{
	if (rt->opt.quiet || frontend_rt(&rt->out)->attached)
		return;
	int n = rt->sc->nattach;
	if (rt->out.fmt == OUT_JSON)
		fprintf(rt->out.f, "{\"type\": \"attached_probes\", \"data\": {\"probes\": %d}}\n", n);
	else if (rt->out.fmt == OUT_FOLDED) /* keep the folded output pure */
		fprintf(stderr, "Attaching %d probe%s...\n", n, n == 1 ? "" : "s");
	else
		fprintf(rt->out.f, "Attaching %d probe%s...\n", n, n == 1 ? "" : "s");
	fflush(rt->out.f);
}

/* Every probe is attached: the front end's message, then the line
 * bpftrace's test engine waits for (stdout, as bpftrace prints it) */
static void announce_attached(Runtime *rt)
{
	if (!rt->opt.quiet && frontend_rt(&rt->out)->attached)
		frontend_rt(&rt->out)->attached(rt, rt->sc->nattach);
	if (!rt->opt.notify_attached)
		return;
	fflush(rt->out.f);
	fputs("__BPFTRACE_NOTIFY_PROBES_ATTACHED\n", stdout);
	fflush(stdout);
}

/* Whether the run has probes besides BEGIN and END (ERROR counts: D's
 * runs never end by themselves) */
static bool has_probes(const Script *sc)
{
	for (int i = 0; i < sc->progs.n; i++) {
		ProbeSpecial k = sc->progs.v[i]->spec->prov->is_special;
		if (k != SPECIAL_BEGIN && k != SPECIAL_END)
			return true;
	}
	return false;
}

static void setup_output(Runtime *rt)
{
	FILE *f = rt->opt.out ? rt->opt.out : stdout;
	rt->out.f = f;
	rt->out.fmt = rt->opt.fmt;
	rt->out.fe = rt->opt.fe;
	rt->out.str_trailer = rt->opt.str_trailer;
	rt->out.sym = rt->sc->opt.sym;
	rt->out.agg = rt->sc->opt.agg;
	rt->out.pycode_fd = -1;
	rt->out.boot_to_real_ns = boot_to_real();
	if (rt->opt.buffering == BUF_NONE)
		setvbuf(f, NULL, _IONBF, 0);
	else if (rt->opt.buffering == BUF_LINE)
		setvbuf(f, NULL, _IOLBF, 0);
	else
		setvbuf(f, NULL, _IOFBF, 1 << 16);
}

/* The -c command stopped itself before its exec (runtime_hold_child) */
static void release_child(Runtime *rt)
{
	if (rt->opt.child_pid > 0 && kill(rt->opt.child_pid, SIGCONT) < 0)
		perror("sonde: starting the command");
}

static void detach(Runtime *rt)
{
	attached_close_after_exit(&rt->attached, rt->opt.out ? fileno(rt->opt.out) : -1);
}

/* The RunService ends with the event loop: nothing serves after it */
static void stop_service(Runtime *rt)
{
	if (rt->service_started)
		rt->opt.service->stop(rt->opt.service->self);
	rt->service_started = false;
}

static bool start_service(Runtime *rt, char *err, size_t errlen)
{
	const RunService *s = rt->opt.service;
	rt->service_started = s && s->start(s->self, rt, err, errlen);
	return !s || rt->service_started;
}

static int fail_status(Runtime *rt, int status)
{
	char err[256];
	stop_service(rt);
	detach(rt); /* what was attached before the failure goes as after a run: after we exit */
	skb_capture_close(rt, err, sizeof(err));
	if (rt->opt.child_pid > 0) {
		kill(rt->opt.child_pid, SIGKILL);
		waitpid(rt->opt.child_pid, NULL, 0);
	}
	loader_close(rt);
	sb_free(&rt->line);
	vec_free(&rt->watched);
	return status;
}

static int fail(Runtime *rt, const char *msg)
{
	fprintf(stderr, "sonde: %s\n", msg);
	return fail_status(rt, 1);
}

int runtime_run(Script *sc, const RunOpts *opt)
{
	Runtime rt = {.sc = sc, .opt = *opt};
	rt.ringbuf_fd = rt.scratch_fd = rt.zero_fd = rt.rodata_fd = rt.lost_fd = -1;
	rt.firing_fd = rt.drops_fd = rt.chain_fd = -1;
	for (int i = 0; i < (int)(sizeof(rt.errprog_fd) / sizeof(rt.errprog_fd[0])); i++)
		rt.errprog_fd[i] = -1;
	rt.control_fd = rt.pycode_fd = rt.pylive_fd = rt.pybase_fd = rt.perfbuf_fd = -1;
	for (int i = 0; i < PYPROGS; i++)
		rt.pyprog_fds[i] = -1;
	rt.child_status = -1;
	rt.drain_left = -1;
	for (int i = 0; i <= STACK_DEPTH_MAX; i++)
		rt.kstack_fds[i] = rt.ustack_fds[i] = rt.bstack_fds[i] = -1;
	char err[1024];
	setup_output(&rt);
	stopping = 0; /* a process may run more than one session (the unit tests) */
	install_signals(frontend_rt(&rt.out), rt.sc);
	if (!loader_create_maps(&rt, err, sizeof(err)) || !loader_load_programs(&rt, err, sizeof(err)))
		return fail(&rt, err);
	phase_time("maps created, programs loaded");
	rt.rb = ring_buffer__new(rt.ringbuf_fd, events_handle, &rt, NULL);
	if (!rt.rb)
		return fail(&rt, "cannot read the event ring buffer");
	if (!start_service(&rt, err, sizeof(err)))
		return fail(&rt, err);
	if (!skb_capture_open(&rt, err, sizeof(err)))
		return fail(&rt, err);
	announce(&rt);
	if (rt.opt.rb_pages_set && !loader_ringbuf_size(rt.opt.rb_pages)) {
		/* what bpftrace 0.17 says when its perf buffers cannot be mapped */
		fprintf(stderr, "mmap: Invalid argument\nERROR: Failed to open perf buffer\n");
		return fail_status(&rt, 255);
	}
	if (!loader_attach_all(&rt, err, sizeof(err)))
		return fail(&rt, err);
	phase_time("attached");
	announce_attached(&rt);
	if (rt.opt.dry_run) { /* attached: that was the test */
		detach(&rt);
		return fail_status(&rt, 0);
	}
	test_delay_knob("SONDE_TEST_LATE_BEGIN");
	run_special(&rt, SPECIAL_BEGIN);
	FE_HOOK(&rt, after_begin, &rt);
	phase_time("BEGIN ran");
	/* as bpftrace: an iterator's run is the whole run */
	rt.exit_requested = run_iterators(&rt, err, sizeof(err));
	if (frontend_rt(&rt.out)->ends_without_probes && !has_probes(rt.sc))
		rt.exit_requested = true;
	int status = 0;
	if (err[0]) { /* END and the maps still print; the exit status says it failed */
		fprintf(stderr, "sonde: %s\n", err);
		status = 1;
	}
	Waiter w;
	waiter_open(&rt, &w);
	release_child(&rt);
	event_loop(&rt, &w);
	start_drain(&rt);
	waiter_close(&w);
	stop_service(&rt);
	if (!rt.exit_requested)
		ring_buffer__consume(rt.rb); /* what came before Ctrl-C still prints */
	rt.exit_requested = false;
	rt.ending = true;
	FE_HOOK(&rt, before_end, &rt);
	run_special(&rt, SPECIAL_END);
	test_delay_knob("SONDE_TEST_LATE_END");
	fflush(rt.out.f);
	FE_HOOK(&rt, before_maps, &rt);
	if (!print_all_maps(&rt))
		status = 1;
	FE_HOOK(&rt, after_maps, &rt);
	skb_capture_consume(&rt);
	uint64_t lost = runtime_lost_events(&rt) + skb_capture_lost(&rt) + rt.drain_lost;
	if (!skb_capture_close(&rt, err, sizeof(err))) {
		fprintf(stderr, "sonde: %s\n", err);
		status = 1;
	}
	if (lost)
		output_lost_events(&rt.out, lost);
	fflush(rt.out.f);
	detach(&rt);
	watchpoint_continue(&rt);
	end_child(&rt);
	loader_close(&rt);
	sb_free(&rt.line);
	vec_free(&rt.watched);
	return status ? status : rt.exit_status; /* D: exit(N)'s N */
}
