/* Function parameters of user-space binaries from their DWARF debug info
 * (libdw), for `args->NAME` in uprobes and `sonde -lv 'uprobe:BIN:FUNC'`.
 * As bpftrace 0.17 does, parameter i is taken from argument register i
 * (integers and pointers; the first six).  Types are described here as
 * DWARF has them; lang/sym_types.c turns a description into a Type. */
#pragma once
#include "symctx.h"
#include <stdbool.h>
#include <stdint.h>

/* A C type as the binary's DWARF describes it (typedefs and qualifiers
 * looked through).  Pointers and records are described once per DIE
 * (shared, and a record may reach itself through a pointer); every other
 * node belongs to the one node or parameter that refers to it. */
typedef enum DwarfTypeKind {
	DWT_NONE,   /* what sonde cannot read (floating point, functions...) */
	DWT_INT,    /* an integer or enum of size bytes */
	DWT_PTR,    /* a pointer (or reference) to inner; inner NULL: void */
	DWT_RECORD, /* a struct, class or union of size bytes */
	DWT_ARRAY,  /* count elements of type inner */
} DwarfTypeKind;

struct DwarfType;
typedef struct DwarfMember {
	const char *name; /* "" when anonymous */
	int offset;       /* bytes */
	int bit_off, bit_width; /* a bitfield's (bit_width 0: none) */
	const struct DwarfType *type;
} DwarfMember;

typedef struct DwarfType {
	DwarfTypeKind kind;
	int size;         /* DWT_INT, DWT_RECORD: bytes */
	bool is_signed;   /* DWT_INT */
	bool is_union;    /* DWT_RECORD */
	const char *name; /* DWT_RECORD: "struct foo", "union (anonymous)" */
	const struct DwarfType *inner; /* DWT_PTR, DWT_ARRAY */
	int count;        /* DWT_ARRAY */
	DwarfMember *members; /* DWT_RECORD */
	int nmembers;
} DwarfType;

/* A parameter from DWARF (uprobe) or BTF (kfunc, sym/btf_funcs.h). */
typedef struct DwarfParam {
	char *name;  /* "who" */
	char *ctype; /* as bpftrace -lv prints it: "const char*" */
	const DwarfType *type; /* DWARF: its type (never NULL) */
	int btf_id;            /* BTF: its type's id in DwarfFunc.btf */
} DwarfParam;

struct btf;
typedef struct DwarfFunc {
	int nparams;
	DwarfParam *params;
	const struct btf *btf; /* kfunc: the BTF object of the ids; NULL for DWARF */
	int ret_btf_id;        /* kfunc: the return type's id, 0 if void */
} DwarfFunc;

/* The parameters of func in the binary at path; NULL when the binary has
 * no debug info or no DWARF entry for that function.  Kept for the life
 * of the process (types are shared by every probe). */
const DwarfFunc *dwarf_func(SymCtx *sc, const char *path, const char *func);
/* The parameter called name, its index in *idx; NULL if none. */
const DwarfParam *dwarf_param(const DwarfFunc *f, const char *name, int *idx);
/* struct (un false) or union `name` as the binary at path defines it in its
 * DWARF, for casts in uprobes; NULL when it has no such definition. */
const DwarfType *dwarf_record(SymCtx *sc, const char *path, bool un, const char *name);

/* A variable read at a uprobe's address (locals.NAME, and args.NAME away
 * from a function's entry): where its value is there (sym/dwarf_local.h)
 * and its type. */
typedef struct DwarfLocal {
	enum { DLOC_REG, DLOC_MEM, DLOC_VALUE, DLOC_CONST } kind;
	int ctx_off;   /* the register's offset in struct pt_regs */
	long offset;   /* DLOC_MEM: at register + offset; DLOC_VALUE: register + offset */
	long value;    /* DLOC_CONST */
	const DwarfType *type; /* DWT_NONE when sonde cannot read it (floating point) */
	char *ctype;   /* its C type, as bpftrace -lv prints one */
} DwarfLocal;

/* name at the uprobe at file offset off of the binary at path, or NULL
 * with why (in words) in *why.  Answers are kept for the process: sema
 * asks again in each pass. */
const DwarfLocal *dwarf_local(SymCtx *sc, const char *path, uint64_t off, const char *name, bool params_only,
			      const char **why);
/* The binary at path has DWARF debug info. */
bool dwarf_present(SymCtx *sc, const char *path);
