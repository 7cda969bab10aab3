/* sonde flamegraph: sample stacks with a sonde script run by this same
 * binary (-f folded into a temporary file), then draw the SVG.  Running the
 * script through the ordinary command line keeps one path for compiling,
 * attaching, -c/-p handling and detaching; this file only builds the
 * script and the picture. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../util/util.h"
#include "flame.h"

typedef struct FlameCli {
	int pid;             /* -p */
	int hz;              /* -F */
	double seconds;      /* -d, 0 = until the command exits or Ctrl-C */
	const char *out;     /* -o */
	const char *folded;  /* --from-folded FILE|- */
	const char *title;   /* --title */
	int width;           /* --width */
	bool off_cpu;        /* --off-cpu */
	bool emit_folded;    /* --folded: the folded stacks instead of an SVG */
	const char *pprof;   /* --pprof FILE: a pprof profile instead of an SVG */
	char **cmd;          /* after -- */
	bool python;         /* the target runs CPython: Python frames too */
} FlameCli;

static void usage(FILE *f)
{
	fputs("USAGE:\n"
	      "    sonde flamegraph [options] [-p PID | -- CMD [ARGS...]]\n"
	      "    sonde flamegraph --from-folded FILE|- [-o out.svg]\n"
	      "\n"
	      "Samples on-CPU stacks (kernel and user) of PID, of CMD, or of every process,\n"
	      "and writes an interactive SVG flame graph (hover: frame and share; click: zoom;\n"
	      "Ctrl-F: search; Reset).  A CPython 3.11 PID or CMD gets its Python frames,\n"
	      "merged with the native frames they call.\n"
	      "\n"
	      "OPTIONS:\n"
	      "    -p PID              sample this process only (until it exits)\n"
	      "    -F HZ               samples per second per CPU (default 99)\n"
	      "    -d SECONDS          stop after SECONDS (default: when CMD or PID exits, or Ctrl-C)\n"
	      "    -o FILE             output file (default flamegraph.svg; stdout for --from-folded)\n"
	      "    --off-cpu           time blocked off-CPU by stack (sched_switch), in microseconds\n"
	      "    --from-folded FILE  draw folded stacks (\"a;b;c COUNT\" lines) from FILE or - (stdin)\n"
	      "    --folded            write the sampled folded stacks instead of an SVG\n"
	      "    --pprof FILE        write a gzipped pprof profile instead (go tool pprof, Pyroscope,\n"
	      "                        Parca): samples, or nanoseconds off-CPU; functions, build ids\n"
	      "    --title TEXT        title of the graph\n"
	      "    --width PIXELS      width of the graph (default 1200)\n"
	      "    -h, --help          this help\n"
	      "\n"
	      "EXAMPLES:\n"
	      "    sonde flamegraph -o app.svg -- ./app --bench\n"
	      "    sonde flamegraph -p 1234 -F 999 -d 10 -o busy.svg\n"
	      "    sonde flamegraph --pprof app.pb.gz -- ./app && go tool pprof -top app.pb.gz\n"
	      "    perf script | stackcollapse-perf.pl | sonde flamegraph --from-folded - > perf.svg\n",
	      f);
}

enum { OPT_FROM_FOLDED = 256, OPT_OFF_CPU, OPT_FOLDED, OPT_TITLE, OPT_WIDTH, OPT_PPROF };

static bool parse_num_in(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

/* Returns -1 to go on, else an exit status. */
static int parse_args(int argc, char **argv, FlameCli *c)
{
	static const struct option longopts[] = {
		{"help", no_argument, 0, 'h'},
		{"from-folded", required_argument, 0, OPT_FROM_FOLDED},
		{"off-cpu", no_argument, 0, OPT_OFF_CPU},
		{"folded", no_argument, 0, OPT_FOLDED},
		{"title", required_argument, 0, OPT_TITLE},
		{"width", required_argument, 0, OPT_WIDTH},
		{"pprof", required_argument, 0, OPT_PPROF},
		{0, 0, 0, 0},
	};
	int ch;
	double v;
	while ((ch = getopt_long(argc, argv, "+p:F:d:o:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'p':
			if (!parse_num_in(optarg, 1, 1 << 30, &v) || kill((pid_t)v, 0) < 0) {
				fprintf(stderr, "sonde flamegraph: -p %s: no such process\n", optarg);
				return 1;
			}
			c->pid = (int)v;
			break;
		case 'F':
			if (!parse_num_in(optarg, 1, 100000, &v)) {
				fprintf(stderr, "sonde flamegraph: -F takes a frequency from 1 to 100000 Hz, not '%s'\n",
					optarg);
				return 1;
			}
			c->hz = (int)v;
			break;
		case 'd':
			if (!parse_num_in(optarg, 0.001, 1e7, &c->seconds)) {
				fprintf(stderr, "sonde flamegraph: -d takes a number of seconds, not '%s'\n", optarg);
				return 1;
			}
			break;
		case 'o': c->out = optarg; break;
		case OPT_FROM_FOLDED: c->folded = optarg; break;
		case OPT_OFF_CPU: c->off_cpu = true; break;
		case OPT_FOLDED: c->emit_folded = true; break;
		case OPT_PPROF: c->pprof = optarg; break;
		case OPT_TITLE: c->title = optarg; break;
		case OPT_WIDTH:
			if (!parse_num_in(optarg, 200, 100000, &v)) {
				fprintf(stderr, "sonde flamegraph: --width takes 200 to 100000 pixels, not '%s'\n",
					optarg);
				return 1;
			}
			c->width = (int)v;
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 1;
		}
	}
	if (optind < argc)
		c->cmd = argv + optind;
	if (c->cmd && c->pid) {
		fprintf(stderr, "sonde flamegraph: -p and a command exclude each other\n");
		return 1;
	}
	if (c->folded && (c->cmd || c->pid || c->off_cpu)) {
		fprintf(stderr, "sonde flamegraph: --from-folded draws a file; it samples nothing\n");
		return 1;
	}
	if (c->pprof && (c->folded || c->emit_folded || c->out)) {
		fprintf(stderr, "sonde flamegraph: --pprof writes a profile of what it samples: not with "
			"--from-folded (folded text has no addresses, modules or build ids), --folded or -o\n");
		return 1;
	}
	return -1;
}

/* The sampling program, in sonde's language. */
static char *build_script(const FlameCli *c)
{
	char filter[64] = "pid != 0"; /* every process, not the idle task */
	if (c->pid)
		snprintf(filter, sizeof(filter), "pid == %d", c->pid);
	else if (c->cmd)
		snprintf(filter, sizeof(filter), "pid == cpid");
	StrBuf sb = {0};
	if (!c->off_cpu) {
		sb_printf(&sb, "profile:hz:%d /%s/ { @[comm, kstack, %sustack] = count(); }\n", c->hz,
			  filter, c->python ? "pystack, " : "");
	} else {
		/* at sched_switch the running task is the one leaving the CPU:
		 * keep its stacks and the time, and charge the time it was away
		 * to those stacks when it is switched back in; a profile keeps
		 * nanoseconds (the map's name gives -f pprof its unit) */
		const char *map = c->pprof ? "@off_cpu_ns" : "@", *scale = c->pprof ? "" : " / 1000";
		bool py = c->python;
		sb_printf(&sb,
			  "tracepoint:sched:sched_switch /%s/ {\n"
			  "\t@ks[tid] = kstack; @us[tid] = ustack;%s @t[tid] = nsecs;\n}\n"
			  "tracepoint:sched:sched_switch /@t[args->next_pid]/ {\n"
			  "\t$n = args->next_pid;\n"
			  "\t%s[args->next_comm, @ks[$n], %s@us[$n]] = sum((nsecs - @t[$n])%s);\n"
			  "\tdelete(@t[$n]); delete(@ks[$n]); delete(@us[$n]);%s\n}\n"
			  "END { clear(@t); clear(@ks); clear(@us);%s }\n",
			  filter, py ? " @ps[tid] = pystack;" : "", map, py ? "@ps[$n], " : "", scale,
			  py ? " delete(@ps[$n]);" : "", py ? " clear(@ps);" : "");
	}
	if (c->seconds > 0)
		sb_printf(&sb, "interval:ms:%ld { exit(); }\n", (long)(c->seconds * 1000 + 0.5));
	return sb.s;
}

/* The command after -- as one -c string: every word single-quoted. */
static char *quote_cmd(char **cmd)
{
	StrBuf sb = {0};
	for (; *cmd; cmd++) {
		if (sb.len)
			sb_putc(&sb, ' ');
		sb_putc(&sb, '\'');
		for (const char *p = *cmd; *p; p++)
			sb_puts(&sb, *p == '\'' ? "'\\''" : (char[]){*p, 0});
		sb_putc(&sb, '\'');
	}
	return sb.s;
}

/* the sampler forward_signal passes SIGINT/SIGTERM to: a global, as a
 * signal handler takes no context */
static pid_t sampler_pid; /* signal handler */

static void forward_signal(int sig)
{
	if (sampler_pid > 0)
		kill(sampler_pid, sig);
}

/* Runs `sonde -q -f folded -o PATH -e SCRIPT [-p PID | -c CMD]` (-f pprof
 * -o FILE for --pprof, its text output dropped); returns its exit status. */
static int run_sampler(const FlameCli *c, const char *path)
{
	char *script = build_script(c), *cmd = c->cmd ? quote_cmd(c->cmd) : NULL;
	char pidbuf[16];
	const char *argv[16];
	int n = 0;
	argv[n++] = "sonde";
	argv[n++] = "-q";
	argv[n++] = "-f";
	argv[n++] = c->pprof ? "pprof" : "folded";
	argv[n++] = "-o";
	argv[n++] = c->pprof ? c->pprof : path;
	if (c->pid) {
		snprintf(pidbuf, sizeof(pidbuf), "%d", c->pid);
		argv[n++] = "-p";
		argv[n++] = pidbuf;
	} else if (cmd) {
		argv[n++] = "-c";
		argv[n++] = cmd;
	}
	argv[n++] = "-e";
	argv[n++] = script;
	argv[n] = NULL;
	pid_t p = fork();
	if (p == 0) {
		int null = c->pprof ? open("/dev/null", O_WRONLY) : -1;
		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execv("/proc/self/exe", (char **)argv);
		fprintf(stderr, "sonde flamegraph: cannot run sonde: %s\n", strerror(errno));
		_exit(127);
	}
	int status = 1;
	if (p > 0) {
		/* Ctrl-C reaches the sampler too (same process group): it stops,
		 * writes its maps and exits; this process waits for that */
		sampler_pid = p;
		static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, 0};
		handle_signals(forward_signal, sigs);
		while (waitpid(p, &status, 0) < 0 && errno == EINTR)
			;
		status = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	}
	free(script);
	free(cmd);
	return status;
}

static int draw(const FlameCli *c, FILE *in, const char *out_path)
{
	FlameTree t;
	flame_tree_read(&t, in);
	if (t.bad)
		fprintf(stderr, "sonde flamegraph: %ld of %ld lines are not 'frame;frame;... COUNT': skipped\n",
			t.bad, t.lines);
	if (!t.root.value)
		fprintf(stderr, "sonde flamegraph: no samples: the graph is empty\n");
	FILE *out = strcmp(out_path, "-") ? fopen(out_path, "w") : stdout;
	if (!out) {
		fprintf(stderr, "sonde flamegraph: cannot write '%s': %s\n", out_path, strerror(errno));
		flame_tree_free(&t);
		return 1;
	}
	FlameSvgOpts o = {
		.title = c->title ? c->title : c->off_cpu ? "Off-CPU Time Flame Graph" : "Flame Graph",
		.units = c->off_cpu ? "us" : "samples",
		.width = c->width ? c->width : 1200,
	};
	flame_svg_write(out, &t, &o);
	int bad = ferror(out);
	if (out != stdout)
		bad |= fclose(out);
	else
		bad |= fflush(out);
	if (out != stdout && !bad)
		fprintf(stderr, "sonde flamegraph: wrote %s (%llu %s)\n", out_path,
			(unsigned long long)t.root.value, o.units);
	flame_tree_free(&t);
	return bad ? 1 : 0;
}

static int copy_file(FILE *in, const char *out_path)
{
	FILE *out = strcmp(out_path, "-") ? fopen(out_path, "w") : stdout;
	if (!out) {
		fprintf(stderr, "sonde flamegraph: cannot write '%s': %s\n", out_path, strerror(errno));
		return 1;
	}
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	int bad = out != stdout ? fclose(out) : fflush(out);
	return bad ? 1 : 0;
}

static int from_folded(const FlameCli *c)
{
	FILE *in = strcmp(c->folded, "-") ? fopen(c->folded, "r") : stdin;
	if (!in) {
		fprintf(stderr, "sonde flamegraph: cannot read '%s': %s\n", c->folded, strerror(errno));
		return 1;
	}
	int r = draw(c, in, c->out ? c->out : "-");
	if (in != stdin)
		fclose(in);
	return r;
}

int flamegraph_main(int argc, char **argv)
{
	FlameCli c = {.hz = 99};
	int r = parse_args(argc, argv, &c);
	if (r >= 0)
		return r;
	if (c.folded)
		return from_folded(&c);
	/* -f folded and -f pprof merge the Python frames with the native ones
	 * (runtime/stack_merge.c) */
	c.python = (c.pid || c.cmd) && flame_target_python(c.pid, c.cmd);
	if (c.pprof) { /* the sampler writes the profile itself */
		int status = run_sampler(&c, NULL);
		if (!status)
			fprintf(stderr, "sonde flamegraph: wrote %s\n", c.pprof);
		return status;
	}
	char tmp[] = "/tmp/sonde-flame-XXXXXX";
	int fd = mkstemp(tmp);
	if (fd < 0) {
		fprintf(stderr, "sonde flamegraph: cannot create a temporary file: %s\n", strerror(errno));
		return 1;
	}
	int status = run_sampler(&c, tmp);
	FILE *in = fdopen(fd, "r");
	unlink(tmp);
	if (status == 0 && in) {
		const char *out = c.out ? c.out : c.emit_folded ? "-" : "flamegraph.svg";
		status = c.emit_folded ? copy_file(in, out) : draw(&c, in, out);
	}
	if (in)
		fclose(in);
	return status;
}
