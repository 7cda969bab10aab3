/* Code for C-typed places (codegen_ctype.c): members, *p, a[i]. */
#pragma once
#include "codegen.h"

bool cg_is_place(const Expr *e);
/* args.NAME/locals.NAME read from DWARF locations (sema: FIELD_DWARF_LOCAL);
 * those in memory are places, the others values: */
bool cg_is_dwarf_local(const Expr *e);
void gen_dwarf_local_int(Gen *g, const Expr *e); /* -> r0 */
void gen_place_int(Gen *g, const Expr *e); /* -> r0, extended per e->type */
void gen_place_into(Gen *g, const Expr *e, int dst_off, const Type *dt);
