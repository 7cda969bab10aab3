/* The parser's shared state and the functions its files lend each other
 * (parser.c lists the files).  Each parse function returns false/NULL with
 * the error recorded. */
#pragma once
#include "ast.h"
#include "lexer.h"

typedef struct Parser {
	Lexer lx;
	Token tok;     /* current token (ordinary-token mode only) */
	Program *prog;
	Error *err;
	int depth;
	bool pred_slash; /* in a predicate outside brackets: '/' ends it */
	bool semi_last;  /* ps_stmts: a ';' came after the last statement */
	bool d_syntax;   /* D: `x = `, `self->x = `, `this->x = ` assign (the D
			    front end turns them into maps and variables), and an
			    unclosed bracket is reported at the token found */
	/* a file `import`ed (parse_import.c), its items into prog; NULL: the
	 * program's own text */
	const char *file;
	bool past_preamble; /* this file has had an item that imports must
			       precede (a probe, a macro...) */
	bool had_c_def; /* an imported file: its first C definition is noted */
} Parser;

static inline const Token *ps_tok(const Parser *ps) { return &ps->tok; }
static inline Lexer *ps_lexer(Parser *ps) { return &ps->lx; }
static inline Program *ps_prog(Parser *ps) { return ps->prog; }
static inline Error *ps_err(Parser *ps) { return ps->err; }

/* parse_tok.c: tokens, errors, nesting, allocation */
bool ps_tok_is(const Token *t, const char *word); /* the token is this identifier */
bool ps_tok_in(const Token *t, const char *const *words, size_t n);
#define TOK_IN(t, arr) ps_tok_in((t), (arr), sizeof(arr) / sizeof((arr)[0]))
bool ps_is(const Parser *ps, const char *word); /* the current token is this identifier */
bool ps_keyword(const Token *t);     /* if, else, while, ... sizeof */
bool ps_d_type_word(const Token *t); /* D's C type words: int, unsigned, struct... */
bool ps_advance(Parser *ps);
bool ps_unexpected(Parser *ps, const char *expecting);
/* "syntax error, unexpected TOKEN, expecting WANT" at t, for the parsers
 * of a block's own grammar (config = {...}, map declarations) */
bool ps_tok_unexpected(const Token *t, Error *err, const char *want);
bool ps_expect(Parser *ps, TokKind kind, const char *expecting);
bool ps_expect_close(Parser *ps, TokKind kind, Loc open, const char *pair);
bool ps_enter(Parser *ps); /* one level deeper, or "nesting too deep" */
void ps_leave(Parser *ps);
void ps_expr_push(Parser *ps, ExprList *l, Expr *e);
void ps_stmt_push(Parser *ps, StmtList *l, Stmt *s);
Expr *ps_expr_new(Parser *ps, ExprKind kind, Loc loc);
Stmt *ps_stmt_new(Parser *ps, StmtKind kind, Loc loc);
char *ps_strdup(Parser *ps, int skip); /* the token's text, `skip` chars dropped */

/* parse_type.c: a type at the token (casts, sizeof) */
bool ps_type_ahead(Parser *ps, bool sizeof_ctx);
bool ps_typedef_cast_ahead(Parser *ps, bool sizeof_ctx);
char *ps_type(Parser *ps);
bool ps_typeof_ahead(Parser *ps);
bool ps_typeof(Parser *ps, Expr *cast);
char *ps_d_type(Parser *ps);

/* parse_primary.c */
Expr *ps_primary(Parser *ps);

/* parse_expr.c */
bool ps_list(Parser *ps, ExprList *out, TokKind close, Loc open, const char *pair,
	     const char *empty_msg);
Expr *ps_expr(Parser *ps);
Expr *ps_unary(Parser *ps);

/* parser.c: the top-level items up to the end of the text (an imported
 * file's too: it needs no probe) */
bool ps_top(Parser *ps, StrBuf *cdefs);

/* parse_stmt.c: statements after a '{' up to the '}'; a `{ ... }` body */
bool ps_stmts(Parser *ps, StmtList *out, Loc open);
bool ps_block(Parser *ps, StmtList *out, const char *what);
/* `if c { } [else ...]` at the `if` */
Stmt *ps_if(Parser *ps);
/* the condition after if/while/unroll (at the token after the keyword) */
Expr *ps_cond(Parser *ps, const char *kw);

/* parse_block.c (ParseOpts.block_exprs): `{ stmts; value }` at its '{',
 * `if c { a } else { b }` at its `if`, as expressions */
Expr *ps_block_expr(Parser *ps);
Expr *ps_if_expr(Parser *ps);
Expr *ps_if_value(Parser *ps, Stmt *st); /* a valued if (Stmt.valued) as a ?: */

/* parse_probe.c: at an attach point; the predicate at its opening '/' */
bool ps_probe(Parser *ps);
bool ps_predicate(Parser *ps, Probe *pr);

/* parse_loop.c: `for ($v : @map) { }`, `for ($i : a..b) { }` (at `for`) */
Stmt *parse_for(Parser *ps);

/* parse_record.c: `(a = 1, b = "x")` (at the token after the '(') */
bool record_ahead(Parser *ps);
Expr *parse_record(Parser *ps, Loc open);
