/* Private to the text preprocessor (cpp*.c): tokens, macros, its state. */
#pragma once
#include <stdarg.h>
#include <setjmp.h>

#include "cpp.h"

typedef enum { PT_EOF, PT_IDENT, PT_NUM, PT_STR, PT_CHAR, PT_PUNCT, PT_OTHER } PTKind;

/* the names a token may no longer be expanded as (it came out of them) */
typedef struct Hide {
	const char *name;
	struct Hide *next;
} Hide;

typedef struct PTok {
	PTKind kind;
	const char *s; /* text, not NUL-terminated */
	int len;
	bool bol;      /* first token of its logical line */
	bool space;    /* white space before it */
	int lead;      /* columns before it when it starts an output line, or -1 */
	const char *file;
	int line, col;
	bool end_of_include; /* the PT_EOF of an #include'd file: its includer goes on */
	Hide *hide;
	struct PTok *next;
} PTok;

typedef struct Macro {
	const char *name;
	bool funclike, variadic;
	const char **params; /* variadic: the last is __VA_ARGS__ (or its name) */
	int nparams;
	PTok *body;          /* ends with a PT_EOF token */
	const PTok *def;     /* its name in the #define, for messages */
	enum { MB_NONE, MB_LINE, MB_FILE } builtin;
	struct Macro *next;
} Macro;

#define COND_MAX 64
#define TOKENS_MAX 250000 /* a run's macro expansions make at most this many */
#define PAREN_MAX 256     /* ( nesting in an #if expression */

typedef struct Cpp {
	const CppOpts *o;
	Arena *a;
	Macro *macros;
	CppError *err;
	jmp_buf fail;      /* errors unwind to cpp_run */
	const char *main_dir; /* "" or "dir/" of the main file */
	int depth;         /* #include nesting */
	const PTok *includes[256]; /* includes[d]: the #include that opened depth d + 1 */
	long budget;       /* tokens macro expansion may still make */
	StrBuf warnings;
	int nerrors;       /* errors so far (the run fails at its end if any) */
	Arena *out_arena;  /* what outlives the run: file names */
	struct SrcFile {
		const char *file, *text;
		struct SrcFile *next;
	} *sources;        /* for the source line of an error */
} Cpp;

/* cpp.c: a copy of a file's text, kept for error messages */
char *cpp_add_source(Cpp *c, const char *file, const char *text);
/* line of file with tabs expanded, as gcc shows it; *col (a byte column,
 * may be NULL) becomes the column shown */
void cpp_display_line(const Cpp *c, const char *file, int line, char *out, size_t n, int *col);

/* cpp.c: a regular file that can be read */
bool cpp_readable(const char *path);
/* cpp_sysinc.c: <name> on the system include path (*text NULL), or one of
 * sonde's own freestanding headers (path "<built-in>/NAME", *text its text) */
bool cpp_system_header(const char *name, char *path, size_t n, const char **text);

/* cpp.c: an error at a token (never returns) */
_Noreturn void cpp_fail(Cpp *c, const PTok *at, bool fatal, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* cpp_lex.c */
PTok *cpp_lex(Cpp *c, const char *text, const char *file);
int cpp_lex_one(const char *s, PTKind *kind); /* length of the token at s, 0 at the end */
bool cpp_is(const PTok *t, const char *s);
PTok *cpp_tok_copy(Cpp *c, const PTok *t);
PTok *cpp_eof(Cpp *c, const PTok *at);
char *cpp_tok_str(Cpp *c, const PTok *t); /* NUL-terminated copy */

/* cpp_macro.c */
Macro *cpp_find(Cpp *c, const PTok *t);
void cpp_define(Cpp *c, PTok **rest, PTok *name); /* the rest of the #define line */
void cpp_undef(Cpp *c, const char *name);
void cpp_builtin(Cpp *c, const char *name, int which);
/* expands the macro at *tok if it is one: *tok is then the expansion
 * followed by the rest */
bool cpp_expand(Cpp *c, PTok **tok);
/* a copy of the tokens (ending with PT_EOF) with every macro expanded */
PTok *cpp_expand_list(Cpp *c, const PTok *raw);

/* cpp_expr.c: the value of an #if line's tokens (ending with PT_EOF) */
bool cpp_if_value(Cpp *c, PTok *line, const PTok *directive);
