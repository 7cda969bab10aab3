/* The language rules a parser follows, as flags named for each rule.  A
 * front end fills them (the bpftrace front end from its generation:
 * src/bt/generation_bt.c); the parser and lexer read the flags and never
 * ask which dialect or generation they serve.  All false: bpftrace 0.17's
 * language.  A new rule is a new flag here, documented by what it allows. */
#pragma once
#include <stdbool.h>
#include <stddef.h>

typedef struct ParseOpts {
	/* `begin`/`end` (any case) name BEGIN/END, and probe providers match
	 * in any case (several begin/end probes: CodegenHooks.many_begin_end) */
	bool lowercase_begin_end;
	/* `config = { key = value; ... }` before the probes */
	bool config_block;
	/* `100ms`, `1s`, `5us`, `2ns`, `1m`, `1h`, `1d` as integer literals in
	 * nanoseconds (decimal literals) */
	bool duration_literals;
	/* C's integer suffixes accepted and ignored: `123UL`, `0x10u`, `5LL` */
	bool int_suffixes;
	/* `let $x[: type] [= expr];` (lang/parse_stmt.c); not yet: block
	 * scoping */
	bool let_decls;
	/* `let @m = hash(N);` before the probes (lang/parse_mapdecl.c) */
	bool map_decls;
	/* `if cond { }`, `while cond { }`, `for $kv : @m { }` without
	 * parentheses (lang/parse_stmt.c, parse_loop.c) */
	bool bare_conditions;
	/* builtins called as functions: `comm()`, `pid()` */
	bool builtin_calls;
	/* `_ = expr;` discards a value */
	bool discard_assign;
	/* `true` and `false` are literals of type bool (SemaHooks.bools) */
	bool bool_literals;
	/* blocks and `if` as expressions: `$x = { ...; v }`,
	 * `if c { a } else { b }` (lang/parse_block.c) */
	bool block_exprs;
	/* `a ?: b`: a when a is true (evaluated once), else b */
	bool elvis;
	/* `for ($kv : @map) { }`, `for ($i : a..b) { }` (lang/parse_loop.c) */
	bool for_loops;
	/* records `(a = 1, b = "x")` (lang/parse_record.c) */
	bool records;
	/* `typeof(TYPE)` / `typeof(EXPR)` as the type of a cast or a `let`
	 * (lang/parse_type.c; sema takes an expression's type) */
	bool typeof_types;
	/* `comptime EXPR` (a value known while compiling) and `if comptime
	 * (...)`, an if that keeps only the branch it picks (compile/sema.c,
	 * builtins/introspect.c); `typeinfo(EXPR)` is a function of that set */
	bool comptime;
	/* `macro name($v, @m, e) { ... }` items, expanded at their calls
	 * (lang/parse_macro.c, lang/macro_expand.c) */
	bool macros;
	/* `import "file.bt";` / `import "dir";` before the other items
	 * (lang/parse_import.c) */
	bool imports;
	/* `NAME=provider:...`: an attach point may be named (AttachPoint.name,
	 * which bpftrace 0.26 reserves for its own use; lang/parse_probe.c) */
	bool named_probes;
	/* an attach point may begin with a positional parameter, `$1 { }`
	 * with `i:ms:1` on the command line (its text put in at compile time,
	 * as `interval:ms:$1`'s is in both generations) */
	bool posparam_probes;
	/* The macro expansion's one question, answered by the front end:
	 * whether name is a function of the language, so a call to it with
	 * another arity than a macro of that name's is the function's.  NULL:
	 * none is. */
	bool (*is_function)(const char *name);
	/* The lexer's one question about providers, answered by the front end
	 * (from the provider interface): whether the provider named by the
	 * first len bytes of name takes a file path as its next part, '/'s and
	 * all (uprobe:bin/x:f), where a '/' elsewhere opens the predicate
	 * (kprobe:f/pid == 1/).  NULL: no provider does. */
	bool (*path_provider)(const char *name, size_t len);
} ParseOpts;

/* bpftrace 0.17's rules: every flag off */
extern const ParseOpts parse_opts_017;
