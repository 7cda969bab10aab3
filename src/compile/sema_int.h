/* What the files of the core's semantic analysis (sema*.c) share among
 * themselves and nobody else: front ends and the other passes use sema.h
 * and sema_hooks.h. */
#pragma once
#include "sema_hooks.h"

/* sema_storage.c: stored types */
bool sema_storable(const Type *t); /* may be kept in a map, variable or tuple */
/* merge t into *slot (a map's or variable's type so far); *grew: it changed */
bool sema_merge_type(Sema *s, Type **slot, Type *t, bool *grew);
Type *sema_key_storage_type(Sema *s, Type *t); /* a map key element's */
Type *sema_var_storage_type(Sema *s, Type *t); /* a $variable's value's */

/* sema_var.c, sema_map.c: reading variables and maps */
bool sema_declared(Sema *s, const char *name, Type **t); /* the dialect's declaration */
bool sema_var(Sema *s, Expr *e);
bool sema_let(Sema *s, Stmt *st); /* `let $x;` */
bool sema_let_shadows(Sema *s, const Stmt *st); /* `let $x` of a known $x: error set */
void sema_var_origin(VarInfo *v, Loc loc, const char *what); /* where v came from (sema_var.c) */
void sema_var_origin_context(Sema *s, Loc at, const VarInfo *v); /* ...after an error at `at` */
bool sema_map_declared(Sema *s, MapInfo *m);
bool sema_map(Sema *s, Expr *e);

/* sema_assign.c: assignments, and the places ++, -- and op= change */
bool sema_assign_var(Sema *s, Stmt *st);
bool sema_assign_map(Sema *s, Stmt *st);
bool sema_lvalue_int(Sema *s, Expr *t, const char *what);
bool sema_incdec_held(Sema *s, Expr *e);

/* sema_ops.c: operators, casts, sizeof */
bool sema_binop(Sema *s, Expr *e);
bool sema_unop(Sema *s, Expr *e);
bool sema_ternary(Sema *s, Expr *e);
bool sema_block(Sema *s, Expr *e); /* sema.c: E_BLOCK */
bool sema_cast(Sema *s, Expr *e);
bool sema_typeof_cast(Sema *s, Expr *e); /* (typeof(x))e: sema_typeof.c */
void sema_type_text(const Type *t, StrBuf *b); /* bpftrace 0.26's "uint64", "string[4]" */
const char *sema_type_base(const Type *t);      /* its kind: "int", "string", "tuple" */
bool sema_sizeof(Sema *s, Expr *e);

/* sema_expr.c: operands that must be integers or conditions (the
 * dialect's), and unroll's count */
bool sema_need_int(Sema *s, Expr *e, const char *what);
bool sema_need_cond(Sema *s, Expr *c, CondKind where, const char *what);
bool sema_posparam_literal(Sema *s, Expr *e);

/* sema_loop.c: `for ($v : @map)`, `for ($i : a..b)`; body checks the
 * loop's statements (sema.c's) */
bool sema_for(Sema *s, Stmt *st, bool (*body)(Sema *, const StmtList *));
