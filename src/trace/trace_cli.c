/* sonde trace's options: strace's spellings (-f -p -e -z -Z -T -t -tt -ttt
 * -r -y -s -o -c -C -S) and sonde's (--hist, --duration, --event...). */
#include "trace_cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "../sym/tracefs.h"
#include "../util/util.h"
#include "syscalls.h"

static void usage(FILE *f)
{
	fputs("usage: sonde trace [options] -- CMD [ARGS...]\n"
	      "       sonde trace [options] -p PID[,PID...]\n"
	      "       sonde trace [options] [-a]      (the whole system, until Ctrl-C)\n"
	      "       sonde trace record [-o FILE] [options] [-- CMD [ARGS...]]\n"
	      "       sonde trace report [options] [FILE]   (default: perf.data)\n"
	      "\n"
	      "  -f             follow forks ([pid N] prefixes)\n"
	      "  -p PID,...     trace running processes\n"
	      "  -a             every process but sonde (the default without CMD or -p)\n"
	      "  -e trace=SET   calls to trace: names, %file %network %process %memory\n"
	      "                 %signal %ipc %desc (also without %), !SET to exclude\n"
	      "  -z, -Z         only successful / only failed calls\n"
	      "  -T             time spent in each call\n"
	      "  -t, -tt, -ttt  wall-clock timestamps; -r relative timestamps\n"
	      "  -y             print paths of file descriptors\n"
	      "  -s N           bytes of strings and buffers shown (default 32)\n"
	      "  -o FILE        write the trace to FILE (default: stderr)\n"
	      "  -c, -C         summary table (counted in the kernel) / with the trace\n"
	      "  -S calls       sort the summary by calls (default: time)\n"
	      "  --hist         per-call latency histograms (kept in the kernel)\n"
	      "  --duration MS  only calls that took at least MS milliseconds\n"
	      "  --event CAT:NAME[,...]  mix tracepoint events into the trace (globs:\n"
	      "                 'sched:*process_exec', 'syscalls:sys_enter_open*')\n"
	      "  --no-syscalls  only the --event events\n"
	      "  -q             no \"Process N attached/detached\" messages\n"
	      "  -v             verifier logs\n",
	      f);
}


static bool parse_pids(const char *s, TraceOpts *o)
{
	char *copy = xstrdup(s), *save = NULL;
	bool ok = true;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *end;
		long v = strtol(t, &end, 10);
		if (*end || v <= 0 || v > 0x7fffffff || (kill((pid_t)v, 0) < 0 && errno == ESRCH)) {
			fprintf(stderr, "sonde trace: -p %s: no such process\n", t);
			ok = false;
			break;
		}
		o->pids = xrealloc(o->pids, sizeof(int) * (size_t)(o->npids + 1));
		o->pids[o->npids++] = (int)v;
	}
	free(copy);
	return ok;
}

static void add_event(TraceOpts *o, const char *cat, const char *name)
{
	for (int i = 0; i < o->nevents; i++) {
		const char *e = o->events[i], *colon = strchr(e, ':');
		if ((size_t)(colon - e) == strlen(cat) && !strncmp(e, cat, strlen(cat)) &&
		    !strcmp(colon + 1, name))
			return; /* named twice (two globs): attached once */
	}
	o->events = xrealloc(o->events, sizeof(char *) * (size_t)(o->nevents + 1));
	size_t n = strlen(cat) + strlen(name) + 2;
	o->events[o->nevents] = xmalloc(n);
	snprintf(o->events[o->nevents++], n, "%s:%s", cat, name);
}

static void add_event_cb(const char *cat, const char *name, void *arg)
{
	add_event(arg, cat, name);
}

/* --event CAT:NAME[,...]; a glob in either part (as perf trace takes
 * them) stands for every tracepoint it matches */
static bool add_events(TraceOpts *o, const char *arg)
{
	char *copy = xstrdup(arg), *save = NULL;
	bool ok = true;
	for (char *t = strtok_r(copy, ",", &save); t && ok; t = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(t, ':');
		if (!colon || colon == t || !colon[1]) {
			fprintf(stderr, "sonde trace: --event takes CATEGORY:NAME, not '%s'\n", t);
			ok = false;
			break;
		}
		*colon = 0;
		if (!strpbrk(t, "*?[") && !strpbrk(colon + 1, "*?[")) {
			add_event(o, t, colon + 1);
		} else if (!tracefs_foreach(t, colon + 1, add_event_cb, o)) {
			fprintf(stderr, "sonde trace: --event %s:%s: no tracepoint matches\n", t, colon + 1);
			ok = false;
		}
	}
	free(copy);
	return ok;
}

/* the options that take a number: -s and --duration */
static bool parse_number_opt(int ch, const char *arg, TraceOpts *o)
{
	char *end;
	if (ch == 's') {
		long v = strtol(arg, &end, 10);
		if (*end || !*arg || v < 0) {
			fprintf(stderr, "sonde trace: -s takes a number of bytes, not '%s'\n", arg);
			return false;
		}
		/* strace takes any size; a capture holds at most 65535 bytes */
		o->strsize = (int)(v > 65535 ? 65535 : v);
		return true;
	}
	double ms = strtod(arg, &end);
	if (*end || ms < 0) {
		fprintf(stderr, "sonde trace: --duration takes milliseconds, not '%s'\n", arg);
		return false;
	}
	o->min_dur_ns = (uint64_t)(ms * 1e6);
	return true;
}

/* One option from getopt_long: -1 to go on, else an exit status. */
static int parse_opt(int ch, Cli *c, bool report, bool *seen_trace)
{
	TraceOpts *o = &c->o;
	char err[256];
	switch (ch) {
	case 'f': o->follow = true; break;
	case 'a': o->system_wide = true; break;
	case 'p':
		if (report || !parse_pids(optarg, o))
			return report ? (fprintf(stderr, "sonde trace report: -p is for live tracing\n"), 1) : 1;
		break;
	case 'e':
		if (!syscall_select(optarg, o->sel, seen_trace, err, sizeof(err))) {
			fprintf(stderr, "sonde trace: %s\n", err);
			return 1;
		}
		break;
	case 'z': o->only_ok = true; break;
	case 'Z': o->only_fail = true; break;
	case 'T': o->show_time = true; break;
	case 't': o->tstamp++; break;
	case 'r': o->relative = true; break;
	case 'y': o->fd_paths = true; break;
	case 's': case O_DURATION:
		if (!parse_number_opt(ch, optarg, o))
			return 1;
		break;
	case 'o': o->out_path = optarg; break;
	case 'c': o->count = true; break;
	case 'C': o->count = o->count_and_print = true; break;
	case 'S':
		if (strcmp(optarg, "calls") && strcmp(optarg, "time")) {
			fprintf(stderr, "sonde trace: -S takes 'calls' or 'time'\n");
			return 1;
		}
		c->sort_calls = !strcmp(optarg, "calls");
		break;
	case 'v': o->verbose = true; break;
	case 'q': o->quiet = true; break;
	case O_HIST: o->hist = o->count = true; break;
	case O_EVENT:
		if (!add_events(o, optarg))
			return 1;
		break;
	case O_NOSYS: o->no_syscalls = true; break;
	case 'h': usage(stdout); return 0;
	default: usage(stderr); return 1;
	}
	return -1;
}

/* The operands after the options: -1 to go on, else an exit status. */
static int parse_operands(int argc, char **argv, Cli *c, bool report)
{
	TraceOpts *o = &c->o;
	if (report) {
		c->report_file = optind < argc ? argv[optind] : "perf.data"; /* as perf report */
		return -1;
	}
	if (optind < argc)
		c->cmd = argv + optind;
	if ((c->cmd != NULL) + (o->npids > 0) + o->system_wide > 1) {
		fprintf(stderr, "sonde trace: give a command, -p or -a, not two of them\n");
		return 1;
	}
	if (!c->cmd && !o->npids)
		o->system_wide = true; /* as perf trace: the whole system */
	if (o->system_wide && o->follow) /* every process is traced already */
		o->follow = false;
	if (o->no_syscalls && !o->nevents) {
		fprintf(stderr, "sonde trace: --no-syscalls needs --event\n");
		return 1;
	}
	if (o->count && o->count_and_print)
		o->count = false, o->count_and_print = true;
	return -1;
}

/* Returns -1 to go on, else an exit status. */
int trace_parse(int argc, char **argv, Cli *c, bool report)
{
	static const struct option lo[] = {
		{"hist", no_argument, 0, O_HIST},     {"duration", required_argument, 0, O_DURATION},
		{"event", required_argument, 0, O_EVENT}, {"no-syscalls", no_argument, 0, O_NOSYS},
		{"help", no_argument, 0, 'h'},       {0, 0, 0, 0}};
	TraceOpts *o = &c->o;
	bool seen_trace = false;
	o->strsize = 32;
	for (int i = 0; i < SYSCALL_MAX; i++)
		o->sel[i] = syscall_table_name(i) != NULL;
	optind = 1;
	int ch;
	/* getopt's own messages start with argv[0] */
	char *argv0 = argv[0];
	argv[0] = report ? "sonde trace report" : c->record ? "sonde trace record" : "sonde trace";
	while ((ch = getopt_long(argc, argv, "+afp:e:zZTtrys:o:cCS:vqh", lo, NULL)) != -1) {
		int r = parse_opt(ch, c, report, &seen_trace);
		if (r >= 0) {
			argv[0] = argv0;
			return r;
		}
	}
	argv[0] = argv0;
	return parse_operands(argc, argv, c, report);
}
