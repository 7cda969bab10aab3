/* bpftrace 0.26's config variables (docs/language.md, "Config Variables"):
 * a script's `config = { ... }` block and their environment variables
 * (BPFTRACE_<NAME>, which win over the block), read and checked as 0.26
 * does, then handed to the compile and the run (config_bt.c). */
#pragma once
#include <stdbool.h>
#include <stdint.h>

#include "../lang/ast.h"
#include "cli_bt.h"

typedef struct BtConfig {
	uint64_t max_strlen, max_map_keys, max_cat_bytes, max_probes, max_bpf_progs;
	uint64_t perf_rb_pages, log_size, on_stack_limit;
	bool perf_rb_pages_set;
	bool print_maps_on_exit, cpp_demangle, lazy_symbolication, show_debug_info;
	const char *stack_mode, *missing_probes, *license, *str_trunc_trailer;
	const char *cache_user_symbols, *unstable_tseries, *unstable_dw_ustack;
} BtConfig;

/* 0.26's defaults, then p's config block (NULL: none), then the
 * environment; false with err set (a block's entry: at its location) */
bool bt_config_read(BtConfig *cfg, const Program *p, Error *err);
/* bt_config_read's values into c's compile and run options; false with
 * err set (also for a value sonde cannot honour) */
bool bt_config_apply(BtCli *c, const Program *p, Error *err);
