/* What parser.c lends the parser's other files (parse_loop.c): the
 * parser's state stays its own, these reach it.  Each returns false/NULL
 * with the error recorded, as parser.c's own functions do. */
#pragma once
#include "ast.h"
#include "lexer.h"

typedef struct Parser Parser;

const Token *ps_tok(const Parser *ps);
Lexer *ps_lexer(Parser *ps);
Program *ps_prog(Parser *ps);
Error *ps_err(Parser *ps);
bool ps_is(const Parser *ps, const char *word); /* the token is this identifier */
bool ps_advance(Parser *ps);
bool ps_expect(Parser *ps, TokKind kind, const char *expecting);
bool ps_expect_close(Parser *ps, TokKind kind, Loc open, const char *pair);
bool ps_unexpected(Parser *ps, const char *expecting);
Expr *ps_expr(Parser *ps);
Expr *ps_unary(Parser *ps);
bool ps_block(Parser *ps, StmtList *out, const char *what);
Stmt *ps_stmt_new(Parser *ps, StmtKind kind, Loc loc);

/* parse_loop.c: `for ($v : @map) { }`, `for ($i : a..b) { }` (at `for`) */
Stmt *parse_for(Parser *ps);

/* parse_record.c: `(a = 1, b = "x")` (at the token after the '(') */
bool record_ahead(Parser *ps);
Expr *parse_record(Parser *ps, Loc open);
