/* Code for C-typed places (codegen_ctype.c): members, *p, a[i]. */
#pragma once
#include "codegen.h"

bool cg_is_place(const Expr *e);
void gen_place_int(Gen *g, const Expr *e); /* -> r0, extended per e->type */
void gen_place_into(Gen *g, const Expr *e, int dst_off, const Type *dt);
