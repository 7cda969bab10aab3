/* sonde trace: the traced command, the event loop, record; the options
 * are parsed in trace_cli.c, report is trace_report.c. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "../util/proc.h"
#include "bpfprog.h"
#include "printer.h"
#include "recfile.h"
#include "sigs.h"
#include "trace_cli.h"

/* set by the signal handlers, which take no context: hence globals */
static volatile sig_atomic_t got_signal, got_child;

static void on_signal(int sig)
{
	got_signal = sig;
}

static void on_child(int sig)
{
	(void)sig;
	got_child = 1;
}

static uint64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}


/* as execvp would find it; strace also runs the resolved path */
static char *command_path(const char *cmd)
{
	if (strchr(cmd, '/'))
		return access(cmd, X_OK) == 0 ? xstrdup(cmd) : NULL;
	const char *path = getenv("PATH");
	char *dirs = xstrdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	char *found = NULL;
	char *save = NULL;
	for (char *d = strtok_r(dirs, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char full[4096];
		snprintf(full, sizeof(full), "%s/%s", d, cmd);
		struct stat st;
		if (access(full, X_OK) == 0 && stat(full, &st) == 0 && S_ISREG(st.st_mode))
			found = xstrdup(full);
	}
	free(dirs);
	return found;
}

/* SONDE_TRACE_TEST_LATE_CHILD=1 (tests only): the child waits for the
 * probes to be attached before anything else, as a child scheduled late
 * does, so that everything it does before its execve is traced */
static bool late_child_knob(void)
{
	const char *v = getenv("SONDE_TRACE_TEST_LATE_CHILD");
	return v && *v && strcmp(v, "0");
}

/* The command, held until the probes are attached: between the fork and
 * the execve the child only closes the go pipe's write end (a read that
 * ends if sonde goes) and waits on it (sonde's other fds are close-on-exec;
 * the caught signals' handlers end at the execve).
 * If it runs only after the probes are attached (scheduled late), the
 * printer still shows nothing of it before its execve (await_exec). */
static pid_t start_child(const char *path, char **cmd, int *go_fd, int *late_fd)
{
	int late[2] = {-1, -1};
	if (late_child_knob() && pipe2(late, O_CLOEXEC) < 0)
		return -1;
	pid_t pid = spawn_held(path, cmd, late[0], "sonde trace: cannot run '%s': %s\n", go_fd);
	if (late[0] >= 0)
		close(late[0]);
	*late_fd = late[1];
	return pid;
}

typedef struct Live {
	Printer pr;
	FILE *rec;   /* record mode */
	bool bad;
} Live;

static void rec_fdname(void *ctx, uint32_t tgid, int fd, const char *path)
{
	Live *l = ctx;
	size_t n = strlen(path);
	char buf[8 + PATH_MAX];
	if (n > PATH_MAX)
		n = PATH_MAX;
	int32_t ifd = fd;
	memcpy(buf, &tgid, 4);
	memcpy(buf + 4, &ifd, 4);
	memcpy(buf + 8, path, n);
	if (!rec_write_chunk(l->rec, CHUNK_FDNAME, buf, (uint32_t)(8 + n)))
		l->bad = true;
}

static int on_record(void *ctx, void *data, size_t size)
{
	Live *l = ctx;
	if (l->rec) {
		const TraceHdr *h0 = data;
		if (size < sizeof(TraceHdr) || printer_before_exec(&l->pr, h0) ||
		    h0->type == REC_EXEC)
			return 0;
		printer_learn_fds(&l->pr, data, size, rec_fdname, l);
		/* fixed-size records are longer than their data */
		const TraceHdr *hd = data;
		if (size >= sizeof(TraceHdr) && size > sizeof(TraceHdr) + hd->len)
			size = sizeof(TraceHdr) + hd->len;
		if (!rec_write_chunk(l->rec, CHUNK_RECORD, data, (uint32_t)size))
			l->bad = true;
		const TraceHdr *h = data;
		printer_track_task(&l->pr, h);
		if (h->type == REC_PROC_EXIT && (int)h->tgid == l->pr.main_pid) {
			l->pr.main_exited = true;
			l->pr.exit_status = (int)h->ret;
		}
		return 0;
	}
	printer_record(&l->pr, data, size);
	return 0;
}

static bool load_events(TraceBpf *b, const TraceOpts *o, char *err, size_t errlen)
{
	b->events = xcalloc((size_t)o->nevents + 1, sizeof(TraceEvent));
	for (int i = 0; i < o->nevents; i++) {
		TraceEvent *e = &b->events[i];
		char *colon = strchr(o->events[i], ':');
		e->cat = xstrndup(o->events[i], (size_t)(colon - o->events[i]));
		e->name = xstrdup(colon + 1);
		b->nevents++;
		char why[256];
		if (!tracefs_read_format(e->cat, e->name, &e->fmt, why, sizeof(why))) {
			snprintf(err, errlen, "--event %s: %s", o->events[i], why);
			return false;
		}
		int end = 8;
		for (int k = 0; k < e->fmt.nfields; k++)
			if (e->fmt.fields[k].offset + e->fmt.fields[k].size > end)
				end = e->fmt.fields[k].offset + e->fmt.fields[k].size;
		bool dl = false;
		for (int k = 0; k < e->fmt.nfields; k++)
			dl |= e->fmt.fields[k].is_data_loc;
		e->size = (end + (dl ? 256 : 0) + 7) & ~7;
		if (e->size > 2048)
			e->size = 2048;
	}
	return true;
}

static void sum_stats(TraceBpf *b, TraceStat *st, uint64_t *hist)
{
	int ncpu = libbpf_num_possible_cpus();
	TraceStat *v = xcalloc((size_t)ncpu, sizeof(TraceStat));
	for (uint32_t k = 0; k < SYSCALL_MAX; k++) {
		if (bpf_map_lookup_elem(b->map_fd[TM_STATS], &k, v))
			continue;
		for (int c = 0; c < ncpu; c++) {
			st[k].calls += v[c].calls;
			st[k].errors += v[c].errors;
			st[k].ns += v[c].ns;
		}
	}
	free(v);
	if (!hist)
		return;
	uint64_t *h = xcalloc((size_t)ncpu, 8);
	for (uint32_t k = 0; k < SYSCALL_MAX * TRACE_HIST_BUCKETS; k++) {
		if (!st[k / TRACE_HIST_BUCKETS].calls || bpf_map_lookup_elem(b->map_fd[TM_HIST], &k, h))
			continue;
		for (int c = 0; c < ncpu; c++)
			hist[k] += h[c];
	}
	free(h);
}

static int exit_code_of(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 1;
}

/* one live trace: what run_live and its steps share */
typedef struct LiveRun {
	Cli *c;
	TraceOpts *o;
	FILE *out;
	FILE *rec;
	char *path;  /* the command, resolved */
	Live l;
	TraceBpf b;
	struct ring_buffer *rb;
	int go;      /* write end of the child's start pipe */
	int late;    /* SONDE_TRACE_TEST_LATE_CHILD's pipe, -1 without */
	pid_t child;
	int child_status;
	bool child_done;
} LiveRun;

/* record everything; report filters */
static void record_opts(TraceOpts *o)
{
	TraceOpts keep = *o;
	memset(o, 0, sizeof(*o));
	o->strsize = keep.strsize;
	o->follow = keep.follow;
	o->pids = keep.pids;
	o->npids = keep.npids;
	o->verbose = keep.verbose;
	o->quiet = keep.quiet;
	memcpy(o->sel, keep.sel, sizeof(o->sel));
	o->record_path = keep.out_path; /* the recording keeps times */
	o->events = keep.events;
	o->nevents = keep.nevents;
	o->no_syscalls = keep.no_syscalls;
	o->system_wide = keep.system_wide;
}

/* Opens the trace or the recording and resolves the command: -1 to go on,
 * else an exit status. */
static int live_open(LiveRun *r)
{
	Cli *c = r->c;
	TraceOpts *o = r->o;
	if (c->record) {
		if (!o->out_path) { /* as perf record: perf.data, the last one kept as .old */
			o->out_path = "perf.data";
			struct stat st;
			if (stat(o->out_path, &st) == 0 && st.st_size > 0)
				rename(o->out_path, "perf.data.old");
		}
		if (!(r->rec = fopen(o->out_path, "wbe"))) {
			fprintf(stderr, "sonde trace: cannot write '%s': %s\n", o->out_path, strerror(errno));
			return 1;
		}
		record_opts(o);
	} else if (o->out_path && !(r->out = fopen(o->out_path, "we"))) {
		fprintf(stderr, "sonde trace: cannot write '%s': %s\n", o->out_path, strerror(errno));
		return 1;
	}
	r->path = c->cmd ? command_path(c->cmd[0]) : NULL;
	if (c->cmd && !r->path) {
		fprintf(stderr, "sonde trace: cannot run '%s': command not found or not executable\n",
			c->cmd[0]);
		return 127;
	}
	return -1;
}

static void record_header(LiveRun *r)
{
	RecInfo info = {0};
	struct utsname u;
	uname(&u);
	snprintf(info.sysname, sizeof(info.sysname), "%s", u.sysname);
	snprintf(info.release, sizeof(info.release), "%s", u.release);
	snprintf(info.version, sizeof(info.version), "%s", u.version);
	snprintf(info.machine, sizeof(info.machine), "%s", u.machine);
	snprintf(info.nodename, sizeof(info.nodename), "%s", u.nodename);
	info.mono_to_real = r->l.pr.mono_to_real;
	info.main_pid = r->l.pr.main_pid;
	info.strsize = r->o->strsize;
	info.flags = r->o->follow ? 1 : 0;
	rec_write_header(r->rec, &info);
	for (int i = 0; i < r->b.nevents; i++)
		rec_write_event(r->rec, (uint32_t)i, r->b.events[i].cat, r->b.events[i].name,
				&r->b.events[i].fmt);
}

/* Loads the programs, starts the command (held until attached) or takes
 * the -p processes, and attaches; then lets the command run. */
static bool live_start(LiveRun *r)
{
	TraceOpts *o = r->o;
	char err[512];
	if (!load_events(&r->b, o, err, sizeof(err)) || !tbpf_load(&r->b, o, err, sizeof(err))) {
		fprintf(stderr, "sonde trace: %s\n", err);
		return false;
	}
	r->l.pr.events = r->b.events;
	r->l.pr.nevents = r->b.nevents;
	if (r->c->cmd) {
		r->child = start_child(r->path, r->c->cmd, &r->go, &r->late);
		if (r->child < 0) {
			fprintf(stderr, "sonde trace: fork: %s\n", strerror(errno));
			return false;
		}
		tbpf_add_pid(&r->b, r->child);
		r->l.pr.main_pid = r->child;
		r->l.pr.await_exec = (uint32_t)r->child;
		r->l.pr.nprocs = 1;
		printer_command_started(&r->l.pr, r->child);
	} else if (o->system_wide) {
		tbpf_exclude_pid(&r->b, getpid());
		r->l.pr.nprocs = INT_MAX / 2; /* every line says its pid */
	} else {
		for (int i = 0; i < o->npids; i++)
			tbpf_add_pid(&r->b, o->pids[i]);
		r->l.pr.main_pid = o->pids[0];
		r->l.pr.nprocs = o->npids;
	}
	if (r->rec)
		record_header(r);
	if (r->c->cmd)
		printer_snapshot_fds(&r->l.pr, (uint32_t)r->child, true, r->rec ? rec_fdname : NULL, &r->l);
	for (int i = 0; !r->c->cmd && !o->system_wide && i < o->npids; i++)
		printer_snapshot_fds(&r->l.pr, (uint32_t)o->pids[i], false, r->rec ? rec_fdname : NULL, &r->l);
	r->rb = ring_buffer__new(r->b.map_fd[TM_RING], on_record, &r->l, NULL);
	if (!r->rb) {
		fprintf(stderr, "sonde trace: cannot read the ring buffer\n");
		return false;
	}
	if (!tbpf_attach(&r->b, o, err, sizeof(err))) {
		fprintf(stderr, "sonde trace: %s\n", err);
		return false;
	}
	if (!r->c->cmd && !o->system_wide) { /* now traced: "Process N attached" */
		printer_attach_pids(&r->l.pr, o->pids, o->npids);
		printer_flush(&r->l.pr);
		fflush(r->out);
	}
	if (r->late >= 0) {
		if (write(r->late, "l", 1) != 1)
			perror("sonde trace: starting the command");
		close(r->late);
		r->late = -1;
	}
	if (r->go >= 0) {
		if (write(r->go, "g", 1) != 1)
			perror("sonde trace: starting the command");
		close(r->go);
		r->go = -1;
	}
	return true;
}

/* whether every traced process (and, with -f, descendant) has gone */
static bool all_gone(LiveRun *r)
{
	TraceOpts *o = r->o;
	if (r->child > 0 && !r->child_done &&
	    waitpid(r->child, &r->child_status, WNOHANG) == r->child)
		r->child_done = true;
	bool gone;
	if (o->system_wide) {
		gone = false; /* until Ctrl-C */
	} else if (r->child > 0) {
		gone = r->child_done && (!o->follow || tbpf_npids(&r->b) == 0);
		if (r->child_done && o->follow && !gone) {
			/* descendants still running: a bound on how long we wait for
			 * their exits to be seen is not needed, strace waits too */
		}
	} else {
		gone = true;
		for (int i = 0; i < o->npids; i++)
			if (kill(o->pids[i], 0) == 0 || errno != ESRCH)
				gone = false;
		if (o->follow && tbpf_npids(&r->b) > 0)
			gone = false;
	}
	return gone;
}

#define POLL_MS 20   /* records come without a wake-up: taken at least this often */
#define FLUSH_MS 50  /* output written at least this often while records flow */
#define CHECK_MS 100 /* whether the traced processes are gone, without a SIGCHLD */

/* Prints records until a signal, or until the traced processes are gone.
 * While records flow the loop only consumes: output is written when the
 * ring is drained or every FLUSH_MS, and the processes are looked at on
 * SIGCHLD or every CHECK_MS (a wait4 per batch cost more than the
 * formatting when batches are small). */
static void live_loop(LiveRun *r)
{
	uint64_t last_flush = now_ms(), last_check = last_flush;
	for (;;) {
		int n = ring_buffer__poll(r->rb, POLL_MS);
		if (n < 0 && n != -EINTR)
			break;
		if (n == 0)
			n = ring_buffer__consume(r->rb);
		uint64_t now = now_ms();
		if (n <= 0 || now - last_flush >= FLUSH_MS) {
			printer_flush(&r->l.pr);
			fflush(r->out);
			last_flush = now;
		}
		if (got_signal)
			break;
		if (!got_child && now - last_check < CHECK_MS)
			continue;
		got_child = 0;
		last_check = now;
		/* The traced tasks wrote their last records before they could be
		 * reaped (sched_process_exit comes before the parent is told), so
		 * once they are gone live_finish's consume sees everything. */
		if (all_gone(r))
			break;
	}
}

/* the last records, the summary, lost events and the end of a recording;
 * returns the exit status */
static int live_finish(LiveRun *r)
{
	TraceOpts *o = r->o;
	FILE *out = r->out;
	ring_buffer__consume(r->rb);
	if (got_signal) /* as strace, before the summary */
		printer_detach_all(&r->l.pr);
	printer_flush(&r->l.pr);
	if (o->count && !r->rec) {
		TraceStat st[SYSCALL_MAX];
		memset(st, 0, sizeof(st));
		uint64_t *hist = o->hist ? xcalloc(SYSCALL_MAX * TRACE_HIST_BUCKETS, 8) : NULL;
		sum_stats(&r->b, st, hist);
		if (o->hist)
			hist_print(out, hist, st);
		else
			summary_print(out, st, r->c->sort_calls);
		free(hist);
	} else if (o->count_and_print) {
		summary_print(out, r->l.pr.stats, r->c->sort_calls);
	}
	uint64_t lost = tbpf_lost(&r->b);
	if (r->rec) {
		uint64_t end[2] = {lost, (uint64_t)(uint32_t)r->l.pr.exit_status};
		rec_write_chunk(r->rec, CHUNK_END, end, sizeof(end));
	}
	if (lost)
		fprintf(out, "sonde trace: lost %llu events: the ring buffer was full\n",
			(unsigned long long)lost);
	uint64_t missed = tbpf_missed(&r->b);
	if (missed)
		fprintf(out, "sonde trace: lost %llu events: the kernel skipped a program while another "
			"ran on the same CPU\n", (unsigned long long)missed);
	fflush(out);
	if (r->child <= 0)
		return 0;
	if (!r->child_done) {
		if (got_signal)
			kill(r->child, SIGTERM);
		waitpid(r->child, &r->child_status, 0);
	}
	return exit_code_of(r->child_status);
}

static void live_close(LiveRun *r)
{
	if (r->late >= 0)
		close(r->late);
	if (r->go >= 0) {
		close(r->go);
		if (r->child > 0)
			waitpid(r->child, NULL, 0);
	}
	if (r->rb)
		ring_buffer__free(r->rb);
	tbpf_detach_async(&r->b, r->out != stderr ? fileno(r->out) : -1);
	tbpf_close(&r->b);
	printer_free(&r->l.pr);
	if (r->rec && fclose(r->rec) != 0)
		fprintf(stderr, "sonde trace: writing '%s': %s\n", r->o->record_path, strerror(errno));
	if (r->out != stderr)
		fclose(r->out);
	free(r->path);
}

static int run_live(Cli *c)
{
	LiveRun r = {.c = c, .o = &c->o, .out = stderr, .go = -1, .late = -1, .child = -1};
	int status = live_open(&r);
	if (status >= 0) {
		free(r.path);
		return status;
	}
	static char obuf[1 << 16];
	setvbuf(r.out, obuf, _IOFBF, sizeof(obuf));
	r.l.rec = r.rec;
	printer_init(&r.l.pr, r.o, r.out);
	r.l.pr.live = true;
	/* as strace: quiet with -q, and with -o FILE and a command */
	r.l.pr.attach_msgs = !r.o->quiet && !((r.o->out_path || r.o->record_path) && c->cmd);
	r.b.nprogs = 0;
	static const int stop[] = {SIGINT, SIGTERM, SIGHUP, 0}, child[] = {SIGCHLD, 0};
	handle_signals(on_signal, stop);
	handle_signals(on_child, child);
	status = 1;
	if (live_start(&r)) {
		live_loop(&r);
		status = live_finish(&r);
	}
	live_close(&r);
	return status;
}

int trace_main(int argc, char **argv)
{
	/* argv[0] is "trace" */
	Cli c = {0};
	bool report = argc > 1 && !strcmp(argv[1], "report");
	c.record = argc > 1 && !strcmp(argv[1], "record");
	if (report || c.record) {
		argc--;
		argv++;
	}
	int r = trace_parse(argc, argv, &c, report);
	if (r >= 0)
		return r;
	if (report)
		return trace_run_report(&c);
	if (geteuid() != 0 && access("/sys/kernel/tracing/events", R_OK) != 0) {
		/* capabilities may still allow it: let the kernel decide below */
	}
	return run_live(&c);
}
