/* bpftrace's generations (src/bt/generation_bt.c) and the language of
 * bpftrace 0.26.1 as the parser and sema take it: each 0.26 rule on in the
 * default generation, off under 0.17. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "bt/config_bt.h"
#include "bt/generation_bt.h"
#include "lang/ast.h"

static const BtGeneration *g026, *g017;

/* ---- the generations ---- */

static void test_generations(void)
{
	CHECK(g026 && g017 && g026 != g017);
	CHECK(bt_generation_named("0.17.0") == g017);
	CHECK(bt_generation_named("0.26") == g026);
	CHECK(!bt_generation_named("0.170"));
	CHECK(!bt_generation_named("0.18"));
	CHECK(!bt_generation_named(""));
	/* 0.17 is every rule off: the parser as it was; both ask the
	 * providers which of them take a file path */
	ParseOpts rules = *g017->fe.parse;
	rules.path_provider = NULL;
	CHECK(!memcmp(&rules, &parse_opts_017, sizeof(ParseOpts)));
	unsetenv("SONDE_COMPAT");
	CHECK(bt_generation_from_env() == g026);
	setenv("SONDE_COMPAT", "0.17", 1);
	CHECK(bt_generation_from_env() == g017);
	unsetenv("SONDE_COMPAT");
}

/* ---- attach points ---- */

/* the providers whose first part is a file path, by their own flag */
static void test_path_providers(void)
{
	bool (*pp)(const char *, size_t) = g026->fe.parse->path_provider;
	CHECK(pp && g017->fe.parse->path_provider == pp);
	static const char *const yes[] = {"uprobe", "u", "uretprobe", "ur", "usdt", "U"};
	static const char *const no[] = {"kprobe", "k", "tracepoint", "upro", "uprobes", "iter"};
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		CHECK(pp(yes[i], strlen(yes[i])));
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		CHECK(!pp(no[i], strlen(no[i])));
	CHECK(pp("usdt:x", 4) && !pp("usdt:x", 3));
}

static Program *parse_gen(const BtGeneration *g, const char *text, Error *err)
{
	Source src = { "test", text };
	memset(err, 0, sizeof(*err));
	return parse_program_opts(&src, g->fe.parse, err);
}

/* the first attach point's text as the parser leaves it */
static void check_ap(const BtGeneration *g, const char *prog, const char *want)
{
	Error err;
	Program *p = parse_gen(g, prog, &err);
	CHECK(p != NULL);
	if (p)
		CHECK_STR(p->probes[0]->aps[0].text, want);
	if (p)
		program_free(p);
}

static void test_begin_end(void)
{
	check_ap(g026, "begin { }", "BEGIN");
	check_ap(g026, "End { }", "END");
	check_ap(g026, "BEGIN { }", "BEGIN");
	check_ap(g026, "Tracepoint:sched:sched_switch { }", "tracepoint:sched:sched_switch");
	check_ap(g026, "uprobe:/bin/Bash:Main { }", "uprobe:/bin/Bash:Main");
	check_ap(g026, "beginning:x { }", "beginning:x");
	/* 0.17: as written (the provider lookup refuses them) */
	check_ap(g017, "begin { }", "begin");
	check_ap(g017, "Tracepoint:sched:x { }", "Tracepoint:sched:x");
	/* several begin probes are CodegenHooks.many_begin_end's */
	CHECK(g026->fe.codegen && g026->fe.codegen->many_begin_end);
	CHECK(!g017->fe.codegen || !g017->fe.codegen->many_begin_end);
}

/* `NAME=provider:...` (ParseOpts.named_probes): the name kept apart, the
 * attach point's text and place after it; 0.17 reads it all as the
 * attach point */
static void test_named_probes(void)
{
	check_ap(g026, "first=begin { }", "BEGIN");
	check_ap(g026, "t_1=kprobe:f { }", "kprobe:f");
	check_ap(g026, "uprobe:/bin/a=b:f { }", "uprobe:/bin/a=b:f");
	check_ap(g017, "n=BEGIN { }", "n=BEGIN");
	Error err;
	Program *p = parse_gen(g026, "begin { }\nn=kprobe:f,k:g { }", &err);
	CHECK(p && p->nprobes == 2);
	if (p && p->nprobes == 2) {
		const AttachPoint *ap = &p->probes[1]->aps[0];
		CHECK(ap->name && !strcmp(ap->name, "n") && ap->loc.line == 2 && ap->loc.col == 3 &&
		      ap->loc.len == 8);
		CHECK(!p->probes[1]->aps[1].name && !p->probes[0]->aps[0].name);
	}
	program_free(p);
}

/* ---- integer literals ---- */

/* `begin { $x = LIT; }`: LIT's value, or -1 when it does not parse */
static long long lit_value(const BtGeneration *g, const char *lit)
{
	char prog[128];
	snprintf(prog, sizeof(prog), "begin { $x = %s; }", lit);
	Error err;
	Program *p = parse_gen(g, prog, &err);
	long long v = p ? (long long)p->probes[0]->body.v[0]->expr->ival : -1;
	if (p)
		program_free(p);
	return v;
}

static void test_literals(void)
{
	CHECK(lit_value(g026, "100ms") == 100000000LL);
	CHECK(lit_value(g026, "1s") == 1000000000LL);
	CHECK(lit_value(g026, "5us") == 5000);
	CHECK(lit_value(g026, "7ns") == 7);
	CHECK(lit_value(g026, "1m") == 60000000000LL);
	CHECK(lit_value(g026, "2h") == 7200000000000LL);
	CHECK(lit_value(g026, "1d") == 86400000000000LL);
	CHECK(lit_value(g026, "1_000ms") == 1000000000LL);
	CHECK(lit_value(g026, "0x1d") == 29); /* a hex digit, not days */
	CHECK(lit_value(g026, "123UL") == 123);
	CHECK(lit_value(g026, "0x10u") == 16);
	CHECK(lit_value(g026, "5LL") == 5);
	CHECK(lit_value(g026, "2e3") == 2000);
	CHECK(lit_value(g026, "1000000000d") == -1); /* too large */
	CHECK(lit_value(g026, "10xs") == -1);
	CHECK(lit_value(g026, "5msx") == -1);
	Error err;
	Program *p = parse_gen(g026, "begin { $x = 1000000000d; }", &err);
	CHECK(!p && strstr(err.msg, "too large"));
	/* 0.17: no units, no suffixes */
	CHECK(lit_value(g017, "1s") == -1);
	CHECK(lit_value(g017, "123UL") == -1);
	CHECK(lit_value(g017, "0x1d") == 29);
}

/* ---- the config block ---- */

static void test_config_parse(void)
{
	Error err;
	Program *p = parse_gen(g026, "config = { stack_mode=raw; MAX_STRLEN = 8; license = \"GPL\" }\n"
				     "begin { }", &err);
	CHECK(p && p->nconfig == 3);
	if (p && p->nconfig == 3) {
		CHECK_STR(p->config[0].key, "stack_mode");
		CHECK(p->config[0].kind == CONFIG_WORD);
		CHECK_STR(p->config[0].str, "raw");
		CHECK(p->config[1].kind == CONFIG_INT && p->config[1].num == 8);
		CHECK(p->config[2].kind == CONFIG_STR);
		CHECK_STR(p->config[2].str, "GPL");
		CHECK(p->config[0].loc.col == 12 && p->config[0].loc.len == 14); /* stack_mode=raw */
		CHECK(p->nprobes == 1);
	}
	if (p)
		program_free(p);
	p = parse_gen(g026, "config = {} begin { }", &err);
	CHECK(p && p->config && !p->nconfig);
	if (p)
		program_free(p);
	CHECK(!parse_gen(g026, "config = { a = } begin { }", &err));
	CHECK(!parse_gen(g026, "config = { a = 1 b = 2 } begin { }", &err) &&
	      strstr(err.msg, "expecting ; or }"));
	CHECK(!parse_gen(g026, "begin { } config = { a = 1 }", &err));
	CHECK(!parse_gen(g017, "config = { max_strlen = 8 } BEGIN { }", &err));
}

static void test_config_read(void)
{
	Error err = {0};
	BtConfig cfg;
	unsetenv("BPFTRACE_MAX_STRLEN");
	CHECK(bt_config_read(&cfg, NULL, &err));
	CHECK(cfg.max_probes == 1024 && cfg.print_maps_on_exit && !strcmp(cfg.missing_probes, "error"));
	CHECK(cfg.max_strlen == 1024 && !strcmp(cfg.str_trunc_trailer, "..")); /* 0.26's defaults */
	Program *p = parse_gen(g026, "config = { BPFTRACE_MAX_STRLEN = 8; missing_probes = warn; "
				     "print_maps_on_exit = 0 } begin { }", &err);
	CHECK(p && bt_config_read(&cfg, p, &err));
	CHECK(cfg.max_strlen == 8 && !strcmp(cfg.missing_probes, "warn") && !cfg.print_maps_on_exit);
	setenv("BPFTRACE_MAX_STRLEN", "100", 1); /* the environment wins */
	CHECK(p && bt_config_read(&cfg, p, &err) && cfg.max_strlen == 100);
	unsetenv("BPFTRACE_MAX_STRLEN");
	/* 0.17's BPFTRACE_MAP_KEYS_MAX still sets max_map_keys (with a
	 * warning), over 0.26's BPFTRACE_MAX_MAP_KEYS */
	setenv("BPFTRACE_MAX_MAP_KEYS", "20", 1);
	CHECK(bt_config_read(&cfg, NULL, &err) && cfg.max_map_keys == 20);
	setenv("BPFTRACE_MAP_KEYS_MAX", "10", 1);
	CHECK(bt_config_read(&cfg, NULL, &err) && cfg.max_map_keys == 10);
	setenv("BPFTRACE_MAP_KEYS_MAX", "x", 1);
	CHECK(!bt_config_read(&cfg, NULL, &err) &&
	      !strcmp(err.msg, "Env var 'BPFTRACE_MAP_KEYS_MAX' did not contain a valid uint64_t"));
	unsetenv("BPFTRACE_MAP_KEYS_MAX");
	unsetenv("BPFTRACE_MAX_MAP_KEYS");
	memset(&err, 0, sizeof(err));
	if (p)
		program_free(p);
	static const char *const bad[] = {
		"config = { nope = 1 } begin { }", "not a known configuration option",
		"config = { max_strlen = \"x\" } begin { }", "Invalid type for max_strlen",
		"config = { print_maps_on_exit = 3 } begin { }", "Needs to be 0 or 1",
		"config = { missing_probes = maybe } begin { }", "Invalid value for missing_probes",
		"config = { vmlinux = \"x\" } begin { }", "can only be set as an environment variable",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i += 2) {
		memset(&err, 0, sizeof(err));
		p = parse_gen(g026, bad[i], &err);
		CHECK(p && !bt_config_read(&cfg, p, &err) && strstr(err.msg, bad[i + 1]));
		if (p)
			program_free(p);
	}
}

int main(void)
{
	g026 = bt_generation_named("0.26.1");
	g017 = bt_generation_named("0.17");
	test_generations();
	test_begin_end();
	test_named_probes();
	test_path_providers();
	test_literals();
	test_config_parse();
	test_config_read();
	return check_done("test_bt26");
}
