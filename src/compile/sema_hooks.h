/* What a dialect decides in semantic analysis: where the bpftrace dialect
 * and D differ, the core (sema*.c) asks its front end through this table
 * instead of testing the dialect.  Each front end fills one (bt/sema_bt.c:
 * bt_sema_hooks, dtrace/sema_d.c: d_sema_hooks); the caller that knows the
 * dialect puts it in Options.sema, with Options.dialect.  A NULL hook is
 * the core's own rule, a false flag the core's own behaviour. */
#pragma once
#include "sema.h"

/* a builtin variable: its name and the type of its value */
typedef struct BuiltinDef {
	const char *name;
	BuiltinId id;
	TypeKind kind;
	int size; /* TY_INT: bits */
	bool is_signed;
	/* a family's variable (B_FAMILY, registered with BUILTIN_VARS): its
	 * type rule (sets e->type; NULL: the type the columns above say) and
	 * its code (the value written at scratch dst_off as type dt) */
	bool (*check)(Sema *s, Expr *e);
	void (*gen_into)(struct Gen *g, const Expr *e, int dst_off, const Type *dt);
	unsigned sets; /* a family's: the optional sets it is in (builtin.h: FSET_*) */
	/* a family's integer: its code, the value left in r0 */
	void (*gen_int)(struct Gen *g, const Expr *e);
	bool truth; /* TY_INT: a truth value, typed as the dialect types them (sema_truth_type) */
} BuiltinDef;

/* Builtin variables of a family outside the core (python/: pystack),
 * registered at start-up as the families' functions are (builtin.h): the
 * core looks them up after its own and never names one. */
void builtin_var_register(const BuiltinDef *rows, size_t n);
/* the registered variable `name` in one of the optional sets `sets`
 * (in_sets), or in none (!in_sets); NULL if there is none (builtin.c) */
const BuiltinDef *builtin_var_find(const char *name, unsigned sets, bool in_sets);
/* whether name is a builtin variable of the core's table or a family's
 * (in no set, or in one of sets): for a front end's questions before sema
 * (bpftrace's macro calls, bt/generation_bt.c) */
bool builtin_var_named(const char *name, unsigned sets);
#define BUILTIN_VARS(table)                                                               \
	__attribute__((constructor)) static void register_##table(void)                \
	{                                                                              \
		builtin_var_register(table, sizeof(table) / sizeof(table[0]));         \
	}

typedef struct SemaHooks {
	/* the strict pass records every error (bpftrace's last pass); else it
	 * stops at the first, as dtrace */
	bool every_error;
	/* an expression is checked once per probe visit (Sema.visit) */
	bool check_once;
	/* a read of a variable never assigned is a "none" value (bpftrace) */
	bool none_values;
	/* integers keep their width in map keys and values (D, whose keys
	 * dtrace prints by their width), else they widen to 64 bits */
	bool ints_keep_width;
	/* <, <=, >, >= order strings (D: as strcmp) */
	bool strings_ordered;
	/* strings are the language's one type of strlen_max bytes, NUL included
	 * (D's strsize + 1): a constant's value keeps at most that, and sizeof
	 * of a string that is not a constant is strlen_max - 1 (dtrace's
	 * strsize); else a constant is its whole text, sizeof its type's size */
	bool strsize_strings;
	/* ++, -- and op= take members, elements and pointees (D) */
	bool store_places;
	/* a map assignment's type error is reported at the value (D), else at
	 * the map */
	bool map_error_at_value;
	/* a mismatch of two operands' address spaces is warned of (bpftrace) */
	bool addrspace_warn;
	/* comparisons, !, && and || (and functions that test) give a bool,
	 * printed true/false (bpftrace 0.26); else an unsigned integer */
	bool bools;
	/* a positional parameter that is not a number is the string it is
	 * (bpftrace 0.26's `$1` of `p1`); else an error that asks for str($1) */
	bool posparam_strings;
	/* a value of a C enum's type (an enumerator, a cast to the enum, a
	 * member of that type) prints as its enumerator's name, in print(), maps
	 * and printf's %s (bpftrace 0.26; not in JSON but for %s) */
	bool enum_names;
	/* the script's C definitions may declare variables (D) */
	bool c_vars;
	/* `.` on a pointer reads through it, and `->` is only another way to
	 * write `.` (bpftrace 0.26); else `.` needs a record, `->` a pointer */
	bool dot_derefs;
	/* `&$x` is a pointer to the variable's value (bpftrace 0.26); else
	 * `&` is refused */
	bool addr_of_vars;
	/* a $variable lives in the block that first sets or declares it
	 * (`let`), and a `let` of a variable already seen is an error
	 * (bpftrace 0.26); else it lives in the whole probe */
	bool block_scoping;
	/* `c ? buf(a, 2) : buf(b, 3)`: arms that are buffers (bpftrace 0.26);
	 * else `Ternary return type unsupported buffer` */
	bool ternary_buffers;
	/* calls that, alone as a statement, print their value, and the call
	 * that prints it (NULL-terminated) */
	const char *const *stack_actions;
	const char *stack_print;
	/* the modes kstack(MODE)/ustack(MODE) take, by StackMode (types.h),
	 * NULL-terminated; NULL: bpftrace and perf */
	const char *const *stack_modes;
	/* the dialect's own builtin variables, looked up before the core's */
	const BuiltinDef *builtins;
	int nbuiltins;
	/* the optional sets of functions and variables it sees (builtin.h:
	 * FSET_*) */
	unsigned func_sets;
	/* a builtin variable X is also X() and __builtin_X */
	bool vars_as_calls;
	/* sargN is no builtin (bpftrace 0.26 removed it): an unknown identifier */
	bool no_sarg;
	/* a bare identifier where a type may stand (sizeof, offsetof) that is
	 * no builtin names a type: a typedef, else a struct's or union's tag
	 * (`offsetof(qspinlock, tail)`, `sizeof(uint64_t)`: bpftrace 0.26);
	 * else only a typedef the script defines is taken so */
	bool bare_type_names;
	/* `args` used as a value (print(args), `$a = args`, a tuple's element)
	 * is the record of the probe's arguments (bpftrace 0.26:
	 * sema_args_value.c); else only args.NAME reads */
	bool args_values;

	/* the declared type of variable `name` into *t (NULL: undeclared);
	 * false (error set) when it is unknown */
	bool (*declared)(Sema *s, const char *name, Type **t);
	/* $name read but never assigned (default: sonde's words) */
	bool (*var_undefined)(Sema *s, Expr *e);
	/* map expression e's keys of another shape than the map's */
	bool (*key_mismatch)(Sema *s, const Expr *e);
	/* a map's value of type t where it holds old, before they are merged:
	 * false (error set) to refuse it */
	bool (*map_value_check)(Sema *s, const Type *old, const Type *t, Loc loc);
	/* a map given a value its type cannot take (the error) */
	bool (*map_mismatch)(Sema *s, const MapInfo *m, const Type *t, Loc loc);
	/* a variable (or a place) of type held assigned a value of type val */
	bool (*var_mismatch)(Sema *s, const Stmt *st, const Type *held, const Type *val);
	/* a variable or map assigned a "none" value (v->none) */
	void (*assign_none)(Sema *s, const Stmt *st, const Type *had);
	/* an assignment the dialect takes its own way; true when it did */
	bool (*assign_own)(Sema *s, Stmt *st);
	/* a typed condition (default: an integer) */
	bool (*cond)(Sema *s, Expr *c, CondKind where);
	/* a binary operator: before its operands are checked; with a pointer
	 * operand; with operands that are not two integers (when it leaves
	 * two strings, the operator compares strings: D's `s != NULL`) */
	bool (*binop_operands)(Sema *s, Expr *e);
	bool (*binop_ptr)(Sema *s, Expr *e);
	bool (*binop_types)(Sema *s, Expr *e);
	/* an operator's result type (its operands typed), NULL for the core's
	 * (64 bits; signed when both operands are; comparisons unsigned) */
	Type *(*op_type)(Sema *s, const Expr *e);
	/* -x, ~x, !x: the operand, checked first */
	bool (*unop)(Sema *s, Expr *e, const char *op);
	/* *x of a value that is not a pointer */
	bool (*deref_nonptr)(Sema *s, Expr *e);
	/* ?: before the core's checks */
	bool (*ternary)(Sema *s, Expr *e);
	/* (type)x before the core's checks; to_int: to an integer type */
	bool (*cast)(Sema *s, Expr *e, bool to_int);
	/* ++ and -- of a variable or map holding a value of type held */
	bool (*incdec)(Sema *s, Expr *e, const Type *held);
	/* `x op= v` of a variable or map holding a value of type held */
	bool (*compound)(Sema *s, Stmt *st, const Type *held);
	/* a constant index past an array's end (default: sonde's words) */
	bool (*index_bounds)(Sema *s, const Expr *e, int count);
	/* argN read where the provider has none (D: a syscall's record) */
	bool (*arg_elsewhere)(Sema *s, int n);

	/* --- functions --- */
	/* a call of f, before f's own check: false (error set) where the
	 * clause's earlier actions forbid it (D: after speculate(), commit()) */
	bool (*call_order)(Sema *s, Expr *c, const FuncDef *f);
	/* printf()'s format against its arguments (NULL: the core's,
	 * sema_check_format; D: DTrace's conversions) */
	bool (*printf_check)(Sema *s, Expr *c);
	/* a conversion p of the format accepted a value of type t: the
	 * dialect may fit it to the value (D: an integer at its size) */
	void (*format_conv)(FmtPiece *p, const Type *t);
	/* a call's arguments are checked before they are counted (an arity
	 * error comes after their own errors) */
	bool args_before_arity;
	/* a call with too few or too many arguments: the error (NULL: the
	 * core's words, bpftrace's; D: DTrace's "prototype mismatch") */
	bool (*arity_error)(Sema *s, Expr *c, const FuncDef *f);
	/* a row's bt_arg (builtin.h: its argument's kind) is checked before
	 * the row's own check; an argument's kind before whether it is a
	 * literal (cgroup_path's filter) */
	bool arg_kind_first;
	/* an argument that is not the literal wanted (want: "string",
	 * "integer"): the error, naming what it is (NULL: the core's words, at
	 * the argument) */
	bool (*not_literal)(Sema *s, Expr *call, Expr *a, const char *want);
	/* an argument that is not a map, or (indexed) a map with keys where a
	 * whole map is wanted: the error (NULL: the core's words) */
	bool (*not_map)(Sema *s, Expr *call, bool indexed);
	/* a map argument's keys (delete(@m[k])) are checked against the map's
	 * other uses */
	bool map_arg_keys;
	/* an integer operand (an aggregation's, str()'s length) is refused at
	 * the call, naming what it is, pointers too (sema_agg_int_arg); else at
	 * the argument (sema_arg_int) */
	bool int_args_at_call;
	/* aggregations compare and print signed, whatever their operand */
	bool aggs_signed;
	/* an operator whose operands are in error still has a type (an
	 * integer; "none" for none) that a format checks */
	bool typed_despite_error;
	/* str() reads from an address only: a string is refused (a tracepoint's
	 * __data_loc field aside), and so is any other non-integer, in the
	 * words that say so; else str() of a string copies it */
	bool str_needs_address;
	/* ntop() of a string or byte array of another size than 4 or 16 says
	 * so; else the argument must be an integer */
	bool ntop_sized_bytes;
	/* print(@m, top, div): top or div (argument i) that is not an integer
	 * literal (NULL: the core's sema_arg_literal_int) */
	bool (*print_arg)(Sema *s, Expr *c, int i);
	/* print() of a value given more than one argument: the error (NULL:
	 * the core's words) */
	bool (*print_value_args)(Sema *s, Expr *c);
	/* print() of a pointer prints its address (bpftrace 0.26, in hex
	 * where the front end's output says so); else it is refused as not
	 * printable */
	bool print_pointers;
	/* a read of a count/sum/avg/min/max map is its value, its CPUs'
	 * slots combined in the program (bpftrace 0.26: codegen_aggread.c);
	 * else only print(@m) shows it */
	bool agg_values;
} SemaHooks;

static inline const SemaHooks *sema_hooks(const Sema *s)
{
	return s->sc->opt.sema;
}
