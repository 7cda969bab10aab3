/* A C preprocessor over program text, as cpp(1) runs over a D script under
 * `dtrace -C`: #define (object- and function-like, # and ##, __VA_ARGS__),
 * #undef, #include "..." / <...>, #if/#ifdef/#ifndef/#elif/#else/#endif
 * with defined(), #error, #warning, #line, #pragma and #ident passed on;
 * macros expanded everywhere outside string literals and comments, with
 * cpp's rule that a macro is not expanded inside its own expansion.
 *
 *   cpp.c        directives, #include, the output text and its line map
 *   cpp_lex.c    preprocessing tokens of a file
 *   cpp_macro.c  the macro table and expansion
 *   cpp_expr.c   #if expressions
 *
 * The output keeps the lines of the main file where it can (a line of the
 * script is the same line of the output unless an #include came before
 * it); CppOut.lines says where each output line came from, so compile
 * errors name the user's line. */
#pragma once
#include <stdbool.h>
#include <stdio.h>

#include "../util/util.h"

typedef struct CppOpts {
	const char *const *include_dirs; /* -I, in order */
	int ninclude_dirs;
	/* -D NAME[=VALUE] as "DNAME[=VALUE]", -U NAME as "UNAME", in command-line
	 * order, after the predefined names */
	const char *const *defines;
	int ndefines;
	bool predefine;   /* DTrace's predefined names (__SUNW_D, __linux, ...) */
	bool no_includes; /* refuse #include (the fuzzer) */
	long max_tokens;  /* what macro expansion may make, 0: TOKENS_MAX (250000) */
	bool show_includes; /* -H: each included file's path, after one '.' per level, as gcc -H */
	/* <name> found neither in include_dirs nor next to the script: read from
	 * the system include path, as gcc's cpp (cpp_sysinc.c) */
	bool system_headers;
} CppOpts;

typedef struct CppLine {
	const char *file; /* the file an output line came from */
	int line;         /* its line there */
} CppLine;

typedef struct CppOut {
	char *text;      /* malloc'd, NUL-terminated */
	CppLine *lines;  /* lines[i]: the origin of output line i + 1 */
	int nlines;
	char *warnings;  /* for stderr: "FILE:L:C: warning: ..." lines and -H's, or NULL */
	Arena arena;     /* file names */
} CppOut;

/* A failure as cpp prints it: "FILE:LINE:COL: error: MSG" (fatal: "fatal
 * error:", then "compilation terminated."). */
typedef struct CppError {
	char included[1024]; /* "In file included from ..." lines, or "" */
	char file[256];
	int line, col;
	bool fatal;
	char msg[512];
	int len;          /* the culprit's length, for the ~~~ after the caret */
	char source[256]; /* the line (tabs expanded), for the caret */
	char note[700];   /* gcc's note after it ("macro X defined here"), or "" */
	char more[2048];  /* the errors after the first (cpp goes on after some), as cpp prints them */
} CppError;

/* Preprocesses text (the contents of path, which names it in messages and
 * __FILE__ and whose directory "..." includes search first).  False with
 * err set; out is then empty. */
bool cpp_run(const char *text, const char *path, const CppOpts *o, CppOut *out, CppError *err);
void cpp_out_free(CppOut *out);
/* err as cpp prints it, each line ending in a newline */
void cpp_error_print(FILE *f, const CppError *err);
/* output line -> origin (a line past the end maps to the last) */
CppLine cpp_origin(const CppOut *out, int line);
