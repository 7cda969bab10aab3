/* sonde probe: perf probe's options for user-space binaries (-x BIN or
 * -p PID) and, when its debug info is installed, the kernel.  Output and
 * messages as perf probe 6.1 prints them; the exit status is perf's (the
 * low byte of a negative errno). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../util/util.h"
#include "probe_event.h"

#define DEFAULT_FUNC_FILTER "!_* & !*@plt"
#define DEFAULT_VAR_FILTER "!__k???tab_* & !__crc_*"

typedef struct ProbeCli {
	char cmd; /* 'F', 'L', 'V', 'a', 'l', 'd' */
	const char *arg;
	VEC(char *) defs; /* -a */
	VEC(const char *) dels; /* -d */
	const char *exec;
	int pid;
	bool externs, no_inlines;
	StrFilter *filter;
} ProbeCli;

static void usage(FILE *f)
{
	fputs("\n Usage: sonde probe [<options>] --line 'LINEDESC'\n"
	      "    or: sonde probe [<options>] --vars 'PROBEPOINT'\n"
	      "    or: sonde probe [<options>] --funcs [FILTER]\n"
	      "\n"
	      "    -x, --exec <executable|path>  target executable name or path\n"
	      "    -p, --pid <pid>               the executable of this process\n"
	      "    -F, --funcs [FILTER]          show potential probe-able functions\n"
	      "        --filter <[!]FILTER>      a filter for --vars and --funcs (globs, ! & | ( ))\n"
	      "    -L, --line <FUNC[:RLN[+NUM|-RLN2]]|SRC:ALN[+NUM|-ALN2]>\n"
	      "                                  show source code lines\n"
	      "    -V, --vars <FUNC[@SRC][+OFF|%return|:RL|;PT]|SRC:AL|SRC;PT>\n"
	      "                                  show accessible variables on PROBEDEF\n"
	      "        --externs                 show external variables too (with --vars only)\n"
	      "        --no-inlines              don't search inlined functions\n"
	      "    -a, --add <[GROUP:]EVENT=]PROBEPOINT [ARG...]>\n"
	      "                                  add a uprobe event; ARG: [NAME=]VAR[->FIELD|.FIELD|[N]][:TYPE],\n"
	      "                                  $vars, $params, $retval, $comm\n"
	      "    -l, --list [[GROUP:]EVENT]    list the uprobe events\n"
	      "    -d, --del <[GROUP:]EVENT>     delete uprobe events (globs)\n",
	      f);
}

static int add_filter(ProbeCli *c, const char *expr)
{
	const char *err = NULL;
	StrFilter *f = strfilter_or(c->filter, expr, &err);
	if (!f) {
		probe_err("Filter parse error at %td.\n", err - expr + 1);
		probe_err("Source: \"%s\"\n", expr);
		probe_err("         %*c\n", (int)(err - expr + 1), '^');
		return -EINVAL;
	}
	c->filter = f;
	return 0;
}

static int set_cmd(ProbeCli *c, char cmd, const char *arg)
{
	if (c->cmd && c->cmd != cmd) {
		probe_err("  Error: switch `%c' cannot be used with switch `%c'\n", cmd, c->cmd);
		return -EINVAL;
	}
	c->cmd = cmd;
	c->arg = arg;
	return 0;
}

enum { OPT_FILTER = 256, OPT_EXTERNS, OPT_NO_INLINES };

static int parse(int argc, char **argv, ProbeCli *c)
{
	static const struct option longopts[] = {
		{"exec", required_argument, 0, 'x'},   {"pid", required_argument, 0, 'p'},
		{"funcs", optional_argument, 0, 'F'},  {"filter", required_argument, 0, OPT_FILTER},
		{"line", required_argument, 0, 'L'},   {"vars", required_argument, 0, 'V'},
		{"externs", no_argument, 0, OPT_EXTERNS}, {"no-inlines", no_argument, 0, OPT_NO_INLINES},
		{"add", required_argument, 0, 'a'},    {"list", optional_argument, 0, 'l'},
		{"del", required_argument, 0, 'd'},    {"help", no_argument, 0, 'h'},
		{0, 0, 0, 0},
	};
	int ch, r = 0;
	optind = 1;
	while (r == 0 && (ch = getopt_long(argc, argv, "x:p:F::L:V:a:l::d:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'x': c->exec = optarg; break;
		case 'p': c->pid = atoi(optarg); break;
		case 'F': {
			/* -F FILTER as a separate word, as perf takes it */
			const char *f = optarg;
			if (!f && optind < argc && argv[optind][0] != '-')
				f = argv[optind++];
			r = set_cmd(c, 'F', NULL);
			if (!r)
				r = add_filter(c, f ? f : DEFAULT_FUNC_FILTER);
			break;
		}
		case OPT_FILTER: r = add_filter(c, optarg); break;
		case 'L': r = set_cmd(c, 'L', optarg); break;
		case 'V': r = set_cmd(c, 'V', optarg); break;
		case 'a':
			if (!(r = set_cmd(c, 'a', NULL)))
				vec_push(&c->defs, optarg);
			break;
		case 'l':
			r = set_cmd(c, 'l', optarg ? optarg : optind < argc && argv[optind][0] != '-' ? argv[optind++] : NULL);
			break;
		case 'd':
			if (!(r = set_cmd(c, 'd', NULL)))
				vec_push(&c->dels, optarg);
			break;
		case OPT_EXTERNS: c->externs = true; break;
		case OPT_NO_INLINES: c->no_inlines = true; break;
		case 'h': usage(stdout); return 1;
		default: usage(stderr); return 129;
		}
	}
	if (r)
		return r;
	for (; optind < argc && (!c->cmd || c->cmd == 'a'); optind++) { /* PROBEDEF... */
		c->cmd = 'a';
		vec_push(&c->defs, argv[optind]);
	}
	if (!c->cmd || optind < argc) {
		usage(stderr);
		return 129;
	}
	return 0;
}

/* the kernel's DWARF: vmlinux with debug info, where Debian puts it */
static char *kernel_debuginfo(void)
{
	struct utsname u;
	const char *fmts[] = {"/usr/lib/debug/boot/vmlinux-%s", "/usr/lib/debug/lib/modules/%s/vmlinux",
			      "/lib/modules/%s/build/vmlinux", "/boot/vmlinux-%s"};
	uname(&u);
	for (size_t i = 0; i < sizeof(fmts) / sizeof(*fmts); i++) {
		StrBuf b = {0};
		sb_printf(&b, fmts[i], u.release);
		if (access(b.s, R_OK) == 0)
			return b.s;
		sb_free(&b);
	}
	probe_err("Failed to find the path for the kernel: %s\n", strerror(ENOENT));
	probe_err("sonde: the kernel's debug info is not installed: Debian's package "
		  "linux-image-%s-dbg provides it\n", u.release);
	return NULL;
}

static const char *failure_text(char cmd)
{
	switch (cmd) {
	case 'F': return "Failed to show functions.";
	case 'L': return "Failed to show lines.";
	case 'a': return "Failed to add events.";
	case 'l': return "Failed to list events.";
	case 'd': return "Failed to delete events.";
	default: return "Failed to show vars.";
	}
}

static int run(ProbeCli *cli, ProbeCtx *ctx)
{
	if (cli->cmd != 'F' && cli->cmd != 'a' && !ctx->di->dw) {
		probe_err("The %s file has no debug information.\n"
			  "Rebuild with -g, or install an appropriate debuginfo package.\n",
			  ctx->exec);
		return -ENOENT;
	}
	if (!cli->filter && cli->cmd == 'V')
		add_filter(cli, DEFAULT_VAR_FILTER);
	ctx->filter = cli->filter;
	switch (cli->cmd) {
	case 'F': return probe_show_funcs(ctx);
	case 'L': return probe_show_lines(ctx, cli->arg);
	case 'a': return probe_add_events(ctx, cli->defs.v, cli->defs.n);
	default: return probe_show_vars(ctx, cli->arg);
	}
}

int probe_main(int argc, char **argv)
{
	ProbeCli cli = {0};
	int r = parse(argc, argv, &cli);
	if (r)
		return r < 0 ? r & 0xff : r;
	ProbeCtx ctx = {.sym = sym_ctx_new()}; /* the run's readers */
	if (cli.cmd == 'l' || cli.cmd == 'd') { /* the events, whatever the binary */
		r = cli.cmd == 'l' ? probe_list_events(&ctx, cli.arg) : probe_del_events(cli.dels.v, cli.dels.n);
		fflush(stdout);
		if (r < 0)
			probe_err("  Error: %s\n", failure_text(cli.cmd));
		return r < 0 ? r & 0xff : r;
	}
	char path[PATH_MAX];
	char *kpath = NULL;
	if (cli.pid) {
		char exe[64];
		snprintf(exe, sizeof(exe), "/proc/%d/exe", cli.pid);
		ssize_t n = readlink(exe, path, sizeof(path) - 1);
		if (n < 0) {
			probe_err("Failed to find the executable of process %d: %s\n", cli.pid, strerror(errno));
			return 1;
		}
		path[n] = '\0';
	} else if (cli.exec) {
		if (!realpath(cli.exec, path)) {
			probe_err("Failed to get the absolute path of %s: %s\n", cli.exec, strerror(errno));
			usage(stderr);
			return 129;
		}
	} else if (!(kpath = kernel_debuginfo())) {
		probe_err("  Error: %s\n", failure_text(cli.cmd));
		return -ENOENT & 0xff;
	}
	ctx.exec = kpath ? kpath : path;
	ctx.externs = cli.externs;
	ctx.no_inlines = cli.no_inlines;
	ctx.di = debuginfo_get(ctx.sym, ctx.exec);
	fflush(stdout);
	r = run(&cli, &ctx);
	fflush(stdout);
	if (r < 0)
		probe_err("  Error: %s\n", failure_text(cli.cmd));
	free(kpath);
	return r < 0 ? r & 0xff : r;
}
