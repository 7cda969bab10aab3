/* Walking DWARF as perf probe does: the probe-able lines of a function or a
 * CU, the instances of an inline function, the functions around an address,
 * where a variable lives at an address, and C type names.  `sonde probe`
 * prints what perf prints because it makes the same choices here; the
 * language's line probes and locals use the same walkers. */
#pragma once
#include "libdw_load.h"
#include <stdbool.h>

#include "../util/util.h"

/* dw_find_child callback results (may be or-ed) */
enum { DWF_END = 1, DWF_CHILD = 2, DWF_SIBLING = 4, DWF_CONTINUE = 6 };
typedef int (*DieFn)(Dwarf_Die *die, void *data);
typedef int (*LineFn)(const char *file, int line, Dwarf_Addr addr, void *data);

int strtailcmp(const char *a, const char *b);
int dw_entrypc(Dwarf_Die *d, Dwarf_Addr *addr); /* 0 or -1 */
bool dw_is_func_def(Dwarf_Die *d);
bool dw_is_func_instance(Dwarf_Die *d);
const char *dw_call_file(Dwarf_Die *inl);
int dw_call_line(Dwarf_Die *inl);
/* Depth first over root's children: cb says whether to go down, on, or stop;
 * returns the DIE cb stopped at (in *mem) or NULL. */
Dwarf_Die *dw_find_child(Dwarf_Die *root, DieFn cb, void *data, Dwarf_Die *mem);
/* The statement lines of root (a CU, or a function: its own lines, not
 * those of functions inlined into it) plus function entries and inline
 * call sites; fn returns non-zero to stop (that value is returned). */
int dw_walk_lines(Dwarf_Die *root, LineFn fn, void *data);
/* Each inlined or out-of-line instance of the abstract function origin. */
int dw_walk_instances(Dwarf_Die *origin, DieFn fn, void *data);
/* The function (DW_TAG_subprogram) of cu holding addr. */
Dwarf_Die *dw_find_realfunc(Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die *mem);
/* That function, then each inline instance nested around addr. */
int dw_walk_functions_at(Dwarf_Die *cu, Dwarf_Addr addr, DieFn fn, void *data);
/* file:line of addr as perf reverses it (a function entry is its decl
 * line); the line, or -1. */
int dw_cu_lineinfo(Dwarf_Die *cu, Dwarf_Addr addr, const char **file, int *line);
/* The file name of the CU's file table that ends with name, or NULL. */
const char *dw_cu_find_file(Dwarf_Die *cu, const char *name);

/* Where a variable lives at an address: perf's rule (first location
 * operation only; registers, register + offset, frame base, static). */
typedef struct VarLoc {
	enum { VL_STATIC, VL_REG, VL_MEM, VL_CONST } kind;
	int regno;       /* DWARF register number (VL_REG, VL_MEM) */
	long offset;     /* VL_MEM: the value is at reg + offset */
	Dwarf_Addr addr; /* VL_STATIC: its address, 0 when external and unknown */
	long value;      /* VL_CONST: DW_AT_const_value */
} VarLoc;
/* The frame base of function sp at addr (CFA from cfi when the frame base
 * is DW_OP_call_frame_cfa); NULL when it has none. */
Dwarf_Op *dw_frame_base(Dwarf_Die *sp, Dwarf_Addr addr, Dwarf_CFI *cfi, size_t *nops, Dwarf_Frame **framep);
/* 0 and *out filled; -ENOENT (no location here), -EINVAL, -ENOTSUP. */
int dw_var_location(Dwarf_Die *var, Dwarf_Addr addr, Dwarf_Op *fb, Dwarf_Die *sp, VarLoc *out);
/* "type\tname" as perf probe -V prints a variable; false if unnamed. */
bool dw_var_text(Dwarf_Die *var, StrBuf *out);
/* d's DW_AT_type (through abstract origins), in *mem; NULL if none. */
Dwarf_Die *dw_type_of(Dwarf_Die *d, Dwarf_Die *mem);
/* The type with const/volatile/restrict/shared stripped (typedefs kept). */
Dwarf_Die *dw_real_type(Dwarf_Die *d, Dwarf_Die *mem);
/* ... and typedefs too. */
Dwarf_Die *dw_resolved_type(Dwarf_Die *d, Dwarf_Die *mem);
