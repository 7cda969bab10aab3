/* bpftrace 0.26's command line where it differs from 0.17's: the long
 * options it added, -d's stages, -k's one level, -p's checks and words. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_026.h"
#include "generation_bt.h"

/* --mode: what 0.26 names; sonde compiles ('codegen') but has no bench:,
 * test: probes and no formatter yet */
static int set_mode(BtCli *c, const char *mode)
{
	static const char *const known[] = {"codegen", "compiler-bench", "bench", "test", "format"};
	bool ok = false;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		ok |= !strcmp(mode, known[i]);
	if (!ok) {
		fprintf(stderr, "ERROR: USAGE: --mode can only be 'codegen', 'compiler-bench', 'bench', "
			"'test' or 'format'.\n");
		return -1;
	}
	if (c->mode && strcmp(c->mode, mode)) {
		fprintf(stderr, "ERROR: USAGE: --%s conflicts with existing --mode\n", mode);
		return -1;
	}
	if (strcmp(mode, "codegen")) {
		fprintf(stderr, "ERROR: --mode %s: sonde does not support it yet (only 'codegen')\n",
			mode);
		return -1;
	}
	c->mode = mode;
	return 0;
}

/* --no-feature F[,F]: the features 0.26 can be told not to use, checked.
 * sonde links no uprobe_multi and makes no kprobe sessions; kprobe_multi
 * is not yet honoured (a kprobe wildcard takes one link where the kernel
 * has them) */
static int no_feature(const char *arg)
{
	char *list = strdup(arg);
	int r = 0;
	for (char *f = strtok(list, ","); f; f = strtok(NULL, ",")) {
		if (strcmp(f, "kprobe_multi") && strcmp(f, "uprobe_multi") && strcmp(f, "kprobe_session"))
			r = -1;
	}
	free(list);
	if (r)
		fprintf(stderr, "ERROR: USAGE: --no-feature can only have values "
			"'kprobe_multi,kprobe_session,uprobe_multi'.\n");
	return r;
}

/* a debug search path or a traceable-functions list: sonde finds debug
 * info as perf does and reads tracefs itself; says so under -v */
static int note_unused(BtCli *c, const char *what)
{
	if (c->run.verbose)
		fprintf(stderr, "sonde: --%s: accepted; sonde finds %s itself\n", what,
			!strcmp(what, "debuginfo") ? "debug info as perf does (build id, .debug, "
						     "/usr/lib/debug)"
						   : "the traceable functions in tracefs");
	return 0;
}

static int mode_alias(BtCli *c, const char *name)
{
	if (c->mode) {
		fprintf(stderr, "ERROR: USAGE: --%s conflicts with existing --mode\n", name);
		return -1;
	}
	return set_mode(c, !strcmp(name, "fmt") ? "format" : name);
}

int bt_option_026(BtCli *c, int which, const char *name)
{
	static const char shorts[] = {'c', 'l', 'o', 'p', 'q', 'v', 'd', 'k'};
	if (!c->gen->cli->long_options) {
		fprintf(stderr, "sonde: unrecognized option '--%s'\n", name);
		c->gen->cli->usage(stderr);
		return -1;
	}
	if (which < (int)sizeof(shorts))
		return shorts[which];
	switch (which) {
	case 8: c->run.dry_run = true; return 0;
	case 9: c->probe_filter = optarg; return 0;
	case 10: return set_mode(c, optarg);
	case 11: return no_feature(optarg);
	case 12: return note_unused(c, "debuginfo");
	case 13: return note_unused(c, "traceable-functions");
	case 14: case 15: case 16: return mode_alias(c, name);
	default: return 0; /* --btf: BTF is always used */
	}
}

/* the stages 0.26 names; sonde prints its AST and its BPF instructions
 * (and exits), the verifier's log (-v's); it has no LLVM for the others */
bool bt_debug_stages(BtCli *c, const char *arg)
{
	static const char *const quiet[] = {"types", "codegen", "codegen-opt", "libbpf", "parse"};
	char *list = strdup(arg);
	bool ok = true, ast = false, dis = false;
	for (char *s = strtok(list, ","); s && ok; s = strtok(NULL, ",")) {
		bool known = false;
		for (size_t i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++)
			known |= !strcmp(s, quiet[i]);
		if (!strcmp(s, "ast") || !strcmp(s, "all"))
			ast = known = true;
		if (!strcmp(s, "dis") || !strcmp(s, "bpf") || !strcmp(s, "all"))
			dis = known = true;
		if (!strcmp(s, "verifier") || !strcmp(s, "all"))
			c->run.verbose = known = true;
		if (!known) {
			fprintf(stderr, "ERROR: USAGE: invalid option for -d: %s\n", s);
			ok = false;
		}
	}
	free(list);
	if (ast || dis)
		c->debug = ast && dis ? "all" : ast ? "ast" : "bpf";
	return ok;
}

bool bt_warnings_opt(BtCli *c)
{
	if (!c->gen->cli->long_options) {
		c->opt.helper_check++; /* 0.17: -k, -kk */
		return true;
	}
	if (c->opt.helper_check) {
		fprintf(stderr, "ERROR: USAGE: -kk has been deprecated. Use a single -k for runtime "
			"warnings for errors in map lookups and probe reads.\n");
		return false;
	}
	if (c->no_warnings) {
		fprintf(stderr, "ERROR: USAGE: -k, --warnings conflicts with --no-warnings\n");
		return false;
	}
	c->opt.helper_check = 2; /* map lookups and probe reads too */
	return true;
}

bool bt_pid_026(const char *s, int *pid)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(s, &end, 0);
	if (!*s || *end || errno || *s == '-') {
		fprintf(stderr, "ERROR: Failed to parse pid: '%s' is not an unsigned integer\n", s);
		return false;
	}
	if (n > 0x400000) {
		fprintf(stderr, "ERROR: Pid out of range: %llu\n", n);
		return false;
	}
	if (!n || (kill((pid_t)n, 0) < 0 && errno == ESRCH)) {
		fprintf(stderr, "ERROR: Failed to attach to pid: no process %llu\n", n);
		return false;
	}
	*pid = (int)n;
	return true;
}

void bt_split_named_params(BtCli *c)
{
	int np = 0;
	Options *o = &c->opt;
	o->named = calloc((size_t)o->nparams + 1, sizeof(char *));
	for (int i = 0; i < o->nparams; i++) {
		if (!strncmp(o->params[i], "--", 2) && o->params[i][2])
			o->named[o->nnamed++] = o->params[i] + 2;
		else
			o->params[np++] = o->params[i];
	}
	o->nparams = np;
}
