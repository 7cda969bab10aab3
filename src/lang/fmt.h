/* How a script asks for its output to look: the language it is written in,
 * D's aggregation-printing options, and printf formats parsed into pieces.
 * The compiler checks arguments against the pieces; the runtime renders
 * them (runtime/printf_fmt.c, the front ends' FmtExt) and applies the
 * options (runtime/output.h).  Nothing here prints. */
#pragma once
#include <stdbool.h>
#include <stddef.h>

#include "../util/util.h"
#include "types.h"

struct OutCtx; /* the runtime's output context (runtime/output.h), opaque here */

/* Which language the script was written in: it decides how output looks
 * (bpftrace 0.17's or dtrace(1)'s) and which functions exist. */
typedef enum Dialect { DIALECT_BPFTRACE, DIALECT_D } Dialect;

/* dtrace(1)'s options for printing aggregations (-x NAME, #pragma D option
 * NAME, setopt("NAME")): the D front end fills Options.agg, the session
 * copies it into OutCtx, setopt() changes it while tracing (map_print_d.c). */
typedef struct AggOpts {
	bool sortkey;   /* aggsortkey: sort by keys, then values */
	bool sortrev;   /* aggsortrev: reverse the order */
	int sortkeypos; /* aggsortkeypos: the key element compared first */
	int sortpos;    /* aggsortpos: which aggregation of a multi-aggregation
			   printa() sorts */
	bool percpu;    /* aggpercpu: each CPU's value under the total */
	bool stackindent_set;
	int stackindent; /* stackindent: the frames' indent (14 when unset) */
	bool flowindent; /* flowindent (-F): entry/return lines indented (events.c) */
	bool testing;    /* _DTRACE_TESTING in dtrace(1)'s environment: its testing
			    mode, no CPU and ID columns (reproducible output) */
} AggOpts;

/* printf: the format is checked at compile time and kept as pieces. */
typedef enum FmtConv {
	FC_LITERAL, /* text between conversions (with %% already folded) */
	FC_INT,     /* d i u x X o c, with any length modifier */
	FC_STR,     /* s: strings, and any value printed as print() would */
	FC_PTR,     /* p */
	FC_BUF,     /* r: hex-escaped buffer */
	/* D's own (printf_fmt_d.c) */
	FC_STAR,    /* a '*' width or precision: an int argument for the next piece */
	FC_ESTR,    /* %S (a string), %C (a char): C escapes for the unprintable */
	FC_SYM,     /* %a: kernel address as module`symbol+0xoff */
	FC_USYM,    /* %A: user address, the same in the process (usym() value) */
	FC_STACK,   /* %k: a stack(), ustack() or jstack() */
	FC_TIME,    /* %Y: nanoseconds since the epoch, "2026 Nov 25 02:40:00" */
	FC_TIME822, /* %T: the same in RFC 822's form */
	FC_FLOAT,   /* %e %f %g: a float's or double's bytes, printed as one */
} FmtConv;

typedef struct FmtPiece {
	FmtConv conv;
	char *text;  /* FC_LITERAL: the text; else the C conversion to use with
			snprintf, rewritten to take a 64-bit argument,
			e.g. "%-5lld", "%08llx", "%.3s" */
	char spec;   /* the conversion letter as written: 'd', 's', ... */
	char word[6]; /* bpftrace's name of the conversion in messages: '%',
			 length modifier and letter as written ("%lld", "%rx") */
	char buf_mode; /* FC_BUF: 'r' (%r), 'x' (%rx: all \xNN), 'h' (%rh: "61 62") */
	bool is_unsigned_conv; /* u x X o */
	/* set by the parsers: */
	bool arg64; /* FC_INT/FC_PTR: pass a 64-bit argument (l ll j z t, %p);
		       else an int, as C would read it (%d shows 32 bits) */
	bool plain; /* no flags, width or precision: bare %s / %r */
	bool agg_value; /* D printa(): a %@ conversion, the next aggregation's value */
	bool skip;  /* the argument is consumed but prints nothing (bpftrace
		       hands segments to snprintf, which can swallow them) */
	const struct DConv *dconv; /* D: the conversion as libdtrace's table has it */
	const struct FmtExt *ext; /* the front end's conversions (its parser sets it), or NULL */
} FmtPiece;

/* A front end's own printf conversions (D's: printf_fmt_d.c): render one
 * of the kinds FC_ESTR .. FC_FLOAT, and the C conversion text with its
 * '*' widths and precisions given (malloc'd) */
typedef struct FmtExt {
	void (*render)(StrBuf *sb, const struct OutCtx *o, const FmtPiece *p, const Type *t,
		       const void *arg);
	char *(*with_stars)(const char *text, const int *stars, int n);
} FmtExt;

typedef struct Fmt {
	FmtPiece *pieces;
	int npieces;
	int nargs; /* conversions that take an argument */
} Fmt;

/* Parse a printf format.  On error returns false, sets *err_off to the
 * byte offset in fmt of the bad conversion and writes a message. */
bool fmt_parse(const char *fmt, size_t len, Fmt *out, int *err_off, char *err,
	       size_t errlen);
void fmt_free(Fmt *f);

/* Does conversion piece `p` accept a value of type `t`?  (sema asks this) */
bool fmt_accepts(const FmtPiece *p, const Type *t);

/* The words bpftrace's printf type errors use: "%s specifier expects a value
 * of type <fmt_expected_word> (<fmt_type_word> supplied)". */
const char *fmt_expected_word(const FmtPiece *p);
/* bpftrace 0.17's word for a value's type in that message: integer,
 * string, buffer, tuple, record, array, or the aggregation's name. */
const char *fmt_type_word(const Type *t);
