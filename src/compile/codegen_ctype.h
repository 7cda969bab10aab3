/* Code for C-typed places (codegen_ctype.c): members, *p, a[i]. */
#pragma once
#include "codegen.h"

bool cg_is_place(const Expr *e);
void cg_add_r0(Gen *g, int64_t v); /* r0 += v (any 64-bit v) */
/* args.NAME/locals.NAME read from DWARF locations (sema: FIELD_DWARF_LOCAL);
 * those in memory are places, the others values: */
bool cg_is_dwarf_local(const Expr *e);
void gen_dwarf_local_int(Gen *g, const Expr *e); /* -> r0 */
/* args.FIELD of a uprobe event (codegen_uevent.c): an integer behind a
 * dereference is a place (its address from gen_uevent_addr), the others
 * are values */
bool cg_is_uevent(const Expr *e);
bool cg_uevent_is_place(const Expr *e);
void gen_uevent_addr(Gen *g, const Expr *e); /* -> r0 */
void gen_uevent_int(Gen *g, const Expr *e);  /* -> r0 */
void gen_uevent_into(Gen *g, const Expr *e, int dst_off, const Type *dt);
void gen_place_int(Gen *g, const Expr *e); /* -> r0, extended per e->type */
void gen_place_into(Gen *g, const Expr *e, int dst_off, const Type *dt);
void gen_place_addr(Gen *g, const Expr *e); /* r0 = a pointer-reached place's address */
/* r0 = e (a kernel record: its address; a pointer: its value) as a BTF
 * pointer the verifier trusts, for helpers that take only such
 * (bpf_d_path); a NULL member of the context on the way jumps to null_label */
void gen_btf_ptr(Gen *g, const Expr *e, int null_label);
