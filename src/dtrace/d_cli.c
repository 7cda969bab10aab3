/* sonde dtrace (or sonde installed as `dtrace`): dtrace(1)'s command line.
 * Each -n/-P/-m/-f/-i/-s is compiled as its own D program (for its
 * "matched N probes" line and its errors), then all run as one script. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../bpf/disasm.h"
#include "../lang/cpp.h"
#include "../probes/provider.h"
#include "../python/pystack.h"
#include "../runtime/frontend.h"
#include "../runtime/runtime.h"
#include "../sym/symctx.h"
#include "dtrace.h"
#include "runtime_d.h"
#include "sema_d.h"
#include "../util/clock.h"
#include "../util/proc.h"

#ifndef SONDE_VERSION
#define SONDE_VERSION "dev"
#endif

/* the probe specifier kinds, as the field their text ends at */
typedef enum { SPEC_PROVIDER, SPEC_MODULE, SPEC_FUNC, SPEC_NAME, SPEC_FILE, SPEC_ID } SpecKind;

typedef struct DCmd {
	SpecKind kind;
	const char *arg;  /* the option's argument */
	char *text;       /* the D program compiled for it */
	char *name;       /* for "matched": the file, or the specifier up to { / ; */
	Program *prog;
	int matched;
	int nprobes; /* its clauses (before they are merged into the first program) */
	CppOut cpp;  /* -C: the preprocessed script and where its lines came from */
} DCmd;

typedef struct DCli {
	VEC(DCmd) cmds;
	VEC(char *) args;     /* $0 (the script), then the non-option arguments */
	VEC(const char *) defines; /* -D NAME[=VAL] as "DNAME[=VAL]", -U NAME as "UNAME" */
	const char *cmd;      /* -c */
	int pid;              /* -p */
	const char *out_path; /* -o */
	bool list, verbose, exec_none, show_bpf, errtags, show_includes;
	DEnv env;
	Options opt;
	RunOpts run;
} DCli;

static int usage(FILE *f)
{
	fprintf(f, "Usage: dtrace [-CeFhlqSvVwZ] [-b bufsz] [-c cmd] [-D name[=def]]\n"
		"\t[-I path] [-o output] [-p pid] [-s script] [-U name]\n"
		"\t[-x opt[=val]]\n\n"
		"\t[-P provider [[ predicate ] action ]]\n"
		"\t[-m [ provider: ] module [[ predicate ] action ]]\n"
		"\t[-f [[ provider: ] module: ] func [[ predicate ] action ]]\n"
		"\t[-n [[[ provider: ] module: ] func: ] name [[ predicate ] action ]]\n"
		"\t[-i probe-id [[ predicate ] action ]] [ args ... ]\n\n"
		"\tpredicate -> '/' D-expression '/'\n"
		"\t   action -> '{' D-statements '}'\n\n"
		"\t-b  set trace buffer size\n"
		"\t-c  run specified command and exit upon its completion\n"
		"\t-C  run cpp(1) preprocessor on script files\n"
		"\t-D  define symbol when invoking preprocessor\n"
		"\t-e  exit after compiling request but prior to enabling probes\n"
		"\t-f  enable or list probes matching the specified function name\n"
		"\t-h  show this help message\n"
		"\t-i  enable or list probes matching the specified probe id\n"
		"\t-I  add include directory to preprocessor search path\n"
		"\t-l  list probes matching specified criteria\n"
		"\t-m  enable or list probes matching the specified module name\n"
		"\t-n  enable or list probes matching the specified probe name\n"
		"\t-o  set output file\n"
		"\t-p  grab specified process-ID and cache its symbol tables\n"
		"\t-P  enable or list probes matching the specified provider name\n"
		"\t-q  set quiet mode (only output explicitly traced data)\n"
		"\t-s  enable or list probes according to the specified D script\n"
		"\t-S  print the BPF programs the D program compiles to\n"
		"\t-U  undefine symbol when invoking preprocessor\n"
		"\t-v  set verbose mode (report stability attributes, arguments)\n"
		"\t-V  report DTrace API version\n"
		"\t-w  permit destructive actions\n"
		"\t-x  enable or modify compiler and tracing options\n"
		"\t-Z  permit probe descriptions that match zero probes\n");
	return 2;
}

/* --- options (-x, #pragma D option) ----------------------------------------- */

/* --- the programs: one per -n/-P/-m/-f/-i/-s ------------------------------- */

static char *read_script(const char *path)
{
	char *t = read_file_all(path, NULL);
	if (!t)
		fprintf(stderr, "dtrace: failed to open %s: %s\n", path, strerror(errno));
	return t;
}

/* -P/-m/-f/-i TEXT: the description padded to four fields, ending at the
 * field the option names ("-f read" is "::read:"); the rest as written */
static char *spec_text(const DCmd *c)
{
	const char *a = c->arg;
	size_t dlen = strcspn(a, " \t\n/{;");
	if (c->kind == SPEC_NAME || c->kind == SPEC_ID)
		return xstrdup(a);
	int colons = 0;
	for (size_t i = 0; i < dlen; i++)
		colons += a[i] == ':';
	int before = (int)c->kind - colons, after = 3 - (int)c->kind;
	if (before < 0)
		before = 0;
	StrBuf b = {0};
	for (int i = 0; i < before; i++)
		sb_putc(&b, ':');
	sb_putn(&b, a, dlen);
	for (int i = 0; i < after; i++)
		sb_putc(&b, ':');
	sb_puts(&b, a + dlen);
	return b.s;
}

/* an error in a program; under -C its line is the script's (or an
 * included file's, named as dtrace does: "FILE", line N) */
static bool loc_before(Loc a, Loc b)
{
	return a.line < b.line || (a.line == b.line && a.col < b.col);
}

/* whether loc is in a clause's predicate: after the clause's start and
 * before its first statement (an error in sema is found at a node) */
static bool in_predicate(const Program *p, Loc loc)
{
	const Probe *at = NULL;
	for (int i = 0; i < p->nprobes; i++)
		if (!loc_before(loc, p->probes[i]->loc))
			at = p->probes[i];
	if (!at || !at->pred)
		return false;
	return !at->body.n || loc_before(loc, at->body.v[0]->loc);
}

/* where dtrace says a -n program's error is: an error after parsing is
 * "in predicate" or "in action list" */
static const char *error_region(const Program *p, const Error *e)
{
	if (!p)
		return NULL;
	return in_predicate(p, e->loc) ? "in predicate" : "in action list";
}

static void report_error(const DCli *cl, const DCmd *c, const Source *src, const Error *e,
			 const Program *after_parse)
{
	int line = e->loc.line;
	const char *filetag = NULL;
	if (c->cpp.text && line > 0) {
		CppLine o = cpp_origin(&c->cpp, line);
		line = o.line;
		if (o.file && strcmp(o.file, c->arg))
			filetag = o.file;
	}
	d_diag_print_at(stderr, c->kind == SPEC_FILE ? c->arg : NULL, c->arg, src, e, cl->errtags,
			error_region(after_parse, e), line, filetag);
}

/* -C: the script through the C preprocessor, as dtrace runs cpp(1) on it
 * (-n programs are not preprocessed); false after printing cpp's message
 * and dtrace's */
static bool preprocess(DCli *cl, DCmd *c, char **text)
{
	CppOpts o = {
		.include_dirs = (const char *const *)cl->opt.include_dirs,
		.ninclude_dirs = cl->opt.ninclude_dirs,
		.defines = cl->defines.v,
		.ndefines = cl->defines.n,
		.predefine = true,
		.system_headers = true,
		.show_includes = cl->show_includes,
	};
	CppError err;
	if (!cpp_run(*text, c->arg, &o, &c->cpp, &err)) {
		d_cpp_error_print(stderr, &err, c->arg);
		fprintf(stderr, "dtrace: failed to compile script %s: Preprocessor failed to process input program\n",
			c->arg);
		return false;
	}
	if (c->cpp.warnings)
		d_cpp_text_print(stderr, c->cpp.warnings, c->arg);
	free(*text);
	*text = xstrdup(c->cpp.text);
	return true;
}

/* macro expansion and parsing of one program; false after printing why */
static bool compile_cmd(DCli *cl, DCmd *c)
{
	char *raw = c->kind == SPEC_FILE ? read_script(c->arg) : spec_text(c);
	if (!raw)
		return false;
	if (c->kind == SPEC_FILE && cl->env.cpp && !preprocess(cl, c, &raw)) {
		free(raw);
		return false;
	}
	if (c->kind == SPEC_FILE) {
		c->name = xstrdup(c->arg);
	} else {
		c->name = xstrdup(c->arg);
		c->name[strcspn(c->name, "{/;")] = 0; /* as dtrace crops it for messages */
	}
	Source src = { c->kind == SPEC_FILE ? c->arg : "-n", raw };
	Error err = {0};
	cl->env.argv = cl->args.v;
	cl->env.argc = cl->args.n;
	d_options_prescan(&cl->env, raw);
	c->text = d_macro_expand(raw, &cl->env, &err);
	if (c->text) {
		src.text = c->text;
		c->prog = d_parse(&src, &cl->env, &c->matched, &err);
	}
	if (!c->prog) /* a macro's error is in the text as written */
		report_error(cl, c, &src, &err, NULL);
	free(raw);
	return c->prog != NULL;
}

/* every program's clauses in the first one, for one compile */
static Program *merge_programs(DCli *cl)
{
	Program *all = cl->cmds.v[0].prog;
	for (int i = 0; i < cl->cmds.n; i++)
		cl->cmds.v[i].nprobes = cl->cmds.v[i].prog->nprobes;
	for (int i = 1; i < cl->cmds.n; i++) {
		Program *p = cl->cmds.v[i].prog;
		Probe **v = arena_alloc(&all->arena, sizeof(Probe *) * (size_t)(all->nprobes + p->nprobes));
		memcpy(v, all->probes, sizeof(Probe *) * (size_t)all->nprobes);
		memcpy(v + all->nprobes, p->probes, sizeof(Probe *) * (size_t)p->nprobes);
		all->probes = v;
		all->nprobes += p->nprobes;
		if (!all->c_defs && p->c_defs) {
			all->c_defs = p->c_defs;
			all->c_defs_loc = p->c_defs_loc;
		}
	}
	return all;
}

/* a failed compile of several programs: say which one, compiling each alone */
static void report_compile_error(DCli *cl, Program *all, const Error *err)
{
	int off = 0;
	for (int i = 0; i < cl->cmds.n && cl->cmds.n > 1; i++) {
		const DCmd *c = &cl->cmds.v[i];
		Program one = *all; /* the same arena: sema may allocate in it */
		one.probes = all->probes + off;
		one.nprobes = c->nprobes;
		one.src = c->prog->src;
		off += c->nprobes;
		Error e = {0};
		Script *sc = compile_program(&one, &cl->opt, &e);
		all->arena = one.arena;
		if (!sc) {
			report_error(cl, c, &one.src, &e, &one);
			return;
		}
		script_free(sc);
	}
	report_error(cl, &cl->cmds.v[0], &all->src, err, all);
}

/* --- -c / -p ------------------------------------------------------------------ */

/* -c CMD: split on white space as dtrace does, forked now and let go once
 * the probes are attached */
static bool start_cmd_blanks(DCli *cl)
{
	char *s = xstrdup(cl->cmd);
	VEC(char *) av = {0};
	for (char *w = strtok(s, " \t\n"); w; w = strtok(NULL, " \t\n"))
		vec_push(&av, w);
	vec_push(&av, NULL);
	bool ok = runtime_hold_child(av.v, "dtrace: failed to execute %s: %s\n", &cl->opt, &cl->run);
	free(av.v);
	free(s);
	if (!ok) {
		fprintf(stderr, "dtrace: failed to execute %s: %s\n", cl->cmd, strerror(EINVAL));
		return false;
	}
	cl->env.target = cl->run.child_pid;
	cl->env.cmd = cl->opt.target.cmd;
	return true;
}

static bool grab_pid(DCli *cl, const char *arg)
{
	char *end;
	errno = 0;
	long n = strtol(arg, &end, 10);
	if (errno || end == arg || *end || n <= 0) {
		fprintf(stderr, "dtrace: invalid pid: %s\n", arg);
		return false;
	}
	if (kill((pid_t)n, 0) < 0 && errno == ESRCH) {
		fprintf(stderr, "dtrace: failed to grab pid %ld: No such process\n", n);
		return false;
	}
	cl->pid = (int)n;
	cl->env.target = (int)n;
	cl->run.watch_pid = (int)n;
	return true;
}

/* --- the command line ---------------------------------------------------------- */

static void add_cmd(DCli *cl, SpecKind k, const char *arg)
{
	DCmd c = { .kind = k, .arg = arg };
	vec_push(&cl->cmds, c);
}

static void add_include(DCli *cl, const char *dir)
{
	cl->opt.include_dirs = realloc(cl->opt.include_dirs,
				       sizeof(char *) * (size_t)(cl->opt.ninclude_dirs + 1));
	cl->opt.include_dirs[cl->opt.ninclude_dirs++] = (char *)dir;
}

/* -D/-U (and -x define=/undef=): for the preprocessor, in order; without
 * -C nothing is preprocessed, so they change nothing (as dtrace) */
static void add_define(DCli *cl, char kind, const char *arg)
{
	char *d = xmalloc(strlen(arg) + 2);
	d[0] = kind;
	strcpy(d + 1, arg);
	vec_push(&cl->defines, d);
}

/* -x NAME[=VAL] */
static bool set_x(DCli *cl, const char *arg)
{
	char msg[256];
	if (!d_option_set(&cl->env, arg, false, msg, sizeof(msg))) {
		fprintf(stderr, "dtrace: %s\n", msg);
		return false;
	}
	if (!strncmp(arg, "errtags", 7))
		cl->errtags = true;
	else if (!strcmp(arg, "cpp"))
		cl->env.cpp = true;
	else if (!strncmp(arg, "define=", 7) || !strncmp(arg, "undef=", 6))
		add_define(cl, arg[0] == 'd' ? 'D' : 'U', strchr(arg, '=') + 1);
	else if (!strncmp(arg, "incdir=", 7))
		add_include(cl, arg + 7);
	return true;
}

/* -b SIZE: -x bufsize=SIZE, its error naming -b */
static bool set_b(DCli *cl, const char *size)
{
	char opt[128], msg[256];
	snprintf(opt, sizeof(opt), "bufsize=%s", size);
	if (d_option_set(&cl->env, opt, false, msg, sizeof(msg)))
		return true;
	fprintf(stderr, "dtrace: failed to set -b %s: %s\n", size, strchr(msg + 13, ':') + 2);
	return false;
}

/* one option; -1 to go on, else the exit status */
static int take_option(DCli *cl, int ch, const char *arg)
{
	switch (ch) {
	case 'n': add_cmd(cl, SPEC_NAME, arg); break;
	case 'P': add_cmd(cl, SPEC_PROVIDER, arg); break;
	case 'm': add_cmd(cl, SPEC_MODULE, arg); break;
	case 'f': add_cmd(cl, SPEC_FUNC, arg); break;
	case 'i': add_cmd(cl, SPEC_ID, arg); break;
	case 's': add_cmd(cl, SPEC_FILE, arg); break;
	case 'q': cl->env.quiet = cl->opt.d_quiet = true; break;
	case 'x': return set_x(cl, arg) ? -1 : 1;
	case 'b': return set_b(cl, arg) ? -1 : 1;
	case 'c': cl->cmd = arg; break;
	case 'p': return grab_pid(cl, arg) ? -1 : 1;
	case 'o': cl->out_path = arg; break;
	case 'l': cl->list = true; cl->env.zdefs = true; break;
	case 'v': cl->verbose = true; break;
	case 'e': cl->exec_none = true; break;
	case 'S': cl->show_bpf = true; break;
	case 'w': cl->opt.unsafe = true; break;
	case 'Z': cl->env.zdefs = true; break;
	case 'I': add_include(cl, arg); break;
	case 'C': cl->env.cpp = true; break;
	case 'D': case 'U': add_define(cl, (char)ch, arg); break;
	case 'H': cl->show_includes = true; break;
	case 'F': return set_x(cl, "flowindent") ? -1 : 1;
	case 'X': case 'B': case 'a': case 'A':
	case 'G': case 'L': case '3': case '6':
		break; /* accepted */
	case 'V': printf("dtrace: Sun D 1.13 (sonde %s)\n", SONDE_VERSION); return 0;
	case 'h': usage(stdout); return 0;
	default: return usage(stderr);
	}
	return -1;
}

/* "#!/usr/sbin/dtrace -qs" hands "-qs" (or "-q -s", one argument) to us:
 * split an argument with spaces that starts with '-' into words */
static void split_shebang_args(int *argc, char ***argv)
{
	if (*argc < 2 || (*argv)[1][0] != '-' || !strchr((*argv)[1], ' '))
		return;
	char **nv = xcalloc((size_t)*argc + 64, sizeof(char *));
	int n = 0;
	nv[n++] = (*argv)[0];
	char *s = xstrdup((*argv)[1]);
	for (char *w = strtok(s, " \t"); w && n < 60; w = strtok(NULL, " \t"))
		nv[n++] = w;
	for (int i = 2; i < *argc; i++)
		nv[n++] = (*argv)[i];
	*argc = n;
	*argv = nv;
}

static int parse_args(DCli *cl, int argc, char **argv)
{
	static const char optstr[] = "+3:6:aAb:Bc:CD:ef:FGhHi:I:lL:m:n:o:p:P:qs:SU:vVwx:X:Z";
	vec_push(&cl->args, argv[0]);
	opterr = 1;
	for (optind = 1; optind < argc; optind++) {
		int ch;
		while ((ch = getopt(argc, argv, optstr)) != -1) {
			int r = take_option(cl, ch, optarg);
			if (r >= 0)
				return r;
		}
		if (optind < argc)
			vec_push(&cl->args, argv[optind]);
	}
	for (int i = 0; i < cl->cmds.n; i++)
		if (cl->cmds.v[i].kind == SPEC_FILE) { /* $0 is the script */
			cl->args.v[0] = (char *)cl->cmds.v[i].arg;
			break;
		}
	return -1;
}

/* --- the run ------------------------------------------------------------------ */

static void announce_matches(const DCli *cl)
{
	for (int i = 0; i < cl->cmds.n && !cl->env.quiet; i++) {
		const DCmd *c = &cl->cmds.v[i];
		fprintf(stderr, "dtrace: %s '%s' matched %d probe%s\n",
			c->kind == SPEC_FILE ? "script" : "description", c->name, c->matched,
			c->matched == 1 ? "" : "s");
	}
}

static void kill_child(DCli *cl)
{
	if (cl->run.child_pid > 0) {
		kill(cl->run.child_pid, SIGKILL);
		waitpid(cl->run.child_pid, NULL, 0);
	}
}

/* -l: the probes each description matches; $target and the other macros
 * expanded, with -c's command started as dtrace does (and killed after) */
static int list_probes(DCli *cl)
{
	if (cl->cmd && !start_cmd_blanks(cl))
		return 1;
	cl->env.argv = cl->args.v;
	cl->env.argc = cl->args.n;
	printf("%5s %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE", "FUNCTION", "NAME");
	if (!cl->cmds.n)
		d_probes_list(stdout, NULL, cl->verbose, &cl->env);
	for (int i = 0; i < cl->cmds.n; i++) {
		char *t = spec_text(&cl->cmds.v[i]);
		Error err = {0};
		char *x = d_macro_expand(t, &cl->env, &err);
		if (x) {
			free(t);
			t = x;
		}
		t[strcspn(t, " \t\n/{;")] = 0;
		d_probes_list(stdout, t, cl->verbose, &cl->env);
		free(t);
	}
	kill_child(cl);
	return 0;
}

/* the target's CPython, before sema (which reads it) when the program
 * has jstack() */
static void find_py(DCli *cl, const Program *all)
{
	py_target_free((struct PyTarget *)cl->opt.py);
	cl->opt.py = py_target_find(all, &cl->opt.target);
}

static int run(DCli *cl)
{
	for (int i = 0; i < cl->cmds.n; i++)
		if (!compile_cmd(cl, &cl->cmds.v[i]))
			return 1;
	Program *all = merge_programs(cl);
	Error err = {0};
	if (!d_rewrite(all, &cl->env, &err)) {
		find_py(cl, all);
		report_compile_error(cl, all, &err);
		return 1;
	}
	cl->opt.target.filter_pid = cl->pid > 0 ? cl->pid : cl->opt.cpid;
	cl->opt.target.maps_pid = cl->pid;
	find_py(cl, all);
	Script *sc = compile_program(all, &cl->opt, &err);
	if (!sc) {
		report_compile_error(cl, all, &err);
		return 1;
	}
	announce_matches(cl);
	int status = 0;
	if (cl->show_bpf)
		for (int i = 0; i < sc->progs.n; i++)
			bpf_disasm(stderr, sc->progs.v[i]->spec->name, sc->progs.v[i]->insns,
				   sc->progs.v[i]->ninsns, sc->progs.v[i]->lines, all->src.text);
	if (!cl->exec_none) {
		cl->run.switch_ns = d_option_rate(&cl->opt, "switchrate", 0);
		cl->run.agg_ns = d_option_rate(&cl->opt, "aggrate", 0);
		cl->run.status_ns = d_option_rate(&cl->opt, "statusrate", 0);
		d_option_bufsize(&cl->opt, &cl->run);
		status = runtime_run(sc, &cl->run);
		if (cl->run.child_pid > 0 && !cl->env.quiet)
			fprintf(stderr, "dtrace: pid %d has exited\n", cl->run.child_pid);
	}
	script_free(sc);
	return status;
}

static void cli_free(DCli *cl)
{
	py_target_free((struct PyTarget *)cl->opt.py);
	for (int i = 0; i < cl->cmds.n; i++) {
		program_free(cl->cmds.v[i].prog);
		free(cl->cmds.v[i].text);
		free(cl->cmds.v[i].name);
		cpp_out_free(&cl->cmds.v[i].cpp);
	}
	for (int i = 0; i < cl->defines.n; i++)
		free((char *)cl->defines.v[i]);
	vec_free(&cl->defines);
	vec_free(&cl->cmds);
	vec_free(&cl->args);
	for (int i = 0; i < cl->opt.nd_opts; i++)
		free(cl->opt.d_opts[i]);
	free(cl->opt.d_opts);
	free(cl->opt.include_dirs);
}

int dtrace_main(int argc, char **argv)
{
	DCli cl = {0};
	frontend_use(&d_frontend, &cl.opt, &cl.run);
	cl.run.quiet = true; /* no "Attaching N probes...": dtrace says "matched" */
	cl.opt.sym = cl.opt.target.sym = sym_ctx_new(); /* the run's readers */
	cl.opt.strlen_max = 256 + 1; /* DTrace's default strsize, and the NUL */
	cl.opt.map_keys_max = 4096;
	cl.opt.self_pid = getpid();
	cl.opt.start_ns = mono_ns();
	cl.opt.agg.testing = getenv("_DTRACE_TESTING") != NULL; /* dtrace(1)'s testing mode */
	cl.env.opt = &cl.opt;
	cl.run.cat_bytes_max = 10240;
	if (argc < 2)
		return usage(stderr);
	split_shebang_args(&argc, &argv);
	int status = parse_args(&cl, argc, argv);
	if (status < 0 && cl.list)
		status = list_probes(&cl);
	if (status < 0 && !cl.cmds.n) {
		fprintf(stderr, "dtrace: no probes specified\n");
		status = 1;
	}
	if (status < 0 && cl.out_path && !(cl.run.out = fopen(cl.out_path, "a"))) {
		fprintf(stderr, "dtrace: failed to open output file '%s': %s\n", cl.out_path,
			strerror(errno));
		status = 1;
	}
	if (status < 0 && cl.cmd && !start_cmd_blanks(&cl))
		status = 1;
	if (status < 0) {
		status = run(&cl);
		if (status == 1)
			kill_child(&cl);
	}
	if (cl.run.out)
		fclose(cl.run.out);
	cli_free(&cl);
	return status;
}
