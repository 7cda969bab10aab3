/* sonde: command line.  Parses options as bpftrace 0.17 does, then runs
 * the pipeline: parse -> sema/codegen -> load/attach -> events -> maps. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wordexp.h>

#include "cli/env.h"
#include "cli/tools.h"
#include "bpf/disasm.h"
#include "bt/frontend_bt.h"
#include "bt/sema_bt.h"
#include "compile/script.h"
#include "dtrace/dtrace.h"
#include "export/metrics.h"
#include "export/pprof.h"
#include "flame/flame.h"
#include "lang/ast.h"
#include "probe/probe.h"
#include "probes/list_pattern.h"
#include "probes/list_types.h"
#include "python/pystack.h"
#include "sym/pylayout.h"
#include "sym/tracefs.h"
#include "sym/features.h"
#include "runtime/runtime.h"
#include "trace/trace.h"
#include "util/phase_time.h"
#include "util/clock.h"
#include "util/proc.h"

#ifndef SONDE_VERSION
#define SONDE_VERSION "dev"
#endif

typedef struct Cli {
	const char *program;  /* -e */
	const char *file;     /* FILE or "-" */
	bool list;            /* -l [PATTERN] */
	const char *list_pattern; /* NULL: -l alone (every probe) */
	bool list_verbose;
	const char *cmd;      /* -c */
	const char *out_path; /* -o */
	const char *debug;    /* -d ast|bpf */
	bool info;
	bool no_warnings; /* --no-warnings */
	uint64_t max_bpf_progs; /* BPFTRACE_MAX_BPF_PROGS */
	const char *metrics; /* --metrics ADDR:PORT */
	bool pprof;          /* -f pprof: maps keyed by stacks into the -o file */
	bool verify_ir;      /* --verify-llvm-ir: accepted, sonde has no LLVM IR */
	RunOpts run;
	Options opt;
} Cli;

static void subcommands_usage(FILE *f);

static void usage(FILE *f)
{
	fputs("USAGE:\n"
	      "    sonde [options] filename\n"
	      "    sonde [options] - <stdin input>\n"
	      "    sonde [options] -e 'program'\n"
	      "\n"
	      "OPTIONS:\n"
	      "    -B MODE        output buffering mode ('full', 'line', 'none')\n"
	      "    -f FORMAT      output format ('text', 'json', 'folded': maps keyed by stacks\n"
	      "                   as folded stacks for flame graphs; 'pprof': those maps as a\n"
	      "                   gzipped pprof profile in the -o file, the rest as text)\n"
	      "    -o file        redirect program output to file\n"
	      "    -I DIR         directory #include searches (C definitions)\n"
	      "    --include FILE read the C definitions of FILE before the program\n"
	      "    -d ast|bpf     print the syntax tree or the BPF instructions, and exit\n"
	      "    -d, -dd        print both (bpftrace's dry runs; sonde has no LLVM IR)\n"
	      "    -e 'program'   execute this program\n"
	      "    -h, --help     show this help message\n"
	      "    -l [search]    list probes (tracepoints, software events); 'struct NAME': BTF types\n"
	      "    -p PID         uprobes/USDT fire for PID only; sonde exits when it does\n"
	      "    -c 'CMD'       run CMD and trace until it exits; cpid holds its pid\n"
	      "    -k             emit a warning when a map update/delete fails at run time\n"
	      "    -kk            also when a probe read or map lookup fails\n"
	      "    -q             keep messages quiet\n"
	      "    --unsafe       allow unsafe builtin functions (system)\n"
	      "    --no-warnings  disable all warning messages\n"
	      "    -v             verbose messages (full verifier logs)\n"
	      "    --info         print what this kernel supports\n"
	      "    --verify-llvm-ir  accepted as bpftrace takes it (sonde has no LLVM IR)\n"
	      "    --metrics ADDR:PORT  serve the maps at http://ADDR:PORT/metrics while the\n"
	      "                   script runs (Prometheus; ':PORT' is loopback's)\n"
	      "    --tools        list the ready tools, one line each\n"
	      "    --tool NAME    run the ready tool NAME (arguments follow: --tool opensnoop PID)\n"
	      "    -V, --version  sonde version\n"
	      "\n"
	      "ENVIRONMENT:\n"
	      "    BPFTRACE_STRLEN             [default: 64] bytes kept of each string (up to 1048576)\n"
	      "    BPFTRACE_MAP_KEYS_MAX       [default: 4096] max keys in a map\n"
	      "    BPFTRACE_CAT_BYTES_MAX      [default: 10k] maximum bytes read by cat()\n"
	      "    BPFTRACE_MAX_PROBES         [default: 512] max number of probes\n"
	      "    BPFTRACE_MAX_BPF_PROGS      [default: 512] max number of BPF programs, as bpftrace counts them\n"
	      "    BPFTRACE_PERF_RB_PAGES      pages per CPU of the ring buffer (a power of two)\n"
	      "    BPFTRACE_BTF                [default: none] BTF file for kernel types\n"
	      "    BPFTRACE_VMLINUX            [default: none] vmlinux whose .BTF is read when the kernel has no BTF\n"
	      "    BPFTRACE_KERNEL_SOURCE, BPFTRACE_KERNEL_BUILD  kernel headers for #include\n"
	      "    BPFTRACE_NO_USER_SYMBOLS    [default: 0] 1: usym, ustack and func in uprobes print addresses\n"
	      "    BPFTRACE_NO_CPP_DEMANGLE, BPFTRACE_CACHE_USER_SYMBOLS (0 or 1) and BPFTRACE_LOG_SIZE\n"
	      "    (a number) are checked as bpftrace checks them; sonde does not demangle C++ names,\n"
	      "    resolves user symbols per process, sizes its verifier log itself\n"
	      "\n"
	      "EXAMPLES:\n"
	      "sonde -l '*sleep*'\n"
	      "    list probes containing \"sleep\"\n"
	      "sonde -e 'tracepoint:syscalls:sys_enter_nanosleep { printf(\"%s is sleeping.\\n\", comm); }'\n"
	      "    trace processes calling sleep\n"
	      "sonde -e 'tracepoint:raw_syscalls:sys_enter { @[comm] = count(); }'\n"
	      "    count syscalls by process name\n",
	      f);
	subcommands_usage(f);
}

/* BPFTRACE_MAX_BPF_PROGS (default 512): bpftrace 0.17 compiles a probe that
 * uses `probe` or a tracepoint's `args` once per attach point, and refuses
 * more such programs than the limit, counted probe by probe */
static bool within_max_bpf_progs(const Script *sc, uint64_t max)
{
	uint64_t n = 0;
	for (int p = 0; p < sc->ast->nprobes; p++) {
		if (!sc->expands[p])
			continue;
		n += (uint64_t)sc->specs[p].n;
		if (n > max) {
			fprintf(stderr, "ERROR: Failed to compile: Your program is trying to generate more "
				"than %llu BPF programs, which exceeds the current limit of %llu.\nYou can "
				"increase the limit through the BPFTRACE_MAX_BPF_PROGS environment "
				"variable.\n", (unsigned long long)n, (unsigned long long)max);
			return false;
		}
	}
	return true;
}

/* BPFTRACE_MAX_PROBES (default 512): bpftrace 0.17 refuses to attach more
 * probes than that, with these words */
static bool within_max_probes(int n)
{
	const char *v = getenv("BPFTRACE_MAX_PROBES");
	char *end = NULL;
	unsigned long long max = v ? strtoull(v, &end, 10) : 512;
	if (v && (!*v || *end || !max)) {
		fprintf(stderr, "ERROR: Env var 'BPFTRACE_MAX_PROBES' did not contain a valid "
			"uint64_t, or was zero-valued.\n");
		return false;
	}
	if ((unsigned long long)n <= max)
		return true;
	fprintf(stderr, "ERROR: Can't attach to %d probes because it exceeds the current limit of "
		"%llu probes.\nYou can increase the limit through the BPFTRACE_MAX_PROBES environment "
		"variable, but BE CAREFUL since a high number of probes attached can cause your "
		"system to crash.\n", n, max);
	return false;
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
       OPT_METRICS, OPT_VERIFY_IR };

/* -d ast, -d bpf: one of sonde's dumps.  bpftrace's -d and -dd (its AST
 * after each pass, then LLVM IR) take no word: sonde has no LLVM, so they
 * print both of its dumps (the AST, then the BPF instructions).  The
 * option's argument is optional ("d::"): -dd, -dast, or "ast"/"bpf" as the
 * next word; a bare -d leaves the next word alone (the program file). */
static void parse_debug(Cli *c, int argc, char **argv, const char *arg)
{
	if (!arg && optind < argc && (!strcmp(argv[optind], "ast") || !strcmp(argv[optind], "bpf")))
		arg = argv[optind++];
	c->debug = arg && (!strcmp(arg, "ast") || !strcmp(arg, "bpf")) ? arg : "all";
}

/* Returns -1 to go on, else an exit status. */
static int parse_args(int argc, char **argv, Cli *c)
{
	static const struct option longopts[] = {
		{"help", no_argument, 0, 'h'},	   {"version", no_argument, 0, 'V'},
		{"unsafe", no_argument, 0, OPT_UNSAFE}, {"info", no_argument, 0, OPT_INFO},
		{"include", required_argument, 0, OPT_INCLUDE},
		{"tools", no_argument, 0, OPT_TOOLS}, {"tool", required_argument, 0, OPT_TOOL},
		{"no-warnings", no_argument, 0, OPT_NO_WARNINGS},
		{"usdt-file-activation", no_argument, 0, OPT_USDT_FILE},
		{"metrics", required_argument, 0, OPT_METRICS},
		{"verify-llvm-ir", no_argument, 0, OPT_VERIFY_IR}, {0, 0, 0, 0},
	};
	int ch;
	/* options may follow the program file or a positional parameter, as
	 * bpftrace's getopt permutes them (`sonde x.bt -c cmd`); `--` ends them */
	while ((ch = getopt_long(argc, argv, "e:lvp:c:o:f:qB:d::hVI:k", longopts, NULL)) != -1) {
		switch (ch) {
		case 'e': c->program = optarg; break;
		case 'l': c->list = true; break;
		case 'v': c->run.verbose = true; c->list_verbose = true; break;
		case 'p':
			if (!parse_pid(optarg, &c->run.watch_pid))
				return 1;
			break;
		case 'c': c->cmd = optarg; break;
		case 'o': c->out_path = optarg; break;
		case 'q': c->run.quiet = true; break;
		case 'k': c->opt.helper_check++; break; /* -k, -kk */
		case 'd': parse_debug(c, argc, argv, optarg); break;
		case OPT_UNSAFE: c->opt.unsafe = true; break;
		case OPT_INFO: c->info = true; break;
		case OPT_TOOLS: return tools_list(stdout);
		case OPT_TOOL:
			if (!(c->file = tool_path(optarg)))
				return 1;
			break;
		case OPT_NO_WARNINGS: c->no_warnings = true; break;
		/* USDT semaphores are set by the kernel (uprobe ref_ctr_offset) in
		 * every process that maps the file, which is what bpftrace's flag
		 * asks for: accepted, nothing more to do */
		case OPT_USDT_FILE: break;
		case OPT_METRICS: c->metrics = optarg; break;
		case OPT_VERIFY_IR: c->verify_ir = true; break;
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
		case 'h': usage(stdout); return 0;
		case 'V': printf("sonde v%s\n", SONDE_VERSION); return 0;
		default: usage(stderr); return 1;
		}
	}
	if (c->list && optind < argc)
		c->list_pattern = argv[optind++];
	if (c->list && optind < argc) { /* bpftrace: -l takes one pattern, no program */
		usage(stderr);
		return 1;
	}
	if (!c->program && !c->list && !c->info && !c->file && optind < argc)
		c->file = argv[optind++];
	c->opt.params = argv + optind;
	c->opt.nparams = argc - optind;
	if (c->verify_ir && c->run.verbose)
		fprintf(stderr, "sonde: --verify-llvm-ir: sonde compiles to BPF without LLVM; "
			"the kernel's verifier checks the programs\n");
	if (c->file && strrchr(c->file, '/')) /* #include "x.h" next to the script */
		c->opt.script_dir = strndup(c->file, (size_t)(strrchr(c->file, '/') - c->file + 1));
	return -1;
}

static char *load_source(Cli *c, Source *src)
{
	if (c->program) {
		src->name = "stdin"; /* as bpftrace names an -e program */
		return xstrdup(c->program);
	}
	char *text = read_file_all(c->file, NULL);
	if (!text) {
		fprintf(stderr, "ERROR: failed to open file '%s': %s\n", c->file, strerror(errno));
		return NULL;
	}
	src->name = strcmp(c->file, "-") ? c->file : "stdin";
	return text;
}

/* as execvp will search: a path, or a name found in $PATH */
static bool command_exists(const char *cmd)
{
	if (strchr(cmd, '/'))
		return access(cmd, X_OK) == 0;
	const char *path = getenv("PATH");
	char *dirs = xstrdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	bool found = false;
	for (char *d = strtok(dirs, ":"); d && !found; d = strtok(NULL, ":")) {
		char full[4096];
		snprintf(full, sizeof(full), "%s/%s", d, cmd);
		found = access(full, X_OK) == 0;
	}
	free(dirs);
	return found;
}

/* -c: fork now, exec once the probes are attached (the child waits on a
 * pipe), so that cpid is known at compile time. */
/* -c CMD: split into words as a shell would (wordexp, as bpftrace) */
static bool start_cmd_wordexp(Cli *c)
{
	wordexp_t we;
	if (wordexp(c->cmd, &we, WRDE_NOCMD) || !we.we_wordc) {
		fprintf(stderr, "sonde: cannot parse the -c command '%s'\n", c->cmd);
		return false;
	}
	if (!command_exists(we.we_wordv[0])) {
		fprintf(stderr, "ERROR: Failed to fork child: path '%s' does not exist or is not "
			"executable\n", we.we_wordv[0]);
		wordfree(&we);
		return false;
	}
	bool ok = runtime_hold_child(we.we_wordv, "sonde: cannot run '%s': %s\n", &c->opt, &c->run);
	wordfree(&we);
	return ok;
}

static void debug_dump(Cli *c, Program *ast, Script *sc)
{
	if (strcmp(c->debug, "bpf"))
		ast_dump(stdout, ast);
	if (!strcmp(c->debug, "ast"))
		return;
	for (int i = 0; i < sc->progs.n; i++) {
		ProgCode *pc = sc->progs.v[i];
		bpf_disasm(stdout, pc->spec->name, pc->insns, pc->ninsns, pc->lines, ast->src.text);
	}
}

/* the -c command waits for the go signal: it never runs when sonde stops */
static void stop_child(Cli *c)
{
	if (c->run.child_pid > 0) {
		kill(c->run.child_pid, SIGKILL);
		waitpid(c->run.child_pid, NULL, 0);
	}
}

static int run_program(Cli *c)
{
	Source src = {0};
	char *text = load_source(c, &src);
	if (!text)
		return 255; /* bpftrace's status when the script cannot be read */
	src.text = text;
	Error err = {0};
	int status = 1;
	Program *ast = parse_program(&src, &err);
	Script *sc = NULL;
	PyTarget *py = NULL;
	if (ast && c->debug && !strcmp(c->debug, "ast")) {
		debug_dump(c, ast, NULL);
		status = 0;
		goto out;
	}
	if (ast && c->cmd && !c->debug && !start_cmd_wordexp(c)) {
		status = 255; /* as bpftrace when it cannot start the command */
		goto out;
	}
	/* user-space probes fire only for the -p process or the -c child */
	c->opt.target.filter_pid = c->run.watch_pid > 0 ? c->run.watch_pid : c->opt.cpid;
	c->opt.target.maps_pid = c->run.watch_pid;
	phase_time("parsed");
	c->opt.py = py = py_target_find(ast, &c->opt.target); /* sema reads it */
	if (ast)
		sc = compile_program(ast, &c->opt, &err);
	phase_time("compiled");
	if (!sc) {
		diag_print_opt(stderr, &src, &err, c->no_warnings);
		stop_child(c);
		goto out;
	}
	for (int i = 0; i < sc->warnings.n && !c->no_warnings; i++)
		diag_print_warning(stderr, &src, &sc->warnings.v[i]);
	if (!within_max_bpf_progs(sc, c->max_bpf_progs)) {
		stop_child(c);
		goto out;
	}
	if (c->debug) {
		debug_dump(c, ast, sc);
		status = 0;
		goto out;
	}
	if (!within_max_probes(sc->nattach)) {
		stop_child(c);
		goto out;
	}
	status = runtime_run(sc, &c->run);
out:
	script_free(sc);
	free(py);
	program_free(ast);
	free(text);
	return status;
}

/* -l [PATTERN]: bpftrace parses the pattern as attach points first */
static int list_probes(const char *pattern, bool verbose, int watch_pid)
{
	ProbeTarget target = {.maps_pid = watch_pid}; /* -p: its files' uprobes and usdt */
	if (!pattern)
		return probe_list(stdout, NULL, verbose, &target) < 0;
	if (list_types_wanted(pattern))
		return list_types(stdout, pattern, verbose) < 0;
	switch (list_pattern_kind(pattern)) {
	case LIST_NO_ATTACH_POINTS:
		list_pattern_print_no_attach_points(stderr, pattern);
		return 1;
	case LIST_NOTHING:
		return 0;
	case LIST_PROBES:
		break;
	}
	Error err = {0};
	char *clean = list_pattern_parse(pattern, &err);
	if (!clean) {
		diag_print(stderr, &(Source){"stdin", pattern}, &err);
		return 1;
	}
	int n = probe_list(stdout, *clean ? clean : NULL, verbose, &target);
	free(clean);
	return n < 0 ? 1 : 0;
}

/* Subcommands: `sonde NAME ARGS...` runs NAME's main with argv[0] = NAME.
 * A new subcommand is one line here; `sonde -h` lists them. */
static const struct subcommand {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *what;
} subcommands[] = {
	{ "trace", trace_main, "trace system calls and signals as strace does, on BPF" },
	{ "flamegraph", flamegraph_main, "sample stacks and draw an interactive SVG flame graph" },
	{ "probe", probe_main, "source lines, variables and uprobe events from DWARF, as perf probe" },
	{ "dtrace", dtrace_main, "DTrace's D language and dtrace(1)'s options, on sonde's compiler" },
};

static const struct subcommand *subcommand_find(const char *name)
{
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(subcommands[i].name, name))
			return &subcommands[i];
	return NULL;
}

static void subcommands_usage(FILE *f)
{
	fputs("\nSUBCOMMANDS:\n", f);
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(f, "    sonde %-10s %s (sonde %s -h)\n", subcommands[i].name, subcommands[i].what,
			subcommands[i].name);
}

int main(int argc, char **argv)
{
	Cli c = {0};
	c.run.child_go_fd = -1;
	c.run.notify_attached = getenv("__BPFTRACE_NOTIFY_PROBES_ATTACHED") != NULL;
	c.run.fe = &bt_frontend_rt;
	phase_time("main");
	const char *base = strrchr(argv[0], '/');
	if (!strcmp(base ? base + 1 : argv[0], "dtrace")) /* installed as dtrace(1) */
		return dtrace_main(argc, argv);
	const struct subcommand *sub = argc >= 2 ? subcommand_find(argv[1]) : NULL;
	if (sub)
		return sub->main(argc - 1, argv + 1);
	if (argc < 2) {
		usage(stderr);
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
		return list_probes(c.list_pattern, c.list_verbose, c.run.watch_pid);
	if ((!c.program || !*c.program) && !c.file) { /* options, but nothing to run (-e '') */
		fprintf(stderr, "ERROR: USAGE: filename or -e 'program' required.\n");
		return 1;
	}
	uint64_t strlen_max, keys_max, cat_max;
	c.max_bpf_progs = 512;
	c.run.rb_pages_set = getenv("BPFTRACE_PERF_RB_PAGES") != NULL;
	if (!env_ranged("BPFTRACE_STRLEN", 64, 1, 1 << 20, &strlen_max) ||
	    !env_ranged("BPFTRACE_MAP_KEYS_MAX", 4096, 1, 1 << 24, &keys_max) ||
	    !env_ranged("BPFTRACE_CAT_BYTES_MAX", 10240, 0, 1 << 30, &cat_max) ||
	    !env_uint64("BPFTRACE_PERF_RB_PAGES", &c.run.rb_pages) ||
	    !env_uint64("BPFTRACE_MAX_BPF_PROGS", &c.max_bpf_progs) || !env_check_unused())
		return 1;
	c.opt.strlen_max = (int)strlen_max;
	c.opt.map_keys_max = (int)keys_max;
	c.opt.no_user_symbols = env_switch_on("BPFTRACE_NO_USER_SYMBOLS");
	c.run.cat_bytes_max = (size_t)cat_max;
	c.opt.sema = &bt_sema_hooks; /* the bpftrace dialect */
	c.opt.self_pid = getpid();
	c.opt.start_ns = mono_ns();
	Pprof *pp = NULL;
	if (c.pprof) { /* the -o file is the profile's; text goes to stdout */
		char err[512];
		if (!c.out_path) {
			fprintf(stderr, "ERROR: -f pprof writes a binary profile: name its file with -o FILE\n");
			return 1;
		}
		if (!(pp = pprof_new(c.out_path, err, sizeof(err)))) {
			fprintf(stderr, "sonde: %s\n", err);
			return 1;
		}
		c.run.maps_sink = pprof_sink(pp);
		c.run.fmt = OUT_TEXT;
	} else if (c.out_path && !(c.run.out = fopen(c.out_path, "w"))) {
		fprintf(stderr, "ERROR: Failed to open output file: \"%s\": %s\n", c.out_path,
			strerror(errno));
		return 1;
	}
	MetricsServer *ms = NULL;
	if (c.metrics) { /* a bad address stops sonde before it compiles */
		char err[512];
		if (!(ms = metrics_server_new(c.metrics, c.run.quiet, err, sizeof(err)))) {
			fprintf(stderr, "sonde: %s\n", err);
			return 1;
		}
		c.run.service = metrics_server_service(ms);
	}
	int status = run_program(&c);
	metrics_server_free(ms);
	pprof_free(pp);
	if (c.run.out)
		fclose(c.run.out);
	return status;
}
