/* A variable of a user-space binary read at one address: where its value
 * is at that PC, for the language's locals.NAME and args.NAME at any
 * uprobe.  Stricter than perf's first-operation rule: a location this cannot
 * read exactly (split in pieces, computed by expressions) is refused with
 * the reason, never read wrongly. */
#pragma once
#include "debuginfo.h"
#include "dwarf_walk.h"

#define DW_REG_IP 16 /* x86-64's DWARF number of rip */

typedef struct DwLocal {
	enum { DWL_REG, DWL_MEM, DWL_VALUE, DWL_CONST } kind;
	int regno;      /* DWARF register; statics: DW_REG_IP (at a uprobe, the
			 * probed address) with offset = address - pc */
	long offset;    /* DWL_MEM: the value is at reg + offset;
			 * DWL_VALUE: the value is reg + offset */
	long value;     /* DWL_CONST */
	Dwarf_Die var;  /* the variable's DIE (for its type) */
} DwLocal;

/* 0 and *out filled, or -1 with *why saying why in words: no such variable
 * there (and which there are), optimized out at FILE:LINE, not a parameter,
 * a location that cannot be read.  params_only: args.NAME. */
int dw_local_at(DebugInfo *di, Dwarf_Addr pc, const char *name, bool params_only, DwLocal *out,
		StrBuf *why);
