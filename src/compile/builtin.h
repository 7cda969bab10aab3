/* Functions of the languages (printf, str, count, D's strlen...): each is a
 * descriptor, a FuncDef, that gives its name, where it may appear, how many
 * arguments it takes, its type rule and its code generation.  Families of
 * them live in their own files (src/builtins/ for the core's and
 * bpftrace's, the front ends' folders for a dialect's own: D's subroutines
 * in src/dtrace/dfunc_*.c), each registering its table with BUILTINS(),
 * so the core (sema_call.c, codegen_call.c) never names one: adding a
 * function is a row in a family's file, or a new file. */
#pragma once
#include <stddef.h>

#include "script.h"

typedef struct Sema Sema;
struct Gen;

typedef enum FuncKind {
	FK_STMT, /* only as a statement: printf, exit, ... */
	FK_EXPR, /* yields a value */
	FK_AGG,  /* only as `@map[...] = f(...)` */
	FK_VAR,  /* yields a value, only as `$var = f(...)` (bpftrace's skboutput) */
} FuncKind;

/* bpftrace 0.17's first-pass check of a function's argument, in its
 * words: an argument of the wrong kind, or "none" (an undefined variable,
 * a map without a value: Expr.none), which it reports besides the cause.
 * ints/ptrs: the kinds taken (neither: only "none" is checked there, the
 * rest by the function's own check); last: the last argument, not the
 * first; typed: an argument whose own check failed but that has a type
 * all the same (str(ksym($u)): a ksym) is checked too (sema_call.c). */
typedef struct BtArgCheck {
	const char *msg; /* %1$s the function, %2$s the kind */
	bool ints, ptrs, last, typed;
} BtArgCheck;

/* which dialects see a row: 0 every one; a dialect's own row for a name
 * comes before the shared one (D's exit(N) before bpftrace's exit()) */
#define FUNC_D (1u << DIALECT_D)

/* Optional sets of functions and builtin variables: a row in a set is seen
 * only by a front end whose SemaHooks.func_sets names the set, and comes
 * before a row of the same name outside every set (bpftrace 0.26's
 * exit(code) before 0.17's exit()).  A front end picks its sets in its own
 * tables (bt/generation_bt.c), so the core never asks which language it
 * serves. */
#define FSET_BT_STDLIB (1u << 0) /* bpftrace's standard library as 0.26 documents it */

typedef struct FuncDef {
	const char *name; /* no id: a row's hooks say what it is */
	FuncKind kind;
	int min_args, max_args;
	bool (*check)(Sema *s, Expr *call); /* sets call->type */
	unsigned dialects; /* FUNC_D: D's (sonde dtrace), unknown in bpftrace scripts */
	const BtArgCheck *bt_arg; /* bpftrace's first check of the argument, or NULL */
	/* the type the call has however its argument failed (bpftrace types
	 * str(), ksym()... all the same), or NULL */
	Type *(*kept_type)(Sema *s);
	/* code generation, by kind: a statement, a value in r0, or a value
	 * written at scratch dst_off as type dt; NULL: the core's own code */
	void (*gen_stmt)(struct Gen *g, const Expr *e);
	void (*gen_int)(struct Gen *g, const Expr *e);
	void (*gen_into)(struct Gen *g, const Expr *e, int dst_off, const Type *dt);
	/* bpftrace's tag of the memory the value points into (AS_*, only for
	 * its "Addrspace mismatch" warning: sema_addrspace.c); NULL: none */
	int (*addrspace)(const Sema *s, const Expr *call);
	/* FK_AGG of an aggregation the core does not update itself: r0 = this
	 * CPU's slot of the map value, r1 = the value (codegen_map.c) */
	void (*gen_agg)(struct Gen *g, const Expr *call);
	unsigned sets; /* FSET_*: the optional sets the row is in; 0: in none, always seen */
	/* FK_AGG: the aggregation the call makes (TY_COUNT, TY_HIST...), read
	 * by the check that such rows share (builtins/aggs.c); else unused */
	TypeKind agg;
	/* its value is known once it is checked: call->aux (is_str()...), which
	 * sema_const_int reads */
	bool known;
} FuncDef;

/* A family's table, known to the core from the program's start (a
 * constructor: the core never names a family, and every program linked
 * with it, the unit tests too, has its functions).  A name has at most one
 * row per dialect set and optional set: builtin_duplicate() names one that has two (a
 * mistake of the program's: tests/unit/test_funcs.c checks there is none). */
void builtin_register(const FuncDef *rows, size_t n);
const char *builtin_duplicate(void);
#define BUILTINS(table)                                                                   \
	__attribute__((constructor)) static void register_##table(void)                \
	{                                                                              \
		builtin_register(table, sizeof(table) / sizeof(table[0]));             \
	}

/* the function `name`: the row every dialect shares if there is one, else
 * a dialect's own */
const FuncDef *func_find(const char *name);
/* the function `name` in dialect d (DIALECT_*) for a front end that sees
 * the optional sets `sets` (FSET_*): a row in one of those sets first, then
 * d's own row, then the shared one; never another dialect's, nor a row of
 * a set it does not see */
const FuncDef *func_find_in(const char *name, Dialect d, unsigned sets);

/* for the families' checks: an argument of the wanted kind or literal, in
 * the dialect's words (sema_call.c) */
bool sema_arg_int(Sema *s, Expr *call, int i);
bool sema_arg_literal_int(Sema *s, Expr *call, int i, int64_t *out);
/* a numeric positional parameter where a literal is wanted: the literal
 * (sema_expr.c); else e is left as it is */
void sema_posparam_fold(Sema *s, Expr *e);
/* argument i of call is a string literal (str($N) folded to one) */
bool sema_arg_literal_str(Sema *s, Expr *call, int i);
bool sema_arg_map(Sema *s, Expr *call, int i, bool keys_allowed);
bool sema_arg_kind(Sema *s, Expr *call, int i, TypeKind k);
bool sema_agg_int_arg(Sema *s, Expr *c, int i);
/* an integer operand (an aggregation's, a length): sema_agg_int_arg or
 * sema_arg_int, as the dialect reports it (SemaHooks.int_args_at_call) */
bool sema_int_operand(Sema *s, Expr *c, int i);
/* a printf-style format (argument 0) and its arguments from `first` on */
bool sema_check_format(Sema *s, Expr *call, int first);
/* the aggregation a map read holds (@c after @c = count()) where it is no
 * number (SemaHooks.agg_values), or NULL */
const Type *sema_map_agg_value(Sema *s, const Expr *a);
/* reg() or uaddr() in a probe that has no use for it, in bpftrace's
 * words; false to stop */
bool sema_bt_wrong_probe(Sema *s, Expr *c);
