/* bpftrace's generations as tables: each fills the rules the core reads
 * (generation_bt.h).  0.17 is every rule off; 0.26.1 turns on the grammar
 * and rules bpftrace added since (docs/bpftrace-generations.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../compile/builtin.h"
#include "../compile/sema_hooks.h"
#include "../probes/provider.h"
#include "frontend_bt.h"
#include "generation_bt.h"
#include "sema_bt.h"
#include "usage_bt.h"

static const BtCliRules cli_017 = {
	.usage = bt_usage_017,
	.version = bt_version_017,
};

/* ParseOpts.path_provider: the provider's own flag (probes/provider.h) */
static bool path_provider(const char *name, size_t len)
{
	char buf[32];
	if (len >= sizeof(buf))
		return false;
	memcpy(buf, name, len);
	buf[len] = 0;
	const Provider *p = provider_find(buf);
	return p && p->takes_path;
}

/* ParseOpts.is_function: a function or builtin of 0.26's bpftrace (its
 * standard library's among them: `cpu()` is one) */
static bool is_function(const char *name)
{
	return func_find_in(name, DIALECT_BPFTRACE, FSET_BT_STDLIB) ||
	       builtin_var_named(name, FSET_BT_STDLIB);
}

/* 0.17: every rule off */
static const ParseOpts parse_017 = {
	.path_provider = path_provider,
};

static const BtGeneration gen_017 = {
	.name = "0.17",
	.cli = &cli_017,
	.fe = {
		.name = "bpftrace 0.17",
		.dialect = DIALECT_BPFTRACE,
		.parse = &parse_017,
		.sema = &bt_sema_hooks,
		.rt = &bt_frontend_rt,
	},
};

/* 0.26: any number of begin/end probes, run in the script's order; traced
 * probes run only between BEGIN and exit() */
static const CodegenHooks codegen_026 = {
	.many_begin_end = true,
	.gate_probes = true,
	.self_probes = true,
	.pid_filters_all = true,
};

static const ProbeListRules list_026 = {
	.timer_units = true,
	.glob_rawtracepoints = true,
	.rawtp_btf_args = true,
	.fentry_names = true,
};

static const ProbeRules probes_026 = {
	.rawtp_btf = true,
	.lower_special = true,
};

static const BtCliRules cli_026 = {
	.long_options = true,
	.debug_stages = true,
	.pid_words_026 = true,
	.config_vars = true,
	.named_params = true,
	.list_program = true,
	.list_rules = &list_026,
	.usage = bt_usage_026,
	.version = bt_version_026,
};

static const ParseOpts parse_026 = {
	.lowercase_begin_end = true,
	.duration_literals = true,
	.int_suffixes = true,
	.for_loops = true,
	.records = true,
	.typeof_types = true,
	.comptime = true,
	.bool_literals = true,
	.bare_conditions = true,
	.let_decls = true,
	.map_decls = true,
	.config_block = true,
	.macros = true,
	.imports = true,
	.named_probes = true,
	.posparam_probes = true,
	.is_function = is_function,
	.discard_assign = true,
	.block_exprs = true,
	.elvis = true,
	.path_provider = path_provider,
};

static const BtGeneration gen_026 = {
	.name = "0.26.1",
	.cli = &cli_026,
	.fe = {
		.name = "bpftrace 0.26.1",
		.dialect = DIALECT_BPFTRACE,
		.parse = &parse_026,
		.codegen = &codegen_026,
		.sema = &bt_sema_hooks_026,
		.rt = &bt_frontend_rt_026,
		.probes = &probes_026,
	},
};

/* "0.17" matches "0.17" and "0.17.x", not "0.170" */
static bool version_is(const char *name, const char *ver)
{
	size_t n = strlen(ver);
	return !strncmp(name, ver, n) && (!name[n] || name[n] == '.');
}

const BtGeneration *bt_generation_named(const char *name)
{
	if (version_is(name, "0.17"))
		return &gen_017;
	if (version_is(name, "0.26"))
		return &gen_026;
	return NULL;
}

void bt_generation_unknown(const char *what, const char *name)
{
	fprintf(stderr, "ERROR: %s: unknown bpftrace generation '%s' (known: 0.26, the default; "
		"0.17)\n", what, name);
}

const BtGeneration *bt_generation_from_env(void)
{
	const char *v = getenv("SONDE_COMPAT");
	if (!v || !*v)
		return &gen_026;
	const BtGeneration *g = bt_generation_named(v);
	if (!g)
		bt_generation_unknown("SONDE_COMPAT", v);
	return g;
}
