/* bpftrace's command line: options parsed as bpftrace 0.17 does, its
 * environment variables, the output files; then the run (run_bt.c). */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../export/metrics.h"
#include "../export/pprof.h"
#include "../sym/features.h"
#include "../sym/symctx.h"
#include "../util/clock.h"
#include "cli_bt.h"
#include "env_bt.h"
#include "generation_bt.h"
#include "tools_bt.h"
#include "cli_026.h"

static void usage(const BtCli *c, FILE *f)
{
	c->gen->cli->usage(f);
	if (c->usage_tail)
		c->usage_tail(f);
}

static bool parse_buffering(const char *s, Buffering *b)
{
	if (!strcmp(s, "none"))
		*b = BUF_NONE;
	else if (!strcmp(s, "line"))
		*b = BUF_LINE;
	else if (!strcmp(s, "full"))
		*b = BUF_FULL;
	else
		return false;
	return true;
}

/* -p as bpftrace 0.17 checks it: a decimal number in the kernel's
 * largest pid range (PID_MAX_LIMIT), then a live process. */
static bool parse_pid(const char *s, int *pid)
{
	char *end;
	errno = 0;
	long long n = strtoll(s, &end, 10);
	if (!*s || *end) {
		fprintf(stderr, "ERROR: pid '%s' is not a valid decimal number\n", s);
		return false;
	}
	if (errno || n < 1 || n > 4194304) {
		fprintf(stderr, "ERROR: pid '%s' out of valid pid range [1,4194304]\n", s);
		return false;
	}
	if (kill((pid_t)n, 0) < 0 && errno == ESRCH) {
		/* bpftrace 0.17's words, its empty name included */
		fprintf(stderr, "ERROR: : No such process\n");
		return false;
	}
	*pid = (int)n;
	return true;
}

enum { OPT_UNSAFE = 256, OPT_INFO, OPT_INCLUDE, OPT_TOOLS, OPT_TOOL, OPT_NO_WARNINGS, OPT_USDT_FILE,
       OPT_METRICS, OPT_VERIFY_IR, OPT_COMPAT,
       /* 0.26's own (BtCliRules.long_options); cli_026.c reads them */
       OPT_026 = 512 };

/* -d ast, -d bpf: one of sonde's dumps.  bpftrace's -d and -dd (its AST
 * after each pass, then LLVM IR) take no word: sonde has no LLVM, so they
 * print both of its dumps (the AST, then the BPF instructions).  The
 * option's argument is optional ("d::"): -dd, -dast, or "ast"/"bpf" as the
 * next word; a bare -d leaves the next word alone (the program file). */
static void parse_debug(BtCli *c, int argc, char **argv, const char *arg)
{
	if (!arg && optind < argc && (!strcmp(argv[optind], "ast") || !strcmp(argv[optind], "bpf")))
		arg = argv[optind++];
	c->debug = arg && (!strcmp(arg, "ast") || !strcmp(arg, "bpf")) ? arg : "all";
}

/* Returns -1 to go on, else an exit status. */
static int parse_args(int argc, char **argv, BtCli *c)
{
	static const struct option longopts[] = {
		BT_LONGOPTS_026(OPT_026),
		{"help", no_argument, 0, 'h'},	   {"version", no_argument, 0, 'V'},
		{"unsafe", no_argument, 0, OPT_UNSAFE}, {"info", no_argument, 0, OPT_INFO},
		{"include", required_argument, 0, OPT_INCLUDE},
		{"tools", no_argument, 0, OPT_TOOLS}, {"tool", required_argument, 0, OPT_TOOL},
		{"no-warnings", no_argument, 0, OPT_NO_WARNINGS},
		{"usdt-file-activation", no_argument, 0, OPT_USDT_FILE},
		{"metrics", required_argument, 0, OPT_METRICS},
		{"verify-llvm-ir", no_argument, 0, OPT_VERIFY_IR}, {"compat", required_argument, 0, OPT_COMPAT},
		{0, 0, 0, 0},
	};
	int ch;
	/* options may follow the program file or a positional parameter, as
	 * bpftrace's getopt permutes them (`sonde x.bt -c cmd`); `--` ends them */
	int li = -1;
	while ((ch = getopt_long(argc, argv, c->gen->cli->debug_stages ? "e:lvp:c:o:f:qB:d:hVI:kb"
								    : "e:lvp:c:o:f:qB:d::hVI:k",
				 longopts, &li)) != -1) {
		if (ch >= OPT_026) { /* 0.26's long options: their short one, or done */
			if ((ch = bt_option_026(c, ch - OPT_026, longopts[li].name)) < 0)
				return 1;
			if (!ch)
				continue;
		}
		switch (ch) {
		case 'e': c->program = optarg; break;
		case 'l': c->list = true; break;
		case 'v': c->run.verbose = true; c->list_verbose = true; break;
		case 'p':
			if (!(c->gen->cli->pid_words_026 ? bt_pid_026(optarg, &c->run.watch_pid)
							   : parse_pid(optarg, &c->run.watch_pid)))
				return 1;
			break;
		case 'c': c->cmd = optarg; break;
		case 'o': c->out_path = optarg; break;
		case 'q': c->run.quiet = true; break;
		case 'k': /* -k, -kk */
			if (!bt_warnings_opt(c))
				return 1;
			break;
		case 'd':
			if (!c->gen->cli->debug_stages)
				parse_debug(c, argc, argv, optarg);
			else if (!bt_debug_stages(c, optarg))
				return 1;
			break;
		case 'b': break; /* 0.26's --btf: BTF is always used */
		case OPT_UNSAFE: c->opt.unsafe = true; break;
		case OPT_INFO: c->info = true; break;
		case OPT_TOOLS: return tools_list(stdout);
		case OPT_TOOL:
			if (!(c->file = tool_path(optarg)))
				return 1;
			break;
		case OPT_NO_WARNINGS:
			if (c->gen->cli->long_options && c->opt.helper_check) {
				fprintf(stderr, "ERROR: USAGE: -k, --warnings conflicts with --no-warnings\n");
				return 1;
			}
			c->no_warnings = c->run.no_warnings = true;
			break;
		/* USDT semaphores are set by the kernel (uprobe ref_ctr_offset) in
		 * every process that maps the file, which is what bpftrace's flag
		 * asks for: accepted, nothing more to do */
		case OPT_USDT_FILE: break;
		case OPT_METRICS: c->metrics = optarg; break;
		case OPT_VERIFY_IR: c->verify_ir = true; break;
		case OPT_COMPAT:
			if (!(c->gen = bt_generation_named(optarg))) {
				bt_generation_unknown("--compat", optarg);
				return 1;
			}
			break;
		case 'I': /* C headers: #include looks here (kernel types) */
			c->opt.include_dirs = realloc(c->opt.include_dirs,
						      sizeof(char *) * (size_t)(c->opt.ninclude_dirs + 1));
			c->opt.include_dirs[c->opt.ninclude_dirs++] = optarg;
			break;
		case OPT_INCLUDE:
			c->opt.include_files = realloc(c->opt.include_files,
						       sizeof(char *) * (size_t)(c->opt.ninclude_files + 1));
			c->opt.include_files[c->opt.ninclude_files++] = optarg;
			break;
		case 'f':
			if (!strcmp(optarg, "json"))
				c->run.fmt = OUT_JSON;
			else if (!strcmp(optarg, "folded"))
				c->run.fmt = OUT_FOLDED;
			else if (!strcmp(optarg, "pprof"))
				c->pprof = true;
			else if (strcmp(optarg, "text")) {
				fprintf(stderr, "ERROR: Invalid output format \"%s\"\n"
					"Valid formats: 'text', 'json', 'folded', 'pprof'\n", optarg);
				return 1;
			}
			break;
		case 'B':
			if (!parse_buffering(optarg, &c->run.buffering)) {
				fprintf(stderr, "ERROR: USAGE: -B must be either 'line', 'full', or 'none'.\n");
				return 1;
			}
			break;
		case 'h': usage(c, stdout); return 0;
		case 'V': c->gen->cli->version(stdout); return 0;
		default: usage(c, stderr); return 1;
		}
	}
	if (c->gen->cli->long_options && c->cmd && c->run.watch_pid) {
		fprintf(stderr, "ERROR: USAGE: Cannot use both -c and -p.\n");
		usage(c, stderr);
		return 1;
	}
	if (c->list && optind < argc)
		c->list_pattern = argv[optind++];
	if (c->list && optind < argc) { /* bpftrace: -l takes one pattern, no program */
		usage(c, stderr);
		return 1;
	}
	if (!c->program && !c->list && !c->info && !c->file && optind < argc)
		c->file = argv[optind++];
	c->opt.params = argv + optind;
	c->opt.nparams = argc - optind;
	if (c->gen->cli->named_params)
		bt_split_named_params(c);
	if (c->verify_ir && c->run.verbose)
		fprintf(stderr, "sonde: --verify-llvm-ir: sonde compiles to BPF without LLVM; "
			"the kernel's verifier checks the programs\n");
	if (c->file && strrchr(c->file, '/')) /* #include "x.h" next to the script */
		c->opt.script_dir = strndup(c->file, (size_t)(strrchr(c->file, '/') - c->file + 1));
	return -1;
}

/* bpftrace's environment variables into the options; false after a message */
static bool options_from_env(BtCli *c)
{
	uint64_t strlen_max, keys_max, cat_max;
	c->max_bpf_progs = 512;
	c->run.rb_pages_set = getenv("BPFTRACE_PERF_RB_PAGES") != NULL;
	if (!env_ranged("BPFTRACE_STRLEN", 64, 1, 1 << 20, &strlen_max) ||
	    !env_ranged("BPFTRACE_MAP_KEYS_MAX", 4096, 1, 1 << 24, &keys_max) ||
	    !env_ranged("BPFTRACE_CAT_BYTES_MAX", 10240, 0, 1 << 30, &cat_max) ||
	    !env_uint64("BPFTRACE_PERF_RB_PAGES", &c->run.rb_pages) ||
	    !env_uint64("BPFTRACE_MAX_BPF_PROGS", &c->max_bpf_progs) || !env_check_unused())
		return false;
	c->opt.strlen_max = (int)strlen_max;
	c->opt.map_keys_max = (int)keys_max;
	c->opt.no_user_symbols = env_switch_on("BPFTRACE_NO_USER_SYMBOLS");
	c->run.cat_bytes_max = (size_t)cat_max;
	return true;
}

/* -o FILE, or -f pprof's profile in it; false after a message */
static bool open_output(BtCli *c, Pprof **pp)
{
	if (c->pprof) { /* the -o file is the profile's; text goes to stdout */
		char err[512];
		if (!c->out_path) {
			fprintf(stderr, "ERROR: -f pprof writes a binary profile: name its file with -o FILE\n");
			return false;
		}
		if (!(*pp = pprof_new(c->out_path, err, sizeof(err)))) {
			fprintf(stderr, "sonde: %s\n", err);
			return false;
		}
		c->run.maps_sink = pprof_sink(*pp);
		c->run.fmt = OUT_TEXT;
	} else if (c->out_path && !(c->run.out = fopen(c->out_path, "w"))) {
		fprintf(stderr, "ERROR: Failed to open output file: \"%s\": %s\n", c->out_path,
			strerror(errno));
		return false;
	}
	return true;
}

/* --metrics ADDR:PORT: a bad address stops sonde before it compiles */
static bool start_metrics(BtCli *c, MetricsServer **ms)
{
	if (!c->metrics)
		return true;
	char err[512];
	if (!(*ms = metrics_server_new(c->metrics, c->run.quiet, err, sizeof(err)))) {
		fprintf(stderr, "sonde: %s\n", err);
		return false;
	}
	c->run.service = metrics_server_service(*ms);
	return true;
}

/* The program's run, between its outputs being opened and closed */
static int run_with_outputs(BtCli *c)
{
	Pprof *pp = NULL;
	MetricsServer *ms = NULL;
	if (!open_output(c, &pp))
		return 1;
	int status = 1;
	if (start_metrics(c, &ms))
		status = bt_run_program(c);
	metrics_server_free(ms);
	pprof_free(pp);
	if (c->run.out)
		fclose(c->run.out);
	return status;
}

int bt_cli_main(int argc, char **argv, void (*usage_tail)(FILE *f))
{
	BtCli c = {.usage_tail = usage_tail};
	c.opt.sym = c.opt.target.sym = sym_ctx_new(); /* the run's readers */
	c.run.notify_attached = getenv("__BPFTRACE_NOTIFY_PROBES_ATTACHED") != NULL;
	c.opt.ts_map = getenv("BPFTRACE_DUMMY_TS_MAP"); /* bpftrace's tests' clock for tseries() */
	if (!(c.gen = bt_generation_from_env()))
		return 1;
	if (argc < 2) {
		usage(&c, stderr);
		return 1;
	}
	int r = parse_args(argc, argv, &c);
	if (r >= 0)
		return r;
	if (c.info) {
		features_print(stdout);
		return 0;
	}
	if (c.list)
		return bt_list_probes(&c);
	if ((!c.program || !*c.program) && !c.file) { /* options, but nothing to run (-e '') */
		fprintf(stderr, "ERROR: USAGE: filename or -e 'program' required.\n");
		return 1;
	}
	if (!c.gen->cli->config_vars && !options_from_env(&c)) /* 0.26's: with the script's config block */
		return 1;
	frontend_use(&c.gen->fe, &c.opt, &c.run); /* the bpftrace dialect, in its generation */
	c.opt.self_pid = getpid();
	c.opt.start_ns = mono_ns();
	return run_with_outputs(&c);
}
