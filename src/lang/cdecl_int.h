/* Private to the C-declaration parser (cdecl.c, the top level; cdecl_names.c,
 * cdecl_spec.c, cdecl_record.c, cdecl_expr.c, cdecl_lex.c, cdecl_pp.c):
 * the parser state and the functions its files share. */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctypes.h"

#define MAX_NEST 32

typedef enum CTok { CT_EOF, CT_IDENT, CT_NUM, CT_PUNCT, CT_STR, CT_HASH } CTok;

typedef struct CP {
	CDefs *d;
	const char *s;
	size_t pos;
	int line, col;
	bool script;       /* stop at the first probe */
	bool decls;        /* D's declarations (cdefs_parse_decls): externs and
			    * function prototypes too, a function's body skipped */
	const char *file;  /* NULL: the script */
	int src_file;      /* the script's: its Loc.file (an imported .bt file's C) */
	Loc inc;           /* the #include line (file != NULL) */
	Error *err;
	/* current token */
	CTok tk;
	const char *ts;
	int tl;
	Loc tloc;
	uint64_t num;
	int nest;
	bool bol;          /* token is the first on its line */
	bool pp_if;        /* an #if line: `defined X`, unknown names are 0 */
	bool packed;       /* skip_qualifiers passed __attribute__((packed)) */
	/* open #if/#ifdef/#ifndef of this file: PP_* bits each */
	unsigned char cond[MAX_NEST];
	Loc cond_at[MAX_NEST];
	int ncond;
} CP;

enum { PP_ACTIVE = 1, PP_TAKEN = 2, PP_PARENT = 4 };

/* cdecl_lex.c: errors (always false) and tokens */
bool cd_err(CP *p, Loc at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
char cd_ch(CP *p, int k);           /* k-th character ahead, 0 at the end */
void cd_adv(CP *p, int n);          /* skip n characters */
bool cd_next(CP *p);                /* read the next token */
bool cd_is(const CP *p, const char *w);
const char *cd_tokdesc(const CP *p, char *buf, size_t n);
bool cd_expect(CP *p, const char *w, const char *what);
char *cd_tokdup(CP *p);

/* cdecl_names.c: the names a script defines, and macros */
CName *cd_find_name(const CDefs *d, CNameKind k, const char *name);
void cd_add_name(CDefs *d, CNameKind k, const char *name, Type *t, int64_t v);
void cd_add_macro(CDefs *d, const char *name, const char *text);
/* name's value: an enum constant's, or its macro's text evaluated; depth
 * stops a macro's self-reference */
bool cd_const_at(const CDefs *d, const char *name, int depth, int64_t *v);

/* cdecl_expr.c: a constant expression at the current token */
bool cd_cexpr(CP *p, int64_t *v);

/* cdecl_spec.c: type specifiers and declarators */
Type *cd_int_type(Arena *a, int bits, bool sign);
/* u32, int64_t, __u8...: their width and sign */
bool cd_fixed_int(const char *n, int *bits, bool *sign);
/* qualifiers and __attribute__((...)) skipped; *user set by __user */
bool cd_skip_qualifiers(CP *p, bool *user);
/* the type words before a declarator: "unsigned long", "struct x", "u32" */
bool cd_decl_spec(CP *p, Type **out);
/* from an opening bracket past its closing one: a parameter list, a
 * function's body, an initializer (what: its name in errors) */
bool cd_skip_balanced(CP *p, Loc at, const char *what);
Type *cd_ptr_to(CP *p, Type *t, bool user);
/* the declarator around a name: "*const *name[4][2] : 3", "(*fn)(int)",
 * "fn(args)"; *name "" when abstract, *bits -1 unless a bitfield */
bool cd_declarator(CP *p, Type *base, Type **out, char **name, Loc *nloc, int *bits);

/* cdecl_proto.c: D's rules for a prototype's parameters, at its '(' */
bool cd_d_prototype_ok(const CP *at);

/* cdecl_record.c: struct, union or enum at its keyword */
bool cd_tagged(CP *p, Type **out);

/* cdecl_pp.c: a line starting with '#' (the current token); lines of
 * branches not taken are skipped here too */
bool cd_directive(CP *p);
/* at the end of a file: every #if closed */
bool cd_pp_end(CP *p);

/* cdecl_sysinc.c: <system> headers: found on the system include path,
 * they add their object-like #defines (as text, evaluated on use). */
bool cd_system_header(CDefs *d, const char *name, char *path, size_t n);
void cd_scan_macros(CDefs *d, const char *path, int depth);
