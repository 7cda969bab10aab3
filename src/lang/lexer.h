/* Tokenizer for the bpftrace language.  Probe headers (attach points) and
 * C definitions are context dependent, so the parser drives the lexer in
 * two modes: raw scanning at the top level (lex_attach_point, lex_c_def)
 * and ordinary tokens (lex_next) inside predicates and probe bodies. */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../util/util.h"
#include "ast.h"
#include "diag.h"
#include "parse_opts.h"

typedef enum TokKind {
	T_EOF,
	T_INT,       /* ival */
	T_STR,       /* sval/slen: escapes already processed */
	T_IDENT,     /* keywords too: the parser tells them apart */
	T_VAR,       /* $name (text includes the '$') */
	T_POSPARAM,  /* $N: ival = N */
	T_POSCOUNT,  /* $# */
	T_MAP,       /* @name or @ (text includes the '@') */
	T_LPAREN, T_RPAREN, T_LBRACE, T_RBRACE, T_LBRACKET, T_RBRACKET,
	T_COMMA, T_SEMI, T_COLON, T_QUESTION, T_DOT, T_ARROW,
	T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PERCENT,
	T_AMP, T_PIPE, T_CARET, T_TILDE, T_BANG,
	T_LT, T_GT, T_LE, T_GE, T_EQ, T_NE, T_ANDAND, T_OROR, T_SHL, T_SHR,
	T_INC, T_DEC,
	T_XORXOR,    /* D's ^^ (logical exclusive or) */
	T_ASSIGN,    /* '=' or a compound 'op=': op is the binary Op */
} TokKind;

typedef struct Token {
	TokKind kind;
	Loc loc;
	const char *text; /* points into the source */
	int len;
	Op op;            /* T_ASSIGN: OP_NONE for '=' */
	IntLit lit;       /* T_INT in D: the constant's C type */
	uint64_t ival;
	char *sval;       /* arena-allocated, NUL-terminated */
	size_t slen;
} Token;

typedef struct Lexer Lexer;

/* A dialect's own tokens, given by its front end (the D front end's:
 * dtrace/lexer_d.c); a lexer without them scans bpftrace's. */
typedef struct LexHooks {
	/* the dialect's token at the lexer's position when it has its own
	 * there: true, *ok false on an error (err set); false: an ordinary one */
	bool (*token)(Lexer *lx, Token *t, bool *ok);
	char (*escape)(char c); /* an escape beyond \n \t \r \\ \" \' (0: none) */
	/* a token's location starts at the token itself, not just past the
	 * whitespace before it (bpftrace's location start, Loc.run) */
	bool loc_at_token;
} LexHooks;

struct Lexer {
	const char *text;
	size_t pos;
	int line, col;
	int run_line, run_col; /* just past the last whitespace (bpftrace's location start) */
	Arena *arena; /* string literal and attach point storage */
	Error *err;
	const LexHooks *hooks; /* the dialect's tokens, NULL: bpftrace's */
	const ParseOpts *opts; /* the language's rules (never NULL) */
	int file; /* the file its places are in (Loc.file) */
};

void lexer_init(Lexer *lx, const char *text, Arena *arena, Error *err);

/* Current byte (0 at end of input) and the byte `off` beyond it. */
char lex_peek(const Lexer *lx, size_t off);
Loc lex_loc(const Lexer *lx, int len);
void lex_advance(Lexer *lx, size_t n);

/* Skips whitespace and comments; false (err set) on an unterminated one. */
bool lex_skip_space(Lexer *lx);

/* One backslash escape (the lexer at the backslash) appended to b. */
bool lex_escape(Lexer *lx, StrBuf *b);

/* Next ordinary token; false with err set on a lexical error. */
bool lex_next(Lexer *lx, Token *t);

/* One attach point starting at the current position (already past
 * whitespace).  The text is stored unquoted in t->sval.  Returns false
 * (err set) when there is no attach point here. */
bool lex_attach_point(Lexer *lx, Token *t);

/* True if a C definition (#..., struct/union/enum/typedef) starts here. */
bool lex_at_c_def(const Lexer *lx);
/* Appends one C definition plus a newline to out. */
bool lex_c_def(Lexer *lx, StrBuf *out);

/* Human-readable token description for "unexpected X" messages. */
/* The token as bpftrace's parser names it in "syntax error, unexpected
 * NAME": its kind ("integer", "identifier", "builtin", "map", ...) or, for
 * keywords and punctuation, its text. */
void tok_bison_name(const Token *t, char *buf, size_t size);
void tok_describe(const Token *t, char *buf, size_t size);

/* The D front end (src/dtrace) scans probe descriptions itself, then parses
 * a clause's optional /predicate/ and { body } with the bpftrace grammar
 * (parse_d.c), assignments to identifiers and fields allowed.  The lexer is
 * left right after the clause. */
bool parse_d_clause(Lexer *lx, Program *prog, Probe *pr, Error *err);

/* D's `inline TYPE NAME = EXPR;`: a named, typed expression */
typedef struct DInlineDecl {
	char *type; /* "int", "unsigned long", "string", "struct foo *" */
	char *name;
	Expr *expr;
	Loc loc, name_loc;
} DInlineDecl;
bool parse_d_inline(Lexer *lx, Program *prog, DInlineDecl *out, Error *err);
/* D's variable declarations `[self|this] TYPE NAME[, NAME[KEYS]];` into
 * prog->d_vars (lexer left after the ';') */
bool parse_d_decl(Lexer *lx, Program *prog, Error *err);

/* A program whose top level `top` parses (the D front end's), from a lexer
 * on src; the C definitions it collects in cdefs become Program.c_defs. */
typedef bool (*ParseTopFn)(Lexer *lx, Program *p, StrBuf *cdefs, Error *err, void *arg);
Program *parse_program_with(const Source *src, Error *err, ParseTopFn top, void *arg);
