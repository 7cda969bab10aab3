/* bpftrace 0.26's config variables: one row each (its name, its kind, its
 * default, where it goes), set by a script's config block and by
 * BPFTRACE_<NAME> in the environment, which wins (language.md). */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config_bt.h"
#include "sema_bt.h"

typedef enum { CFG_INT, CFG_BOOL, CFG_WORD } CfgKind;

typedef struct CfgVar {
	const char *name;
	CfgKind kind;
	size_t off;                  /* in BtConfig */
	const char *const *choices;  /* CFG_WORD: the values it takes; NULL: any text */
} CfgVar;

static const char *const missing_choices[] = {"error", "warn", "ignore", NULL};
static const char *const cache_choices[] = {"PER_PID", "PER_PROGRAM", "NONE", NULL};
static const char *const unstable_choices[] = {"error", "warn", "enable", NULL};
static const char *const licenses[] = {"GPL", "GPL v2", "GPL and additional rights",
				       "Dual BSD/GPL", "Dual MIT/GPL", "Dual MPL/GPL", NULL};

#define INT(n) {#n, CFG_INT, offsetof(BtConfig, n), NULL}
#define BOOL(n) {#n, CFG_BOOL, offsetof(BtConfig, n), NULL}
#define WORD(n, c) {#n, CFG_WORD, offsetof(BtConfig, n), c}
static const CfgVar vars[] = {
	WORD(cache_user_symbols, cache_choices), BOOL(cpp_demangle), BOOL(lazy_symbolication),
	WORD(license, licenses), INT(log_size), INT(max_bpf_progs), INT(max_cat_bytes),
	INT(max_map_keys), INT(max_probes), INT(max_strlen), WORD(missing_probes, missing_choices),
	INT(on_stack_limit), INT(perf_rb_pages), BOOL(show_debug_info),
	WORD(stack_mode, bt_stack_modes_026), WORD(str_trunc_trailer, NULL), BOOL(print_maps_on_exit),
	WORD(unstable_tseries, unstable_choices), WORD(unstable_dw_ustack, unstable_choices),
};

/* set only from the environment (bpftrace.adoc, "Environment Variables") */
static const char *const env_only[] = {"btf", "kernel_build", "kernel_source", "vmlinux", "color",
				       NULL};

static const BtConfig defaults = {
	.max_strlen = 1024, .max_map_keys = 4096, .max_cat_bytes = 10240, .max_probes = 1024,
	.max_bpf_progs = 1024, .log_size = 1000000, .on_stack_limit = 32,
	.print_maps_on_exit = true, .cpp_demangle = true, .show_debug_info = true,
	.stack_mode = "bpftrace", .missing_probes = "error", .license = "GPL",
	.str_trunc_trailer = "..", .cache_user_symbols = "PER_PID", .unstable_tseries = "warn",
	.unstable_dw_ustack = "warn",
};

/* stack_mode, STACK_MODE and BPFTRACE_STACK_MODE name one variable */
static const CfgVar *var_named(const char *key, char *lower, size_t n)
{
	size_t i = 0;
	for (; key[i] && i + 1 < n; i++)
		lower[i] = (char)tolower((unsigned char)key[i]);
	lower[i] = 0;
	const char *name = strncmp(lower, "bpftrace_", 9) ? lower : lower + 9;
	memmove(lower, name, strlen(name) + 1);
	for (size_t v = 0; v < sizeof(vars) / sizeof(vars[0]); v++)
		if (!strcmp(vars[v].name, lower))
			return &vars[v];
	return NULL;
}

static void set_word(BtConfig *cfg, const CfgVar *v, const char *s)
{
	*(const char **)((char *)cfg + v->off) = s;
}

static bool choice_error(const CfgVar *v, const char *s, Error *err, Loc loc)
{
	StrBuf b = {0};
	for (const char *const *c = v->choices; *c; c++)
		sb_printf(&b, "%s%s", c == v->choices ? "" : ", ", *c);
	error_at(err, loc, "Invalid value for %s: '%s'. Valid values: %s", v->name, s, b.s);
	sb_free(&b);
	return false;
}

/* a block's entry, checked against the variable's kind */
static bool set_entry(BtConfig *cfg, const CfgVar *v, const ConfigEntry *e, Error *err)
{
	static const char *const kinds[] = {"integer", "string", "identifier"};
	char *at = (char *)cfg + v->off;
	if (v->kind == CFG_INT && e->kind == CONFIG_INT) {
		*(uint64_t *)at = e->num;
		cfg->perf_rb_pages_set |= v->off == offsetof(BtConfig, perf_rb_pages);
	} else if (v->kind == CFG_BOOL && e->kind == CONFIG_INT) {
		if (e->num > 1)
			return error_at(err, e->loc, "Invalid value for %s. Needs to be 0 or 1. Value: %llu",
					v->name, (unsigned long long)e->num);
		*(bool *)at = e->num;
	} else if (v->kind == CFG_BOOL && e->kind == CONFIG_WORD &&
		   (!strcmp(e->str, "true") || !strcmp(e->str, "false"))) {
		*(bool *)at = !strcmp(e->str, "true");
	} else if (v->kind == CFG_WORD && e->kind != CONFIG_INT) {
		if (v->choices && !str_in_list(e->str, v->choices))
			return choice_error(v, e->str, err, e->loc);
		set_word(cfg, v, e->str);
	} else {
		return error_at(err, e->loc, "Invalid type for %s. Type: %s. Expected Type: %s", v->name,
				kinds[e->kind], v->kind == CFG_WORD ? "string" : "integer");
	}
	return true;
}

/* BPFTRACE_<NAME>: the variable as text, read as its kind */
static bool set_env(BtConfig *cfg, const CfgVar *v, const char *env, const char *s, Error *err)
{
	char *at = (char *)cfg + v->off, *end;
	if (v->kind == CFG_INT) {
		unsigned long long n = strtoull(s, &end, 0);
		if (!*s || *end)
			return error_at(err, (Loc){0}, "Env var '%s' did not contain a valid uint64_t", env);
		*(uint64_t *)at = n;
		cfg->perf_rb_pages_set |= v->off == offsetof(BtConfig, perf_rb_pages);
	} else if (v->kind == CFG_BOOL) {
		bool on = !strcmp(s, "1") || !strcasecmp(s, "true");
		if (!on && strcmp(s, "0") && strcasecmp(s, "false"))
			return error_at(err, (Loc){0}, "Env var '%s' did not contain a valid value "
					"(0, 1, true or false)", env);
		*(bool *)at = on;
	} else if (v->choices && !str_in_list(s, v->choices)) {
		return choice_error(v, s, err, (Loc){0});
	} else {
		set_word(cfg, v, s);
	}
	return true;
}

static bool read_block(BtConfig *cfg, const Program *p, Error *err)
{
	for (int i = 0; p && i < p->nconfig; i++) {
		const ConfigEntry *e = &p->config[i];
		char name[128];
		const CfgVar *v = var_named(e->key, name, sizeof(name));
		if (!v && str_in_list(name, env_only))
			return error_at(err, e->loc, "%s can only be set as an environment variable", name);
		if (!v)
			return error_at(err, e->loc, "%s: not a known configuration option", e->key);
		if (!set_entry(cfg, v, e, err))
			return false;
	}
	return true;
}

/* BPFTRACE_<NAME> of every config variable */
static bool vars_from_env(BtConfig *cfg, Error *err)
{
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		char env[64] = "BPFTRACE_";
		for (size_t k = 0; vars[i].name[k] && k + 10 < sizeof(env); k++)
			env[9 + k] = (char)toupper((unsigned char)vars[i].name[k]);
		const char *s = getenv(env);
		if (s && !set_env(cfg, &vars[i], env, s, err))
			return false;
	}
	return true;
}

/* 0.17's names of variables 0.26 renamed: still read, after the new
 * names (so they win, as in 0.26), each with 0.26's warning (bpftrace's
 * main.cpp: "X is deprecated. Use Y instead."); an inverted one is the
 * variable's opposite (BPFTRACE_NO_CPP_DEMANGLE=1 is cpp_demangle=0) */
static const struct {
	const char *old, *var, *use;
	bool inverted;
} renamed[] = {
	{"BPFTRACE_NO_CPP_DEMANGLE", "cpp_demangle", "BPFTRACE_CPP_DEMANGLE=0", true},
	{"BPFTRACE_CAT_BYTES_MAX", "max_cat_bytes", "BPFTRACE_MAX_CAT_BYTES", false},
	{"BPFTRACE_MAP_KEYS_MAX", "max_map_keys", "BPFTRACE_MAX_MAP_KEYS", false},
};

static bool renamed_from_env(BtConfig *cfg, Error *err)
{
	for (size_t i = 0; i < sizeof(renamed) / sizeof(renamed[0]); i++) {
		const char *s = getenv(renamed[i].old);
		char name[64];
		const CfgVar *v = var_named(renamed[i].var, name, sizeof(name));
		if (!s || !v)
			continue;
		fprintf(stderr, "WARNING: %s is deprecated. Use %s instead.\n", renamed[i].old,
			renamed[i].use);
		if (!set_env(cfg, v, renamed[i].old, s, err))
			return false;
		if (renamed[i].inverted)
			*(bool *)((char *)cfg + v->off) ^= true;
	}
	return true;
}

bool bt_config_read(BtConfig *cfg, const Program *p, Error *err)
{
	*cfg = defaults;
	return read_block(cfg, p, err) && vars_from_env(cfg, err) && renamed_from_env(cfg, err);
}

/* sonde's ranges for what it sizes itself (strings in per-CPU scratch) */
static bool in_range(const char *name, uint64_t v, uint64_t lo, uint64_t hi, Error *err)
{
	if (v >= lo && v <= hi)
		return true;
	error_at(err, (Loc){0}, "%s must be from %llu to %llu in sonde, got %llu", name,
		 (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)v);
	return false;
}

bool bt_config_apply(BtCli *c, const Program *p, Error *err)
{
	BtConfig cfg;
	if (!bt_config_read(&cfg, p, err) || !in_range("max_strlen", cfg.max_strlen, 1, 1 << 20, err) ||
	    !in_range("max_map_keys", cfg.max_map_keys, 1, 1 << 24, err))
		return false;
	c->opt.strlen_max = (int)cfg.max_strlen;
	c->opt.str_fills = true;
	c->run.str_trailer = cfg.str_trunc_trailer;
	c->opt.map_keys_max = (int)cfg.max_map_keys;
	for (int m = 0; bt_stack_modes_026[m]; m++)
		if (!strcmp(cfg.stack_mode, bt_stack_modes_026[m]))
			c->opt.stack_mode = (StackMode)m;
	c->run.cat_bytes_max = (size_t)cfg.max_cat_bytes;
	c->max_bpf_progs = cfg.max_bpf_progs;
	c->max_probes = cfg.max_probes;
	c->run.rb_pages = cfg.perf_rb_pages;
	c->run.rb_pages_set = cfg.perf_rb_pages_set;
	c->run.no_maps_at_exit = !cfg.print_maps_on_exit;
	c->opt.missing_probes = !strcmp(cfg.missing_probes, "warn")     ? MISSING_WARN
				: !strcmp(cfg.missing_probes, "ignore") ? MISSING_IGNORE
									: MISSING_ERROR;
	return true;
}
