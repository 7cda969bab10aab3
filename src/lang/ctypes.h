/* C types: the kernel's BTF (btf_types.c) and the C definitions a script
 * writes before its probes (cdecl*.c).  Both produce Types (types.h) in the
 * C layout: records with fields, arrays, pointers as TY_INT + pointee. */
#pragma once
#include <stdbool.h>
#include <stdint.h>

#include "../util/util.h"
#include "diag.h"
#include "types.h"

/* ---- kernel BTF ---- */

/* Opening it (btf_kernel(), btf_module(), btf_error()...): sym/btf_load.h. */
#include "../sym/btf_load.h"

/* kw is "struct", "union", "enum", or NULL for a typedef or base type name
 * ("u32", "pid_t", "int").  NULL if there is no such type. */
Type *btf_find_type(SymCtx *sc, const char *kw, const char *name);
/* The type with this id in b (btf_kernel() or a btf_module()): kfunc
 * parameters; NULL without BTF. */
Type *btf_type_of_id(SymCtx *sc, const struct btf *b, int id);
/* A record known by name, resolved against BTF only when its fields or
 * size are needed (curtask's type: no BTF read until a member is used). */
Type *btf_lazy_record(SymCtx *sc, const char *kw, const char *name);
/* The value of an enum constant of the kernel (e.g. TASK_RUNNING is a
 * #define, but TCP_ESTABLISHED an enumerator). */
bool btf_enum_value(SymCtx *sc, const char *name, int64_t *v);
/* -lv: the members of the record a tracepoint field type ("struct sock *")
 * points to, one a line after indent; nothing for other types. */
#include <stdio.h>
void ctype_print_layout(SymCtx *sc, FILE *out, const char *ctype, const char *indent);
/* A record's size, reading BTF if it is still pending; -1 if unknown. */
int type_record_size(Type *t);

/* ---- C definitions of a script ---- */

/* CN_MACRO: a #define that is not (yet) a constant: a flag (#define X),
 * or the text of a system header's macro, evaluated when a script uses it. */
typedef enum CNameKind { CN_STRUCT, CN_UNION, CN_ENUM, CN_TYPEDEF, CN_CONST, CN_MACRO } CNameKind;

typedef struct CName {
	CNameKind kind;
	const char *name;
	Type *type;    /* CN_CONST: an enumerator's enum, NULL for a #define */
	int64_t value; /* CN_CONST: enumerators and #define constants */
	const char *text; /* CN_MACRO: the replacement text ("" for a flag) */
} CName;

typedef struct CDefs {
	Arena *arena;  /* types and names live here */
	SymCtx *sym;   /* the run's readers: kernel types from BTF */
	VEC(CName) names;
	char **include_dirs; /* -I */
	int ninclude_dirs;
	const char *script_dir; /* "" includes relative to the script */
	int depth;     /* #include nesting */
	VEC(const char *) sys_seen; /* system headers already scanned for macros */
	const char **kernel_dirs; /* the kernel's include path (NULL-ended), or NULL */
	bool d_vars; /* D: `struct foo x;` among the script's definitions declares a
			D variable (the D front end's): skipped here */
	const char *kconfig_missing; /* SRC/include/linux/kconfig.h when the kernel
					 source given lacks it (bpftrace's clang
					 includes it first: every #include fails) */
} CDefs;

/* The kernel's include path into d->kernel_dirs, when its headers exist:
 * searched for <headers> after -I, before the system's. */
void cdefs_find_kernel_headers(CDefs *d);
/* The directories searched for <system> headers after -I, in order. */
extern const char *const cdefs_system_dirs[];

/* Parse C definitions.  text is the script source from the first
 * definition (at line/col `at`) and parsing stops at the first text that
 * is not a C definition (the first probe).  file is NULL for the script
 * itself, else the name of an included file (errors then point at `inc`,
 * the #include line of the script, and name FILE:LINE:COL). */
bool cdefs_parse(CDefs *d, const char *text, Loc at, const char *file, Loc inc, Error *err);
/* D's C declarations (Program.c_defs_decls): text holds them where the
 * program has them (the same line and column), the rest blank.  Also
 * extern declarations and function prototypes (accepted, types checked,
 * nothing kept), a function's body skipped, `static` refused for a
 * variable, as D's compiler does. */
bool cdefs_parse_decls(CDefs *d, const char *text, Error *err);
/* The C definitions of a program, as its dialect keeps them. */
struct Program;
bool cdefs_parse_program(CDefs *d, const struct Program *p, Error *err);
/* Parse and add a header file (--include FILE). */
bool cdefs_include_file(CDefs *d, const char *path, Loc inc, Error *err);

Type *cdefs_find(const CDefs *d, CNameKind kind, const char *name);
/* An enumerator or #define constant of the script or its headers (a system
 * header's macro is evaluated here, on first use). */
bool cdefs_const(const CDefs *d, const char *name, int64_t *v);
/* #define NAME (with or without a value) or an enumerator: for #ifdef. */
bool cdefs_defined(const CDefs *d, const char *name);
/* Predefine the macros bpftrace predefines (BPFTRACE_HAVE_BTF when the
 * kernel has BTF). */
void cdefs_predefine(CDefs *d);

/* A type by its text as casts and sizeof write it: "uint32", "int64 *",
 * "struct task_struct *", "struct foo", "pid_t".  Script definitions first,
 * then kernel BTF.  NULL (with a message in err) if unknown. */
Type *ctype_parse_name(const CDefs *d, Arena *a, const char *text, char *err, size_t errlen);

/* Closest field names to `name` in record t, for "did you mean" (", "-joined). */
void ctype_suggest(Type *rec, const char *name, char *out, size_t n);
