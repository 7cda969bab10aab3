/* Semantic analysis: resolves builtins, functions, maps and variables,
 * gives every expression a type, and reports misuse in words. */
#pragma once
#include "script.h"

typedef enum BuiltinId {
	B_PID, B_TID, B_UID, B_GID, B_CPU, B_COMM, B_NSECS, B_ELAPSED,
	B_CGROUP, B_CURTASK, B_RAND, B_PROBE, B_KSTACK, B_USTACK, B_PYSTACK, B_ARG,
	B_RETVAL, B_ARGS, B_CPID, B_FUNC, B_NUMAID, B_USERNAME, B_SARG,
	B_CTX, B_LOCALS,
	B_DPROBE,    /* D: probeprov/probemod/probefunc/probename (aux: 0..3) */
	B_DPROBE_ID, /* D: id, epid: the probe's id */
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

typedef enum FuncId {
	F_PRINTF, F_PRINT, F_TIME, F_STRFTIME, F_CAT, F_SYSTEM, F_JOIN, F_EXIT,
	F_DELETE, F_CLEAR, F_ZERO, F_STR, F_KSYM, F_KADDR, F_NTOP, F_KSTACK,
	F_USTACK, F_JSTACK, F_COUNT, F_SUM, F_AVG, F_MIN, F_MAX, F_STATS, F_HIST,
	F_LHIST, F_USYM, F_UADDR, F_BUF, F_KPTR, F_UPTR, F_SYSCALL_NAME, F_STRNCMP, F_STRCONTAINS,
	F_BSWAP, F_STRERROR, F_PTON, F_MACADDR, F_CGROUP_PATH, F_REG, F_DEBUGF,
	F_OVERRIDE, F_SKBOUTPUT, F_PATH,
	/* D subroutines (dtrace/dfunc.h) */
	F_D_STRLEN, F_D_STRJOIN, F_D_SUBSTR, F_D_INDEX, F_D_RINDEX, F_D_STRCHR, F_D_STRRCHR,
	F_D_STRSTR, F_D_STRTOK, F_D_BASENAME, F_D_DIRNAME, F_D_TOUPPER, F_D_TOLOWER, F_D_LLTOSTR,
	F_UNWATCH,
	/* D's aggregations and aggregation actions (sema_agg_d.c) */
	F_QUANTIZE, F_LQUANTIZE, F_LLQUANTIZE, F_STDDEV, F_PRINTA, F_TRUNC, F_NORMALIZE,
	F_DENORMALIZE, F_SETOPT,
	F_D_BYTEORDER, F_D_RAND, F_D_PROGENYOF, F_D_RAISE, F_D_STOP,
	F_D_SPECULATION, F_D_SPECULATE, F_D_COMMIT, F_D_DISCARD,
	F_D_COPYIN, F_D_COPYINSTR, F_D_COPYINTO, F_D_STRINGOF, F_D_ALLOCA, F_D_BCOPY,
	F_D_INET_NTOP, F_D_INET_NTOA, F_D_INET_NTOA6,
	F_CGROUPID,
	F_SIGNAL,
	F_D_TRACEMEM, F_D_COPYOUT, F_D_COPYOUTSTR, F_D_CHILL,
	F_D_PSARGS,
	F_D_XLATE,
	F_D_XLATE_STRUCT,
	F_D_TRACE_RECORD,
	F_D_STRTOLL, F_D_GETMAJOR, F_D_GETMINOR, F_D_CLEANPATH,
} FuncId;

typedef struct Sema Sema;

typedef enum FuncKind {
	FK_STMT, /* only as a statement: printf, exit, ... */
	FK_EXPR, /* yields a value */
	FK_AGG,  /* only as `@map[...] = f(...)` */
	FK_VAR,  /* yields a value, only as `$var = f(...)` (bpftrace's skboutput) */
} FuncKind;

typedef struct FuncDef {
	const char *name;
	FuncId id;
	FuncKind kind;
	int min_args, max_args;
	bool (*check)(Sema *s, Expr *call); /* sets call->type */
	bool d_only; /* D's (sonde dtrace): unknown in bpftrace scripts */
} FuncDef;

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
	bool changed; /* a map's type changed during this pass */
	bool warn;    /* record warnings (once: in the strict pass) */
	int d_clause; /* D: speculate/commit/data actions seen in this clause (dfunc_spec.c) */
	/* bumped by each sema_probe: bpftrace's checks may look at an operand
	 * before the check that types it (Expr.visit) */
	unsigned visit;
};

bool sema_probe(Sema *s, const Probe *p, const ProbeSpec *spec);
void sema_reset_vars(Sema *s);
const FuncDef *func_find(const char *name);
/* the function `name` in a dialect: D's own row first, bpftrace's never D's */
const FuncDef *func_find_in(const char *name, Dialect d);
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
bool sema_builtin(Sema *s, Expr *e);

/* bpftrace's address-space tags, for its "Addrspace mismatch" warning */
enum { AS_NONE, AS_KERNEL, AS_USER };
void sema_addrspace(Sema *s, Expr *e);        /* e's tag from its operands */
void sema_addrspace_binop(Sema *s, Expr *e);  /* a op b: warns on a mismatch */
void sema_addrspace_assigned(Expr *target, const Expr *value); /* first assignment */
/* D: argN's offset in a syscall tracepoint's record, -1 elsewhere */
int d_syscall_arg_offset(const ProbeSpec *spec, int n);
bool d_syscall_arg_absent(const ProbeSpec *spec, int n);
/* D's aggregating functions and actions (sema_agg_d.c) */
bool sema_d_quantize(Sema *s, Expr *c);
bool sema_d_lquantize(Sema *s, Expr *c);
bool sema_d_llquantize(Sema *s, Expr *c);
bool sema_d_stddev(Sema *s, Expr *c);
bool sema_d_printa(Sema *s, Expr *c);
bool sema_d_trunc(Sema *s, Expr *c);
bool sema_d_normalize(Sema *s, Expr *c);
bool sema_d_setopt(Sema *s, Expr *c);
bool sema_d_stack(Sema *s, Expr *c);
bool sema_d_jstack(Sema *s, Expr *c);
/* D's printf(), system() formats (sema_format_d.c): the arguments against
 * the conversions; an integer conversion rewritten to take the value's size */
bool sema_format_d(Sema *s, Expr *call);
void d_widen_conv(FmtPiece *p, const Type *t);
/* argument i of call is a string literal (str($N) folded to one) */
bool sema_arg_literal_str(Sema *s, Expr *call, int i);
/* false (error set) when an lquantize/llquantize aggregation gets a second
 * shape, in DTrace's words */
bool sema_d_agg_mismatch(Sema *s, const Type *old, const Type *t, Loc loc);
/* pystack / jstack(): e's type, after finding the interpreter's layout */
#define PYSTACK_DEPTH 32
bool sema_pystack_type(Sema *s, Expr *e, int depth, int line_max);
typedef enum CallCtx { CALL_EXPR, CALL_STMT, CALL_AGG, CALL_VAR } CallCtx;
bool sema_call(Sema *s, Expr *e, CallCtx ctx);
bool sema_map_value(Sema *s, Expr *map, Type *t, Loc loc);
Type *sema_storage_type(Sema *s, Type *t);
/* D: whether C's usual arithmetic conversions of l and r give a signed type */
bool sema_d_arith_signed(const Type *l, const Type *r);
/* D's words for a value's type ("int", "string", "char *") */
const char *sema_d_type_name(const Type *t, char *buf, size_t n);
/* D: the type a declaration's text names, or NULL (error set) */
Type *sema_ctype_named(Sema *s, const char *text, Loc loc);

/* D: *t = the declared type of variable `name` ("`x", "self->x",
 * "this->x"), NULL without a declaration; false when it is unknown */
bool sema_d_declared(Sema *s, const char *name, Type **t);
/* D's operands have incompatible types: "int" = "string" */
bool sema_d_incompat(Sema *s, Loc loc, const Type *var, const Type *val);
const char *tn(const Type *t); /* a type's name for messages */
/* bpftrace's operator and condition checks, in its words (sema_ops_bt.c) */
const char *bpf_tn(const Type *t); /* bpftrace's name of a type: "unsigned int32" */
const char *bpf_kind(const Type *t); /* its word for the type's kind: "integer", "string" */
typedef enum BtCond { BT_PRED, BT_IF, BT_TERNARY } BtCond;
bool sema_bt_binop_ptr(Sema *s, Expr *e);   /* a pointer operand */
bool sema_bt_binop_types(Sema *s, Expr *e); /* not two integers */
bool sema_bt_unop(Sema *s, Expr *e, const char *op);
bool sema_bt_cond(Sema *s, Expr *c, BtCond where);
bool sema_bt_ternary(Sema *s, Expr *e);     /* its arms and condition */
/* stores into members, elements and pointees (sema_store.c) */
bool sema_store_via_pointer(const Expr *t);
bool sema_store_target(Sema *s, Expr *t, const char *op);
bool sema_store_assign(Sema *s, Stmt *st);

/* type constructors (in the script's arena) */
Type *ty_int(Sema *s, int bits, bool is_signed);
Type *ty_str(Sema *s, int size);
Type *ty_simple(Sema *s, TypeKind k, int size);
Type *ty_tuple(Sema *s, Type **elems, int n);

/* C types: members, pointers, arrays, casts (sema_ctype.c) */
bool sema_ctype_setup(Script *sc, Error *err); /* the script's C definitions */
bool sema_ctype_member(Sema *s, Expr *e);      /* E_FIELD on a record or pointer */
bool sema_ctype_deref(Sema *s, Expr *e);       /* *p */
bool sema_ctype_index(Sema *s, Expr *e);       /* a[i], p[i] */
bool sema_ctype_cast(Sema *s, Expr *e);        /* (struct x *)e, (int64 *)e */
bool sema_ctype_sizeof(Sema *s, Expr *e);      /* sizeof(struct x), sizeof(e) */
bool sema_ctype_const(Sema *s, Expr *e);       /* an enum constant or #define name */
bool sema_ctype_addrspace(Sema *s, Expr *c);   /* kptr(e), uptr(e) */
bool sema_ctype_offsetof(Sema *s, Expr *e);    /* offsetof(struct x, a.b) */
void sema_ctype_arith(Sema *s, Expr *e);       /* pointer +/- integer: scale */
/* What +1 adds to a value of type t: the pointee's size for a pointer
 * (also through maps and variables: `@p += 1`, `$p++`), else 1. */
int sema_ctype_step(const Type *t);
Type *sema_ctype_curtask(Sema *s);             /* struct task_struct * */
Type *sema_ctype_tp_field(Sema *s, const char *ctype); /* struct pointer args, or NULL */
/* args in uprobes: parameters from DWARF (sema_uargs.c) */
bool sema_uprobe_args(Sema *s, Expr *e); /* `args` may be used here */
bool sema_uprobe_arg(Sema *s, Expr *e);  /* args->NAME */
bool sema_uprobe_locals(Sema *s, Expr *e);
bool sema_uevent_field(Sema *s, Expr *e); /* args.FIELD of a uprobe event */ /* `locals` may be used here */
/* locals.NAME, or args.NAME (params_only) away from a function's entry */
bool sema_uprobe_local(Sema *s, Expr *e, bool params_only);
