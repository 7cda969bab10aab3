/* Private to the C-declaration parser (cdecl.c, cdecl_lex.c, cdecl_pp.c):
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

/* cdecl.c: names and constant expressions */
CName *cd_find_name(const CDefs *d, CNameKind k, const char *name);
void cd_add_name(CDefs *d, CNameKind k, const char *name, Type *t, int64_t v);
void cd_add_macro(CDefs *d, const char *name, const char *text);
bool cd_cexpr(CP *p, int64_t *v);

/* cdecl_pp.c: a line starting with '#' (the current token); lines of
 * branches not taken are skipped here too */
bool cd_directive(CP *p);
/* at the end of a file: every #if closed */
bool cd_pp_end(CP *p);

/* cdecl_sysinc.c: <system> headers: found on the system include path,
 * they add their object-like #defines (as text, evaluated on use). */
bool cd_system_header(CDefs *d, const char *name, char *path, size_t n);
void cd_scan_macros(CDefs *d, const char *path, int depth);
