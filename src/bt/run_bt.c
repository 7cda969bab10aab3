/* Running bpftrace's program: the source, -c's command, the compile, -d's
 * dumps, bpftrace's limits on programs and probes, then the runtime. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wordexp.h>

#include "../bpf/disasm.h"
#include "../lang/ast.h"
#include "../python/pystack.h"
#include "../sym/pylayout.h"
#include "../util/phase_time.h"
#include "../util/proc.h"
#include "cli_bt.h"
#include "config_bt.h"
#include "generation_bt.h"
#include "tools_bt.h"
#include "probe_filter_bt.h"


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

/* BPFTRACE_MAX_PROBES (default 512 in 0.17; 0.26's max_probes, read with
 * its config, is config_max): bpftrace refuses to attach more probes than
 * that, with these words */
static bool within_max_probes(int n, uint64_t config_max)
{
	const char *v = getenv("BPFTRACE_MAX_PROBES");
	char *end = NULL;
	unsigned long long max = config_max ? config_max : v ? strtoull(v, &end, 10) : 512;
	if (!config_max && v && (!*v || *end || !max)) {
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

char *bt_load_source(BtCli *c, Source *src)
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

/* -c: fork now, exec once the probes are attached (the child stops
 * itself), so that cpid is known at compile time. */
/* -c CMD: split into words as a shell would (wordexp, as bpftrace) */
static bool start_cmd_wordexp(BtCli *c)
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

static void debug_dump(BtCli *c, Program *ast, Script *sc)
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

/* the -c command is stopped before its exec: it never runs when sonde stops */
static void stop_child(BtCli *c)
{
	if (c->run.child_pid > 0) {
		kill(c->run.child_pid, SIGKILL);
		waitpid(c->run.child_pid, NULL, 0);
	}
}

int bt_run_program(BtCli *c)
{
	SourceFiles imports = {0}; /* the imported files' texts, for messages */
	Source src = {.files = &imports};
	char *text = bt_load_source(c, &src);
	if (!text)
		return 255; /* bpftrace's status when the script cannot be read */
	src.text = text;
	Error err = {0};
	int status = 1;
	Program *ast = parse_program_opts(&src, c->gen->fe.parse, &err);
	Script *sc = NULL;
	PyTarget *py = NULL;
	if (ast && c->gen->cli->config_vars && !bt_config_apply(c, ast, &err)) {
		diag_print(stderr, &src, &err);
		goto out;
	}
	if (ast && c->probe_filter && !bt_probe_filter(ast, c->probe_filter))
		goto out;
	if (ast && c->debug && !strcmp(c->debug, "ast")) {
		debug_dump(c, ast, NULL);
		status = 0;
		goto out;
	}
	if (ast && c->cmd && !c->debug && !c->mode && !start_cmd_wordexp(c)) {
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
		tool_suggest(c->file);
		stop_child(c);
		goto out;
	}
	for (int i = 0; i < sc->warnings.n && !c->no_warnings; i++)
		diag_print_warning(stderr, &src, &sc->warnings.v[i]);
	if (!within_max_bpf_progs(sc, c->max_bpf_progs)) {
		stop_child(c);
		goto out;
	}
	if (c->debug || c->mode) { /* --mode codegen: compiled, nothing loaded */
		if (c->debug)
			debug_dump(c, ast, sc);
		status = 0;
		goto out;
	}
	if (!within_max_probes(sc->nattach, c->max_probes)) {
		stop_child(c);
		goto out;
	}
	status = runtime_run(sc, &c->run);
out:
	script_free(sc);
	py_target_free(py);
	program_free(ast);
	free(text);
	source_files_free(&imports);
	return status;
}
