/* Function parameters of user-space binaries from their DWARF debug info
 * (libdw), for `args->NAME` in uprobes and `sonde -lv 'uprobe:BIN:FUNC'`.
 * As bpftrace 0.17 does, parameter i is taken from argument register i
 * (integers and pointers; the first six). */
#pragma once
#include <stdbool.h>

#include "../lang/types.h"
#include <stdint.h>

typedef struct DwarfParam {
	char *name;  /* "who" */
	char *ctype; /* as bpftrace -lv prints it: "const char*" */
	Type *type;  /* sonde's type: TY_INT (pointers: pointee set, user),
		      * TY_RECORD for a struct passed by value, TY_NONE when
		      * sonde can't read it (floating point) */
} DwarfParam;

typedef struct DwarfFunc {
	int nparams;
	DwarfParam *params;
	Type *ret_type; /* kfunc (from BTF): the return type, NULL if void/unknown */
} DwarfFunc;

/* The parameters of func in the binary at path; NULL when the binary has
 * no debug info or no DWARF entry for that function.  Kept for the life
 * of the process (types are shared by every probe). */
const DwarfFunc *dwarf_func(const char *path, const char *func);
/* The parameter called name, its index in *idx; NULL if none. */
const DwarfParam *dwarf_param(const DwarfFunc *f, const char *name, int *idx);
/* struct (un false) or union `name` as the binary at path defines it in its
 * DWARF, for casts in uprobes; NULL when it has no such definition. */
Type *dwarf_record(const char *path, bool un, const char *name);

/* A variable read at a uprobe's address (locals.NAME, and args.NAME away
 * from a function's entry): where its value is there (sym/dwarf_local.h)
 * and its type. */
typedef struct DwarfLocal {
	enum { DLOC_REG, DLOC_MEM, DLOC_VALUE, DLOC_CONST } kind;
	int ctx_off;   /* the register's offset in struct pt_regs */
	long offset;   /* DLOC_MEM: at register + offset; DLOC_VALUE: register + offset */
	long value;    /* DLOC_CONST */
	Type *type;    /* TY_NONE when sonde cannot read it (floating point) */
	char *ctype;   /* its C type, as bpftrace -lv prints one */
} DwarfLocal;

/* name at the uprobe at file offset off of the binary at path, or NULL
 * with why (in words) in *why.  Answers are kept for the process: sema
 * asks again in each pass. */
const DwarfLocal *dwarf_local(const char *path, uint64_t off, const char *name, bool params_only,
			      const char **why);
/* The binary at path has DWARF debug info. */
bool dwarf_present(const char *path);
