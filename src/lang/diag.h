/* Diagnostics: errors are values (Error) until main prints them with the
 * source line and a caret under the culprit. */
#pragma once
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

typedef struct Loc {
	int line; /* 1-based; 0 = no location */
	int col;  /* 1-based byte column */
	int len;  /* caret span in bytes (>= 1) */
	/* bpftrace's column for the message's "LINE:COL", when not col: its
	 * lexer moves a location's start only past whitespace, so a token
	 * right after another ("print(ctx)") is placed where the run of them
	 * starts ("print").  0 = col. */
	int hcol;
	/* bpftrace's default place (an if()'s condition): "1:1-1" and an
	 * empty underline */
	bool bare;
	/* the file the place is in: 0 the program's own text (Source), N the
	 * Nth file it imported (Source.files->v[N - 1]) */
	int file;
	/* a place in a macro's body copied to a call (bpftrace 0.26): N the
	 * call, Source.files->exps[N - 1] (itself maybe in another macro's
	 * body), printed after the message as "expanded from"; 0 otherwise */
	int exp;
} Loc;

typedef struct Error {
	bool set;
	Loc loc;
	char msg[512];
	bool plain; /* printed as is, without "ERROR:" (bpftrace's "No probes to attach") */
	/* bpftrace's semantic pass lists every error it finds: the ones after
	 * this (in an arena of the caller's), and the pass of bpftrace's that
	 * finds this one (ERR_TIER_*) */
	struct Error *next;
	unsigned char tier;
	bool warning; /* a warning printed among the errors (diag_print) */
	/* a provider found no such probe (no tracepoint, function, symbol):
	 * the run's missing_probes decides (compile.c) */
	bool missing;
} Error;

/* bpftrace 0.17 checks a program in passes and stops after the first pass
 * that finds an error, printing what it found: a pass before its semantic
 * analysis that stops at its first error (unknown functions), the
 * analyser's first pass, and its final pass (most type checks). */
enum { ERR_TIER_PRE, ERR_TIER_FIRST, ERR_TIER_FINAL };

/* The files a program imported (bpftrace 0.26's `import`), their names
 * and texts kept for the messages that point into them (Loc.file) */
typedef struct SourceFile {
	char *name, *text;
} SourceFile;
typedef struct SourceFiles {
	SourceFile *v;
	int n;
	/* the macro calls expanded (Loc.exp) */
	Loc *exps;
	int nexps;
} SourceFiles;
/* file (its text malloc'd) added; its Loc.file */
int source_files_add(SourceFiles *f, const char *name, char *text);
/* a macro call's place added; its Loc.exp */
int source_files_add_exp(SourceFiles *f, Loc call);
void source_files_free(SourceFiles *f);

typedef struct Source {
	const char *name; /* file name, or "stdin" (also for -e, as bpftrace) */
	const char *text; /* NUL-terminated program text */
	/* the files it imports (the caller's, which outlives the messages;
	 * NULL: the parser keeps them with the Program) */
	SourceFiles *files;
} Source;

/* the name and text of the file loc is in: src's own, or an imported one */
Source source_at(const Source *src, Loc loc);

/* A call at loc (its name): its text from the name to its closing
 * parenthesis (string literals skipped), where src has it on the call's
 * line; else loc */
Loc loc_call_span(const Source *src, Loc loc);

/* Records the first error only: later ones are usually consequences. */
bool error_at(Error *e, Loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool error_vat(Error *e, Loc loc, const char *fmt, va_list ap);

/* Keeps the errors of e's list that bpftrace would print: the first of
 * the earliest tier when that is ERR_TIER_PRE, else all of the earliest. */
void error_keep_first_tier(Error *e);

/* "NAME:LINE:COL-END: ERROR: MSG" (bpftrace's form), then the source line
 * and a caret, then each macro call the place was expanded from the same
 * way ("ERROR: expanded from"); then each error of e's list the same way (a warning among
 * them as "WARNING:", unless no_warnings). */
void diag_print(FILE *out, const Source *src, const Error *e);
void diag_print_opt(FILE *out, const Source *src, const Error *e, bool no_warnings);
/* the same, as "WARNING:" */
void diag_print_warning(FILE *out, const Source *src, const Error *e);
