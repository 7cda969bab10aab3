/* Semantic analysis: resolves builtins, functions, maps and variables,
 * gives every expression a type, and reports misuse in words. */
#pragma once
#include "builtin.h"
#include "script.h"

typedef enum BuiltinId {
	B_PID, B_TID, B_UID, B_GID, B_CPU, B_COMM, B_NSECS, B_ELAPSED,
	B_CGROUP, B_CURTASK, B_RAND, B_PROBE, B_KSTACK, B_USTACK, B_ARG,
	B_RETVAL, B_ARGS, B_CPID, B_FUNC, B_NUMAID, B_USERNAME, B_SARG,
	B_CTX, B_LOCALS,
	B_DPROBE,    /* D: probeprov/probemod/probefunc/probename (aux: 0..3) */
	B_DPROBE_ID, /* D: id, epid: the probe's id */
	B_FAMILY,    /* a family's (sema_hooks.h: BUILTIN_VARS): auxp is its BuiltinDef */
} BuiltinId;

/* E_FIELD of args/locals read from a variable's DWARF location at the
 * probe's address: aux2 says so, auxp is the DwarfLocal (sym/dwarf_args.h) */
#define FIELD_DWARF_LOCAL 1
/* E_FIELD of args on a uprobe event (tracepoint:GROUP:EVENT made by sonde
 * probe -a / perf probe): computed from the event's fetch argument;
 * auxp is the UeventRead */
#define FIELD_UPROBE_FETCH 2
typedef struct UeventRead {
	const struct UeventArg *arg;
	int ctx_off;      /* UA_REG: the register's offset in pt_regs */
	int64_t addr_off; /* UA_FILEADDR: the address is the probed ip + addr_off */
	bool is_str;      /* a string at the address the fetch computes */
} UeventRead;

typedef struct Sema Sema;

struct Sema {
	Script *sc;
	Error *err;
	bool strict; /* last pass: maps still without a type are errors */
	/* bpftrace's last pass: carry on past an error and record every one
	 * (D stops at its first, as dtrace) */
	bool all;
	const Probe *probe;
	const ProbeSpec *spec;
	VEC(VarInfo *) vars;
	int loop_depth;
	int for_depth; /* for loops around the statement: their bodies are callbacks */
	bool changed; /* a map's type changed during this pass */
	bool warn;    /* record warnings (once: in the strict pass) */
	int d_clause; /* D: speculate/commit/data actions seen in this clause (dfunc_spec.c) */
	/* bumped by each sema_probe: bpftrace's checks may look at an operand
	 * before the check that types it (Expr.visit) */
	unsigned visit;
	/* > 0 while checking a branch a constant condition never runs
	 * (sema_const.c): compile-time failures there are not raised */
	int dead;
};

bool sema_probe(Sema *s, const Probe *p, const ProbeSpec *spec);
/* e, about to be checked as a value: bpftrace 0.26's bare `args` becomes
 * the record of the probe's arguments (SemaHooks.args_values;
 * sema_args_value.c), anything else stays */
void sema_args_value(Sema *s, Expr *e);
/* e's integer value when it is known while compiling (literals, numeric
 * positional parameters, operators over them): sema_const.c */
bool sema_const_int(const Sema *s, const Expr *e, int64_t *v);
bool sema_comptime_value(Sema *s, Expr *e, int64_t *v); /* checked, known, or an error */
/* bpftrace 0.26's `let @m = kind(n);` applied to the typed maps
 * (sema_mapdecl.c), after the last pass */
bool sema_map_decls(Sema *s);
void sema_reset_vars(Sema *s);
int pt_regs_offset(const char *reg); /* reg(): byte offset in x86-64 pt_regs, or -1 */

/* shared between the sema files */
bool sema_expr(Sema *s, Expr *e);
/* The keys of map expression e (e->map set) against the map's other uses */
bool sema_map_key(Sema *s, Expr *e);
bool sema_error(Sema *s, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* an error bpftrace finds only in its final pass (most type checks): it
 * prints it only when its first pass found none (diag.h: ERR_TIER_*) */
bool sema_error_late(Sema *s, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* an error of bpftrace's that stops it before its semantic analysis */
bool sema_error_pre(Sema *s, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* a and b, evaluated both when every error is wanted (s->all) */
bool sema_exprs2(Sema *s, Expr *a, Expr *b);
void sema_warn(Sema *s, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* after the error at `at`: msg at loc, printed next to it (bpftrace's context) */
void sema_context(Sema *s, Loc at, Loc loc, const char *msg);
/* the mode of a kstack (user false) or ustack that names none */
StackMode sema_stack_mode(Sema *s, bool user, Loc loc);
bool sema_builtin(Sema *s, Expr *e);
/* e names a builtin variable the dialect has (__builtin_X taken as X
 * where SemaHooks.vars_as_calls says so) */
bool sema_builtin_known(Sema *s, Expr *e);

/* bpftrace's address-space tags, for its "Addrspace mismatch" warning */
enum { AS_NONE, AS_KERNEL, AS_USER };
int sema_probe_addrspace(const Sema *s); /* where the probe's arguments point */
void sema_addrspace(Sema *s, Expr *e);        /* e's tag from its operands */
void sema_addrspace_binop(Sema *s, Expr *e);  /* a op b: warns on a mismatch */
void sema_addrspace_assigned(Expr *target, const Expr *value); /* first assignment */
typedef enum CallCtx { CALL_EXPR, CALL_STMT, CALL_AGG, CALL_VAR } CallCtx;
bool sema_call(Sema *s, Expr *e, CallCtx ctx);
bool sema_map_value(Sema *s, Expr *map, Type *t, Loc loc);
Type *sema_storage_type(Sema *s, Type *t);
/* D: the type a declaration's text names, or NULL (error set) */
Type *sema_ctype_named(Sema *s, const char *text, Loc loc);

const char *tn(const Type *t); /* a type's name for messages */
/* where a condition is: a predicate, an if(), a ?: */
typedef enum CondKind { COND_PRED, COND_IF, COND_TERNARY } CondKind;
/* the variable `name` of the probe being checked, or NULL */
VarInfo *sema_var_find(Sema *s, const char *name);
/* a variable's or map element's value as stored (integers 64 bits wide,
 * or in the dialect's width: SemaHooks.ints_keep_width) */
Type *sema_value_storage_type(Sema *s, Type *t);
/* stores into members, elements and pointees (sema_store.c) */
bool sema_store_via_pointer(const Expr *t);
bool sema_store_target(Sema *s, Expr *t, const char *op);
bool sema_store_assign(Sema *s, Stmt *st);

/* type constructors (in the script's arena) */
Type *ty_int(Sema *s, int bits, bool is_signed);
Type *ty_bool(Sema *s);
/* a copy of t in the script's arena, to change */
Type *ty_copy(Sema *s, const Type *t);
/* an integer of `bits` with t's sign and enum (a value widened as stored) */
Type *ty_int_as(Sema *s, int bits, const Type *t);
/* a comparison's or a test's value: a bool where the dialect has them
 * (SemaHooks.bools), else an unsigned 64-bit integer */
Type *sema_truth_type(Sema *s);
Type *ty_str(Sema *s, int size);
Type *ty_simple(Sema *s, TypeKind k, int size);
Type *ty_tuple(Sema *s, Type **elems, int n);

/* C types: members, pointers, arrays, casts (sema_ctype.c) */
bool sema_ctype_setup(Script *sc, Error *err); /* the script's C definitions */
bool sema_ctype_member(Sema *s, Expr *e);      /* E_FIELD on a record or pointer */
bool sema_ctype_deref(Sema *s, Expr *e);       /* *p */
bool sema_ctype_addr_of(Sema *s, Expr *e);     /* &$x (SemaHooks.addr_of_vars) */
bool sema_ctype_index(Sema *s, Expr *e);       /* a[i], p[i] */
bool sema_ctype_cast(Sema *s, Expr *e);        /* (struct x *)e, (int64 *)e */
bool sema_ctype_cast_to(Sema *s, Expr *e, Type *t); /* (t)e, t a C type */
Type *sema_ctype_name_type(Sema *s, const Expr *a); /* a typedef written as a name, or NULL */
bool sema_ctype_sizeof(Sema *s, Expr *e);      /* sizeof(struct x), sizeof(e) */
bool sema_ctype_const(Sema *s, Expr *e);       /* an enum constant or #define name */
/* e's value prints as its enum's names if its type is a C enum's
 * (SemaHooks.enum_names: the caller asks) */
void sema_enum_named(Sema *s, Expr *e);
bool sema_ctype_addrspace(Sema *s, Expr *c);   /* kptr(e), uptr(e) */
bool sema_ctype_offsetof(Sema *s, Expr *e);    /* offsetof(struct x, a.b) */
void sema_ctype_arith(Sema *s, Expr *e);       /* pointer +/- integer: scale */
/* What +1 adds to a value of type t: the pointee's size for a pointer
 * (also through maps and variables: `@p += 1`, `$p++`), else 1. */
int sema_ctype_step(const Type *t);
Type *sema_ctype_curtask(Sema *s);             /* struct task_struct * */
Type *sema_ctype_tp_field(Sema *s, const char *ctype); /* struct pointer args, or NULL */
/* an integer field of C type ctype: t takes the names of its enum, if it
 * is one and they print (SemaHooks.enum_names) */
void sema_ctype_tp_enum(Sema *s, const char *ctype, Type *t);
/* args in uprobes: parameters from DWARF (sema_uargs.c) */
bool sema_uprobe_args(Sema *s, Expr *e); /* `args` may be used here */
bool sema_uprobe_arg(Sema *s, Expr *e);  /* args->NAME */
bool sema_uprobe_locals(Sema *s, Expr *e);
bool sema_uevent_field(Sema *s, Expr *e); /* args.FIELD of a uprobe event */ /* `locals` may be used here */
/* locals.NAME, or args.NAME (params_only) away from a function's entry */
bool sema_uprobe_local(Sema *s, Expr *e, bool params_only);
