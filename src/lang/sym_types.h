/* Types of what the readers of sym/ describe: a DWARF type description
 * (uprobe parameters, locals, struct casts) or a BTF id (kfunc parameters
 * and return values) becomes a Type. */
#pragma once
#include "../sym/dwarf_args.h"
#include "types.h"

/* The Type of a DWARF description, one per description node for the run
 * (sema asks again in each pass and gets the same Type). */
Type *type_of_dwarf(SymCtx *sc, const DwarfType *dt);
/* Parameter i of f: from DWARF or BTF (NULL without the kernel's BTF). */
Type *type_of_param(SymCtx *sc, const DwarfFunc *f, int i);
/* kfunc: the BTF return type of f; NULL if void, unknown, or not from BTF. */
Type *type_of_return(SymCtx *sc, const DwarfFunc *f);
