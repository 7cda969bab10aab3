/* -l: the probes a pattern names, or (bpftrace 0.26) the probes a program
 * would attach: `-l -e 'PROGRAM'`, `-l FILE.bt`.  The generation's
 * BtCliRules say whether a program may be listed and how (list_rules). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lang/ast.h"
#include "../probes/list_pattern.h"
#include "../probes/list_types.h"
#include "../probes/provider.h"
#include "cli_bt.h"
#include "generation_bt.h"

static ProbeTarget list_target(BtCli *c)
{
	return (ProbeTarget){.maps_pid = c->run.watch_pid, .sym = c->opt.sym};
}

/* A pattern bpftrace 0.26 reads as a script: one ending in ".bt".  When no
 * such file exists it says so and lists the pattern as one. */
static bool pattern_is_script(const char *pattern)
{
	size_t n = strlen(pattern);
	if (n < 3 || strcmp(pattern + n - 3, ".bt"))
		return false;
	if (access(pattern, F_OK) == 0)
		return true;
	fprintf(stderr, "WARNING: It appears that '%s' is a filename but the file does not exist. "
		"Treating '%s' as a search pattern.\n", pattern, pattern);
	return false;
}

/* Each attach point of each probe, listed as its pattern would be; the
 * special probes (BEGIN, END, begin, end) have nothing to list. */
static int list_program(BtCli *c)
{
	SourceFiles imports = {0}; /* the imported files' texts, for messages */
	Source src = {.files = &imports};
	char *text = bt_load_source(c, &src);
	if (!text)
		return 255;
	src.text = text;
	Error err = {0};
	Program *ast = parse_program_opts(&src, c->gen->fe.parse, &err);
	int status = ast ? 0 : 1;
	if (!ast)
		diag_print(stderr, &src, &err);
	ProbeTarget target = list_target(c);
	for (int p = 0; ast && p < ast->nprobes && !status; p++) {
		for (int a = 0; a < ast->probes[p]->naps && !status; a++) {
			const char *ap = ast->probes[p]->aps[a].text;
			if (strchr(ap, ':') &&
			    probe_list(stdout, ap, c->list_verbose, &target, c->gen->cli->list_rules) < 0)
				status = 1;
		}
	}
	program_free(ast);
	free(text);
	source_files_free(&imports);
	return status;
}

/* -l [PATTERN]: bpftrace parses the pattern as attach points first */
static int list_pattern(BtCli *c, const char *pattern)
{
	ProbeTarget target = list_target(c);
	const ProbeListRules *rules = c->gen->cli->list_rules;
	if (!pattern)
		return probe_list(stdout, NULL, c->list_verbose, &target, rules) < 0;
	if (list_types_wanted(pattern))
		return list_types(c->opt.sym, stdout, pattern, c->list_verbose) < 0;
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
	int n = probe_list(stdout, *clean ? clean : NULL, c->list_verbose, &target, rules);
	free(clean);
	return n < 0 ? 1 : 0;
}

int bt_list_probes(BtCli *c)
{
	if (c->gen->cli->list_program && c->program)
		return list_program(c);
	if (c->gen->cli->list_program && c->list_pattern && pattern_is_script(c->list_pattern)) {
		c->file = c->list_pattern;
		return list_program(c);
	}
	return list_pattern(c, c->list_pattern);
}
