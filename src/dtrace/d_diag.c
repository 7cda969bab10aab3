/* Compile errors as dtrace(1) prints them.  sonde's messages are in
 * bpftrace's words; the ones D scripts and wrappers look for are said in
 * DTrace's, each with DTrace's error tag (shown under -xerrtags):
 *   dtrace: failed to compile script F: [TAG] line N: MESSAGE   (-s)
 *   dtrace: invalid probe specifier S: [TAG] MESSAGE            (-n) */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "dtrace.h"

/* D messages (already in DTrace's words) and their tags, by prefix */
static const struct {
	const char *prefix, *tag;
} d_tags[] = {
	{"syntax error near", "D_SYNTAX"},
	{"probe description", "D_PDESC_ZERO"},
	{"failed to lookup '", "D_PROC_FUNC"}, /* pid probes (d_probes.c), as dt_pid.c */
	{"offset 0x", "D_PROC_OFF"},
	{"invalid probe description", "D_PDESC_INVAL"},
	{"macro argument", "D_MACRO_UNDEF"},
	{"failed to resolve", "D_IDENT_UNDEF"},
	{"failed to set option", "D_PRAGMA_OPTSET"},
	{"operator", "D_OP_WRITE"},
	{"invalid character", "D_CHR_BADESC"},
	{"unterminated", "D_SYNTAX"},
	{"end-of-file encountered", "D_SYNTAX"},
	/* constants (dtrace/lexer_d.c) */
	{"integer constant", "D_INT_OFLOW"},
	{"floating-point constants", "D_SYNTAX"},
	{"empty character constant", "D_CHR_NULL"},
	{"character constant is too long", "D_CHR_OFLOW"},
	{"newline encountered in character", "D_CHR_NL"},
	{"invalid cast expression", "D_CAST_INVAL"},
	{"identifier redeclared", "D_DECL_IDRED"},
	{"identifier redefined", "D_DECL_IDRED"},
	/* C declarations (lang/cdecl.c's D mode) */
	{"specified storage class not appropriate", "D_DECL_BADCLASS"},
	{"useless declaration", "D_DECL_USELESS"},
	/* D variable declarations (lang/parse_d.c) */
	{"associative arrays may not be declared as local", "D_DECL_LOCASSC"},
	{"array declaration requires array dimension", "D_DECL_ARRNULL"},
	{"invalid type declaration: long", "D_DECL_LONGINT"},
	{"invalid type declaration: signed", "D_DECL_SIGNINT"},
	{"invalid type combination", "D_DECL_COMBO"},
	{"void parameter may not have a name", "D_DECL_PROTO_NAME"},
	{"array prototype may not use a variable-length", "D_DECL_PROTO_VARARGS"},
	{"array prototype may not use parameter", "D_DECL_PROTO_TYPE"},
	{"function prototype may not use parameter", "D_DECL_PROTO_TYPE"},
	{"invalid control directive", "D_PRAGCTL_INVAL"},
	{"inline ", "D_OP_INCOMPAT"}, /* inline X definition uses incompatible types */
	{"operands have incompatible types", "D_OP_INCOMPAT"},
	{"cannot translate from", "D_XLATE_NONE"},
	{"translator does not define conversion", "D_XLATE_NOCONV"},
	{"translator output type must be", "D_XLATE_SOU"},
	{"incomplete struct/union/enum", "D_XLATE_SOU"},
	{"expression contains division by zero", "D_DIV_ZERO"},
	{"index outside array bounds", "D_ARR_BOUNDS"},
	{"ternary conditional with alloca", "D_ALLOCA_INCOMPAT"},
	/* aggregations (dtrace/sema_agg_d.c), more specific prefixes first */
	{"lquantize( ) argument #1 must be an integer", "D_LQUANT_BASETYPE"},
	{"lquantize( ) argument #1 must be a 32", "D_LQUANT_BASEVAL"},
	{"lquantize( ) argument #2 must be an integer", "D_LQUANT_LIMTYPE"},
	{"lquantize( ) argument #2 must be a 32", "D_LQUANT_LIMVAL"},
	{"lquantize( ) base (argument #1) must be less", "D_LQUANT_MISMATCH"},
	{"lquantize( ) argument #3 must be a non-zero", "D_LQUANT_STEPTYPE"},
	{"lquantize( ) argument #3 must be a 16", "D_LQUANT_STEPVAL"},
	{"lquantize( ) step (argument #3) too large", "D_LQUANT_STEPLARGE"},
	{"lquantize( ) step (argument #3) too small", "D_LQUANT_STEPSMALL"},
	{"lquantize( ) base (argument #1) doesn't", "D_LQUANT_MATCHBASE"},
	{"lquantize( ) limit (argument #2) doesn't", "D_LQUANT_MATCHLIM"},
	{"lquantize( ) step (argument #3) doesn't", "D_LQUANT_MATCHSTEP"},
	{"llquantize( ) argument #1 must be an integer", "D_LLQUANT_FACTORTYPE"},
	{"llquantize( ) argument #1", "D_LLQUANT_FACTORVAL"},
	{"llquantize( ) argument #2 must be an integer", "D_LLQUANT_LMAGTYPE"},
	{"llquantize( ) argument #2", "D_LLQUANT_LMAGVAL"},
	{"llquantize( ) argument #3 must be an integer", "D_LLQUANT_HMAGTYPE"},
	{"llquantize( ) argument #3", "D_LLQUANT_HMAGVAL"},
	{"llquantize( ) argument #4 must be an integer", "D_LLQUANT_STEPTYPE"},
	{"llquantize( ) argument #4 must be a non-zero", "D_LLQUANT_STEPTYPE"},
	{"llquantize( ) argument #4", "D_LLQUANT_STEPVAL"},
	{"llquantize() argument #4", "D_LLQUANT_STEPVAL"},
	{"llquantize() factor", "D_LLQUANT_MATCHFACTOR"},
	{"llquantize() lmag", "D_LLQUANT_MATCHLMAG"},
	{"llquantize() hmag", "D_LLQUANT_MATCHHMAG"},
	{"llquantize() steps", "D_LLQUANT_MATCHSTEPS"},
	{"printa( ) argument", "D_PRINTA_AGGARG"},
	{"stack( ) argument", "D_STACK_SIZE"},
	{"ustack( ) argument #1", "D_USTACK_FRAMES"},
	{"ustack( ) argument #2", "D_USTACK_STRSIZE"},
	{"setopt( ) prototype mismatch", "D_PROTO_LEN"},
	{"setopt( )", "D_PROTO_ARG"},
	/* subroutines and speculations (compile/dfunc_*.c) */
	{"speculate( ) may not follow speculate", "D_SPEC_SPEC"},
	{"speculate( ) may not follow commit", "D_SPEC_COMM"},
	{"speculate( ) may not follow data", "D_SPEC_DREC"},
	{"commit( ) may not follow commit", "D_COMM_COMM"},
	{"commit( ) may not follow data", "D_COMM_DREC"},
	{"data-recording actions may not follow commit", "D_DREC_COMM"},
	{"aggregating actions may not follow speculate", "D_AGG_SPEC"},
	{"aggregating actions may not follow commit", "D_AGG_COMM"},
	{"exit( ) may not follow speculate", "D_EXIT_SPEC"},
	{"destructive actions may not follow speculate", "D_ACT_SPEC"},
	{"cannot apply stringof", "D_STRINGOF_TYPE"},
	{"tracemem( ) argument #1", "D_TRACEMEM_ADDR"},
	{"tracemem( ) argument #2", "D_TRACEMEM_SIZE"},
	{"tracemem( ) size", "D_TRACEMEM_SIZE"},
	{"tracemem ( ) prototype", "D_TRACEMEM_ARGS"},
	{"tracemem ( ) dynamic size", "D_TRACEMEM_DYNSIZE"},
	/* printf formats (dtrace/printf_fmt_d.c, compile/sema_call.c) */
	{"printf( ) argument #", "D_PRINTF_ARG_TYPE"}, /* D_PRINTF_DYN_TYPE: d_tags_first */
	{"printf( ) prototype mismatch: conversion", "D_PRINTF_ARG_PROTO"},
	{"printf( ) prototype mismatch: only", "D_PRINTF_ARG_EXTRA"},
	{"printf( ) format string is empty", "D_PRINTF_FMT_EMPTY"},
	{"system( ) argument #", "D_PRINTF_ARG_TYPE"},
	{"system( ) prototype mismatch: conversion", "D_PRINTF_ARG_PROTO"},
	{"system( ) prototype mismatch: only", "D_PRINTF_ARG_EXTRA"},
	{"system( ) format string is empty", "D_PRINTF_FMT_EMPTY"},
	{"%@ conversion requires an aggregation", "D_PRINTF_AGG_CONV"},
	{"format conversion #", "D_SYNTAX"}, /* libdtrace's format parser */
	{"empty D program translation unit", "D_EMPTY"},
	{"cannot take offset of a bit-field", "D_OFFSETOF_BITFIELD"},
	{"offsetof operand must be", "D_OFFSETOF_TYPE"},
};

/* tags found by a part of the message, before the prefixes: the '*' width
 * and precision arguments of printf() and system() */
static const struct {
	const char *part, *tag;
} d_tags_first[] = {
	{"is missing a corresponding \"*\" argument", "D_PRINTF_DYN_PROTO"},
	{"is missing a corresponding \".*\" argument", "D_PRINTF_DYN_PROTO"},
	{"prototype:\n\tconversion: % ", "D_PRINTF_DYN_TYPE"},
	/* a format that is not a string (printf, system) */
	{"( ) argument #1 is incompatible with prototype:\n\tprototype: string\n", "D_PROTO_ARG"},
};

/* tags of messages that start with the function's name */
static const struct {
	const char *part, *tag;
} d_tags_in[] = {
	{" contains invalid digit ", "D_INT_DIGIT"},
	{"' is an invalid probe name", "D_PROC_NAME"},
	{"' does not contain a valid pid", "D_PROC_BADPID"},
	{" results in integer overflow", "D_INT_OFLOW"},
	{" has already been declared", "D_XLATE_REDECL"},
	{"' value overflows INT_MAX", "D_DECL_ENOFLOW"}, /* enumerator 'e' (lang/cdecl_record.c) */
	{" increment value (argument #", "D_PROTO_ARG"}, /* sema_agg_d.c's llquantize() */
	{": cannot reuse the same identifier for both alloca", "D_ALLOCA_INCOMPAT"},
	{" definition uses incompatible types", "D_XLATE_INCOMPAT"},
	{" is not a member of ", "D_XLATE_MEMB"},
	{"( ) argument #", "D_PROTO_ARG"},
	{"( ) prototype mismatch", "D_PROTO_LEN"},
	{"do not have matching key signatures", "D_PRINTA_AGGKEY"},
	{"printa( ): @", "D_PRINTA_AGGPROTO"}, /* an aggregation's key #N */
	{"[ ] key #", "D_PROTO_ARG"},         /* an associative array's */
	{"[ ] prototype mismatch", "D_PROTO_LEN"},
};

static bool is_agg_func(const char *name)
{
	static const char *const aggs[] = {"count", "sum", "avg", "min", "max", "stddev",
					   "quantize", "lquantize", "llquantize"};
	for (size_t i = 0; i < sizeof(aggs) / sizeof(aggs[0]); i++)
		if (!strcmp(name, aggs[i]))
			return true;
	return false;
}

/* the shared core's wording (compile/) -> DTrace's: argument counts and
 * types, offsetof, an empty program */
static bool translate_core(const char *msg, char *out, size_t n, const char **tag)
{
	char name[128];
	int k, got;
	if (sscanf(msg, "%127[a-z_]() argument %d must be an integer", name, &k) == 2 &&
	    is_agg_func(name)) {
		snprintf(out, n, "%s( ) argument #%d must be of scalar type", name, k);
		*tag = "D_AGG_SCALAR";
		return true;
	}
	if (sscanf(msg, "%127[a-z_]() requires at least one argument (%d provided)", name, &got) == 2) {
		snprintf(out, n, "%s( ) prototype mismatch: %d arg%s passed, at least 1 expected", name,
			 got, got == 1 ? "" : "s");
		*tag = "D_PROTO_LEN";
		return true;
	}
	if (sscanf(msg, "offsetof: '%127[^']' is a bitfield", name) == 1) {
		snprintf(out, n, "cannot take offset of a bit-field: %s", name);
		*tag = "D_OFFSETOF_BITFIELD";
		return true;
	}
	if (!strncmp(msg, "offsetof needs a struct or union", 32) ||
	    !strncmp(msg, "offsetof: unknown type", 22)) {
		snprintf(out, n, "offsetof operand must be a struct or union type");
		*tag = "D_OFFSETOF_TYPE";
		return true;
	}
	if (!strcmp(msg, "the program has no probes")) {
		snprintf(out, n, "empty D program translation unit");
		*tag = "D_EMPTY";
		return true;
	}
	return false;
}

/* the C declarations' wording (lang/cdecl*.c) -> DTrace's (dt_decl.c) */
static bool translate_decl(const char *msg, char *out, size_t n, const char **tag)
{
	char name[128], type[128];
	long long width;
	if (sscanf(msg, "member '%127[^']' has incomplete type %127[^(](", name, type) == 2) {
		size_t len = strlen(type);
		while (len && type[len - 1] == ' ')
			type[--len] = 0;
		/* dtrace names the type as its CTF forward, which libctf calls
		 * "struct X" for a union too (dtrace-utils' union tests) */
		bool u = !strncmp(type, "union ", 6);
		snprintf(out, n, "incomplete struct/union/enum %s%s: %s", u ? "struct " : "", type + (u ? 6 : 0),
			 name);
		*tag = "D_DECL_INCOMPLETE";
		return true;
	}
	if (sscanf(msg, "cannot cast to '%127[^']': invalid type combination", type) == 1) {
		snprintf(out, n, "invalid type combination");
		*tag = "D_DECL_COMBO";
		return true;
	}
	if (sscanf(msg, "member '%127[^']' has type void", name) == 1) {
		snprintf(out, n, "cannot have void member: %s", name);
		*tag = "D_DECL_VOIDOBJ";
		return true;
	}
	if (sscanf(msg, "bitfield width %lld is out of range", &width) == 1 && width <= 0) {
		snprintf(out, n, "positive integral constant expression expected as bit-field size");
		*tag = "D_DECL_BFCONST";
		return true;
	}
	return false;
}

/* sonde's wording -> DTrace's, for messages D users meet */
static bool translate(const char *msg, char *out, size_t n, const char **tag)
{
	char name[128];
	if (sscanf(msg, "Unknown identifier: '%127[^']'", name) == 1) {
		snprintf(out, n, "failed to resolve %s: Unknown variable name", name);
		*tag = "D_IDENT_UNDEF";
		return true;
	}
	/* a thread-local or clause-local read that nothing assigns */
	if (sscanf(msg, "Undefined map: @self->%127[^\n]", name) == 1 ||
	    sscanf(msg, "map @self->%127s is read but never", name) == 1 ||
	    sscanf(msg, "map @self->%127s is used but never", name) == 1) {
		snprintf(out, n, "self->%s has not yet been declared or assigned", name);
		*tag = "D_VAR_UNDEF";
		return true;
	}
	if (sscanf(msg, "variable $this->%127s is used before", name) == 1) {
		snprintf(out, n, "this->%s has not yet been declared or assigned", name);
		*tag = "D_VAR_UNDEF";
		return true;
	}
	if (translate_core(msg, out, n, tag) || translate_decl(msg, out, n, tag))
		return true;
	if (!strcmp(msg, "unterminated comment")) { /* lang/lexer.c's; dtrace finds it at the end */
		snprintf(out, n, "end-of-file encountered before matching */");
		*tag = "D_SYNTAX";
		return true;
	}
	if (sscanf(msg, "Unknown function: %127s", name) == 1) {
		snprintf(out, n, "failed to resolve %s: Unknown function name", name);
		*tag = "D_IDENT_UNDEF";
		return true;
	}
	return false;
}

#define ID_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"

/* the length of D's integer constant at s: digits or 0x and hex digits,
 * then [uU]?[lL]?[lL]? (dt_lex.l's RGX_INT: "0abc" is "0", then "abc") */
static size_t d_number_len(const char *s)
{
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2]);
	size_t n = hex ? 2 : 0;
	while (hex ? isxdigit((unsigned char)s[n]) : isdigit((unsigned char)s[n]))
		n++;
	n += s[n] == 'u' || s[n] == 'U';
	for (int k = 0; k < 2 && (s[n] == 'l' || s[n] == 'L'); k++)
		n++;
	return n;
}

/* the length of D's operator at s, the longest that matches */
static size_t d_operator_len(const char *s)
{
	static const char *const ops[] = {
		"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
		"^^", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
	};
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strncmp(s, ops[i], strlen(ops[i])))
			return strlen(ops[i]);
	return *s && *s != '\n' ? 1 : 0;
}

static const char *text_at(const Source *src, Loc loc)
{
	const char *s = src->text;
	for (int line = 1; *s && line < loc.line; s++)
		line += *s == '\n';
	for (int col = 1; *s && *s != '\n' && col < loc.col; s++)
		col++;
	return s;
}

/* the token at loc in the source, as "syntax error near" quotes it (dt_lex.l's
 * yytext): an identifier, a constant, a macro ($pid, $1, $$1), an operator */
static void token_at(const Source *src, Loc loc, char *out, size_t n)
{
	const char *s = text_at(src, loc);
	size_t len;
	if (isdigit((unsigned char)*s))
		len = d_number_len(s);
	else if (*s == '$')
		len = 1 + (s[1] == '$') + strspn(s + 1 + (s[1] == '$'), ID_CHARS);
	else
		len = strspn(s, ID_CHARS);
	if (!len)
		len = d_operator_len(s);
	snprintf(out, n, "%.*s", (int)len, s);
}

/* a ')' or ']' with nothing open before it: dt_lex.l counts them and says
 * "extra ) in input stream" before the parser sees the token */
static bool closes_nothing(const Source *src, Loc loc, char close)
{
	const char *end = text_at(src, loc), open = close == ')' ? '(' : '[';
	int depth = 0;
	for (const char *s = src->text; s < end; s++) {
		if (*s == '"' || *s == '\'') { /* a literal: on to its closing quote */
			char q = *s++;
			while (s < end && *s != q && *s != '\n')
				s += *s == '\\' && s + 1 < end ? 2 : 1;
		} else if (*s == '/' && s[1] == '*') {
			const char *e = strstr(s + 2, "*/");
			s = e && e + 1 < end ? e + 1 : end;
		} else if (*s == '/' && s[1] == '/') {
			s += strcspn(s, "\n");
		} else {
			depth += (*s == open) - (*s == close);
		}
	}
	return *end == close && depth <= 0;
}

/* the line the end of the text is on */
static int lines_in(const Source *src)
{
	int n = 1;
	for (const char *s = src && src->text ? src->text : ""; *s; s++)
		n += *s == '\n';
	return n;
}

void d_diag_print(FILE *f, const char *script, const char *spec, const Source *src,
		  const Error *e, bool errtags, bool in_actions)
{
	d_diag_print_at(f, script, spec, src, e, errtags, in_actions ? "in action list" : NULL,
			e->loc.line, NULL);
}

void d_diag_print_at(FILE *f, const char *script, const char *spec, const Source *src,
		     const Error *e, bool errtags, const char *region, int line, const char *filetag)
{
	char msg[700];
	const char *tag = NULL;
	for (size_t i = 0; !tag && i < sizeof(d_tags_first) / sizeof(d_tags_first[0]); i++)
		if (strstr(e->msg, d_tags_first[i].part))
			tag = d_tags_first[i].tag;
	if (tag)
		snprintf(msg, sizeof(msg), "%s", e->msg);
	else if (!translate(e->msg, msg, sizeof(msg), &tag)) {
		snprintf(msg, sizeof(msg), "%s", e->msg);
		for (size_t i = 0; !tag && i < sizeof(d_tags) / sizeof(d_tags[0]); i++)
			if (!strncmp(msg, d_tags[i].prefix, strlen(d_tags[i].prefix)))
				tag = d_tags[i].tag;
	}
	for (size_t i = 0; !tag && i < sizeof(d_tags_in) / sizeof(d_tags_in[0]); i++)
		if (strstr(msg, d_tags_in[i].part))
			tag = d_tags_in[i].tag;
	if (!strncmp(msg, "could not enable tracing: ", 26)) {
		/* refused when enabling (destructive actions without -w) */
		fprintf(f, "dtrace: %s\n", msg);
		return;
	}
	if (!tag && (strstr(msg, "syntax error") || strstr(msg, "expected") ||
		     strstr(msg, "missing") || strstr(msg, "unexpected"))) {
		char tok[64];
		token_at(src, e->loc, tok, sizeof(tok));
		if ((!strcmp(tok, ")") || !strcmp(tok, "]")) && closes_nothing(src, e->loc, tok[0]))
			snprintf(msg, sizeof(msg), "extra %s in input stream", tok);
		else
			snprintf(msg, sizeof(msg), "syntax error near \"%s\"", tok);
		tag = "D_SYNTAX";
	}
	if ((tag && !strcmp(tag, "D_EMPTY")) || strstr(msg, "before matching */"))
		line = lines_in(src); /* dtrace finds these at the end of the input */
	char tagbuf[64] = "";
	if (errtags)
		snprintf(tagbuf, sizeof(tagbuf), "[%s] ", tag ? tag : "D_UNKNOWN");
	if (script && filetag)
		fprintf(f, "dtrace: failed to compile script %s: %s\"%s\", line %d: %s\n", script, tagbuf,
			filetag, line ? line : 1, msg);
	else if (script)
		fprintf(f, "dtrace: failed to compile script %s: %sline %d: %s\n", script, tagbuf,
			line ? line : 1, msg);
	else
		fprintf(f, "dtrace: invalid probe specifier %s: %s%s%s%s\n", spec, tagbuf,
			region ? region : "", region ? ": " : "", msg);
}
