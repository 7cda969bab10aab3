/* Recursive-descent parser for the bpftrace language.  Every parse
 * function returns NULL/false with the error recorded on failure; nothing
 * needs unwinding because all allocations live in the Program's arena. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "lexer.h"
#include "parser_int.h"

/* Deep enough for any real script, shallow enough that recursion on
 * hostile input cannot exhaust the stack. */
#define MAX_DEPTH 100

struct Parser {
	Lexer lx;
	Token tok;     /* current token (ordinary-token mode only) */
	Program *prog;
	Error *err;
	int depth;
	bool pred_slash; /* in a predicate outside brackets: '/' ends it */
	bool d_syntax;   /* D: `x = `, `self->x = `, `this->x = ` assign (the D
			    front end turns them into maps and variables), and an
			    unclosed bracket is reported at the token found */
};

static const char *const keywords[] = {
	"if", "else", "while", "unroll", "break", "continue", "return", "sizeof",
};

static const char *const type_names[] = {
	"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
	"uint64", "int", "uint", "char", "struct", "union", "enum",
};

static Expr *parse_expr(Parser *ps);
static Expr *parse_unary(Parser *ps);
static bool typedef_cast_ahead(Parser *ps, bool sizeof_ctx);
static bool parse_block(Parser *ps, StmtList *out, const char *what);

/* ---- helpers ---- */

static bool tok_is(const Token *t, const char *word)
{
	return t->kind == T_IDENT && (size_t)t->len == strlen(word) &&
	       !strncmp(t->text, word, (size_t)t->len);
}

static bool tok_in(const Token *t, const char *const *words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (tok_is(t, words[i]))
			return true;
	return false;
}

#define TOK_IN(t, arr) tok_in((t), (arr), sizeof(arr) / sizeof((arr)[0]))

static bool advance(Parser *ps)
{
	return lex_next(&ps->lx, &ps->tok);
}

/* What bpftrace's parser adds as ", expecting X" for the places where
 * sonde's own expectation is one of these; elsewhere it lists none. */
static const struct {
	const char *sonde, *bison;
} bison_expecting[] = {
	{"';' or '}'", "}"},
	{"'(' after 'if'", "("},
	{"':' in a ?: expression", ":"},
	{"'/' to end the predicate", "end predicate"},
	{"')'", ") or \",\""},
};

/* bpftrace's first line ("syntax error, unexpected ;[, expecting X]"),
 * then sonde's own expectation as a hint when bpftrace names none. */
static bool unexpected(Parser *ps, const char *expecting)
{
	char d[64];
	tok_bison_name(&ps->tok, d, sizeof(d));
	for (size_t i = 0; i < sizeof(bison_expecting) / sizeof(*bison_expecting); i++)
		if (!strcmp(expecting, bison_expecting[i].sonde))
			return error_at(ps->err, ps->tok.loc, "syntax error, unexpected %s, expecting %s",
					d, bison_expecting[i].bison);
	return error_at(ps->err, ps->tok.loc, "syntax error, unexpected %s\nhint: expecting %s", d,
			expecting);
}

/* Consumes the token if it has the given kind, else reports it. */
static bool expect(Parser *ps, TokKind kind, const char *expecting)
{
	if (ps->tok.kind != kind)
		return unexpected(ps, expecting);
	return advance(ps);
}

/* A missing closer: point at the opener when the input clearly ran on
 * past it, otherwise at the token that is in the way. */
static bool expect_close(Parser *ps, TokKind kind, Loc open, const char *pair)
{
	if (ps->tok.kind == kind)
		return advance(ps);
	TokKind k = ps->tok.kind;
	if (!ps->d_syntax && (k == T_EOF || k == T_SEMI || k == T_LBRACE || k == T_RBRACE ||
			      k == T_RPAREN || k == T_RBRACKET))
		return error_at(ps->err, open, "missing '%c' to close '%c'", pair[1], pair[0]);
	char want[8];
	snprintf(want, sizeof(want), "'%c'", pair[1]);
	return unexpected(ps, want);
}

static bool enter(Parser *ps)
{
	if (++ps->depth > MAX_DEPTH)
		return error_at(ps->err, ps->tok.loc, "nesting too deep");
	return true;
}

static void leave(Parser *ps)
{
	ps->depth--;
}

/* Arena arrays grow by doubling at powers of two, so the capacity never
 * needs storing; the abandoned copies stay in the arena until it is freed. */
static void expr_push(Parser *ps, ExprList *l, Expr *e)
{
	l->v = arena_grow(&ps->prog->arena, l->v, l->n, sizeof(*l->v));
	l->v[l->n++] = e;
}

static void stmt_push(Parser *ps, StmtList *l, Stmt *s)
{
	l->v = arena_grow(&ps->prog->arena, l->v, l->n, sizeof(*l->v));
	l->v[l->n++] = s;
}

static Expr *new_expr(Parser *ps, ExprKind kind, Loc loc)
{
	return expr_new(ps->prog, kind, loc);
}

static Stmt *new_stmt(Parser *ps, StmtKind kind, Loc loc)
{
	Stmt *s = arena_alloc(&ps->prog->arena, sizeof(*s));
	s->kind = kind;
	s->loc = loc;
	return s;
}

static char *tok_strdup(Parser *ps, int skip)
{
	return arena_strndup(&ps->prog->arena, ps->tok.text + skip,
			     (size_t)(ps->tok.len - skip));
}

/* ---- types (casts and sizeof) ---- */

/* D's C type words: a cast or sizeof starts with one (D's lexer makes
 * them keywords) */
static const char *const d_type_words[] = {
	"char", "short", "int", "long", "signed", "unsigned", "void", "const", "volatile",
	"struct", "union", "enum", "float", "double",
};

/* D: a typedef name (D's lexer knows them; here, by the C library's `_t`
 * convention) followed by ')' or '*' */
static bool d_typedef_ahead(Parser *ps)
{
	if (ps->tok.kind != T_IDENT || ps->tok.len < 3 || strncmp(ps->tok.text + ps->tok.len - 2, "_t", 2))
		return false;
	Lexer lx = ps->lx;
	Token tok = ps->tok;
	Error saved = *ps->err;
	bool type = advance(ps) && (ps->tok.kind == T_RPAREN || ps->tok.kind == T_STAR);
	ps->lx = lx;
	ps->tok = tok;
	*ps->err = saved;
	return type;
}

static bool type_ahead(Parser *ps, bool sizeof_ctx)
{
	if (ps->d_syntax && (TOK_IN(&ps->tok, d_type_words) || d_typedef_ahead(ps)))
		return true;
	return TOK_IN(&ps->tok, type_names) || typedef_cast_ahead(ps, sizeof_ctx);
}

/* D: "unsigned long long", "const char *": C's type words, qualifiers
 * dropped, or a tag and its name, or one typedef name; then the stars */
static char *parse_d_type(Parser *ps)
{
	StrBuf b = { 0 };
	bool base = false;
	while (ps->tok.kind == T_IDENT && (TOK_IN(&ps->tok, d_type_words) || !base)) {
		bool tagged = tok_is(&ps->tok, "struct") || tok_is(&ps->tok, "union") || tok_is(&ps->tok, "enum");
		bool qual = tok_is(&ps->tok, "const") || tok_is(&ps->tok, "volatile");
		if (!qual) {
			if (b.len)
				sb_putc(&b, ' ');
			sb_putn(&b, ps->tok.text, (size_t)ps->tok.len);
		}
		bool named = !qual && !TOK_IN(&ps->tok, d_type_words); /* a typedef name ends it */
		base = base || !qual;
		if (!advance(ps)) {
			sb_free(&b);
			return NULL;
		}
		if (tagged) {
			if (ps->tok.kind != T_IDENT) {
				sb_free(&b);
				return unexpected(ps, "a type name"), NULL;
			}
			sb_putc(&b, ' ');
			sb_putn(&b, ps->tok.text, (size_t)ps->tok.len);
			if (!advance(ps)) {
				sb_free(&b);
				return NULL;
			}
			break;
		}
		if (named)
			break;
	}
	for (bool first = true; ps->tok.kind == T_STAR; first = false) {
		sb_puts(&b, first ? " *" : "*");
		if (!advance(ps)) {
			sb_free(&b);
			return NULL;
		}
	}
	char *t = arena_strndup(&ps->prog->arena, b.s ? b.s : "", b.len);
	sb_free(&b);
	if (!base)
		return unexpected(ps, "a type name"), NULL;
	return t;
}

/* "uint8", "int64 *", "struct task_struct **". */
static char *parse_type(Parser *ps)
{
	if (ps->d_syntax)
		return parse_d_type(ps);
	Token base = ps->tok, tag = { 0 };
	if (!advance(ps))
		return NULL;
	bool tagged = tok_is(&base, "struct") || tok_is(&base, "union") || tok_is(&base, "enum");
	if (tagged) {
		tag = ps->tok;
		if (tag.kind != T_IDENT || TOK_IN(&tag, keywords))
			return unexpected(ps, "a type name"), NULL;
		if (!advance(ps))
			return NULL;
	}
	int stars = 0;
	while (ps->tok.kind == T_STAR) {
		stars++;
		if (!advance(ps))
			return NULL;
	}
	size_t n = (size_t)base.len + (size_t)tag.len + (size_t)stars + 3;
	char *s = arena_alloc(&ps->prog->arena, n);
	int off = snprintf(s, n, "%.*s", base.len, base.text);
	if (tagged)
		off += snprintf(s + off, n - off, " %.*s", tag.len, tag.text);
	if (stars)
		s[off++] = ' ';
	memset(s + off, '*', (size_t)stars);
	return s;
}

/* ---- expressions ---- */

/* Comma-separated expressions up to `close`; an empty list only when
 * allowed.  '/' is division again inside the brackets. */
static bool parse_list(Parser *ps, ExprList *out, TokKind close, Loc open,
		       const char *pair, const char *empty_msg)
{
	bool saved = ps->pred_slash;
	ps->pred_slash = false;
	if (ps->tok.kind == close && empty_msg)
		return unexpected(ps, empty_msg);
	while (ps->tok.kind != close) {
		Expr *e = parse_expr(ps);
		if (!e)
			return false;
		expr_push(ps, out, e);
		if (ps->tok.kind != T_COMMA)
			break;
		if (!advance(ps))
			return false;
		if (ps->tok.kind == close)
			return unexpected(ps, "an expression");
	}
	ps->pred_slash = saved;
	return expect_close(ps, close, open, pair);
}

/* KEYWORD ( TYPE | EXPR ...: the opening of sizeof and offsetof, as an
 * E_SIZEOF holding the type name or the expression; *open is the '(' */
static Expr *parse_type_or_expr_arg(Parser *ps, const char *want_paren, Loc *open)
{
	Expr *e = new_expr(ps, E_SIZEOF, ps->tok.loc);
	if (!advance(ps))
		return NULL;
	*open = ps->tok.loc;
	if (!expect(ps, T_LPAREN, want_paren))
		return NULL;
	ps->pred_slash = false;
	if (type_ahead(ps, true))
		e->name = parse_type(ps);
	else
		e->a = parse_expr(ps);
	return e;
}

static Expr *parse_sizeof(Parser *ps)
{
	Loc open;
	bool saved = ps->pred_slash;
	Expr *e = parse_type_or_expr_arg(ps, "'(' after 'sizeof'", &open);
	if (!e)
		return NULL;
	if ((!e->name && !e->a) || !expect_close(ps, T_RPAREN, open, "()"))
		return NULL;
	ps->pred_slash = saved;
	return e;
}

/* Typedef names in casts ("(task_t *)p", "(u32)x") and sizeof.  The parser
 * does not know which names are types (script typedefs are parsed in sema,
 * kernel ones live in BTF), so instead of a callback it decides by shape,
 * looking ahead without consuming: IDENT followed by one or more '*' and
 * ')' is never an expression, and "(IDENT)" directly followed by the start
 * of an operand (a name, number, variable, map, '(', '!', '~', $N) is not
 * one either -- both were syntax errors before, so no valid script changes
 * meaning.  Sema then resolves the name and says if it is not a type.
 * "(name) -x", "(name) *p" and "(name) &x" stay binary expressions, as
 * they can be without types; write "(name)(-x)" to cast those. */
static bool typedef_cast_ahead(Parser *ps, bool sizeof_ctx)
{
	if (ps->tok.kind != T_IDENT || TOK_IN(&ps->tok, keywords))
		return false;
	Lexer lx = ps->lx;
	Token tok = ps->tok;
	Error saved = *ps->err;
	int stars = 0;
	bool ok = advance(ps);
	while (ok && ps->tok.kind == T_STAR) {
		stars++;
		ok = advance(ps);
	}
	bool cast = ok && ps->tok.kind == T_RPAREN;
	if (cast && !stars) {
		TokKind k = T_EOF;
		if (!sizeof_ctx && (ok = advance(ps)))
			k = ps->tok.kind;
		cast = ok && (k == T_IDENT || k == T_INT || k == T_VAR || k == T_MAP ||
			      k == T_LPAREN || k == T_BANG || k == T_TILDE || k == T_POSPARAM) &&
		       !(k == T_IDENT && TOK_IN(&ps->tok, keywords) && !tok_is(&ps->tok, "sizeof"));
	}
	if (sizeof_ctx && !stars)
		cast = false; /* sizeof(name) stays an expression: sema looks it up */
	ps->lx = lx;
	ps->tok = tok;
	*ps->err = saved;
	return cast;
}

/* offsetof(struct x, a.b) or offsetof(expr, a.b): an E_SIZEOF whose sval
 * is the member path (sema turns it into a constant). */
static Expr *parse_offsetof(Parser *ps)
{
	Loc open;
	bool saved = ps->pred_slash;
	Expr *e = parse_type_or_expr_arg(ps, "'(' after 'offsetof'", &open);
	if (!e)
		return NULL;
	if ((!e->name && !e->a) || !expect(ps, T_COMMA, "',' and a field name in offsetof"))
		return NULL;
	StrBuf path = { 0 };
	for (;;) {
		if (ps->tok.kind != T_IDENT) {
			sb_free(&path);
			return unexpected(ps, "a field name"), NULL;
		}
		if (path.len)
			sb_putc(&path, '.');
		sb_putn(&path, ps->tok.text, (size_t)ps->tok.len);
		if (!advance(ps) || ps->tok.kind != T_DOT)
			break;
		if (!advance(ps)) {
			sb_free(&path);
			return NULL;
		}
	}
	e->sval = arena_strndup(&ps->prog->arena, path.s ? path.s : "", path.len);
	sb_free(&path);
	if (!expect_close(ps, T_RPAREN, open, "()"))
		return NULL;
	ps->pred_slash = saved;
	return e;
}

static Expr *parse_cast(Parser *ps, Loc open)
{
	Expr *e = new_expr(ps, E_CAST, open); /* bpftrace's place: the '(' */
	e->name = parse_type(ps);
	if (!e->name || !expect_close(ps, T_RPAREN, open, "()"))
		return NULL;
	e->loc.len = (int)strlen(e->name) + 2;
	if (!enter(ps))
		return NULL;
	e->a = parse_unary(ps);
	leave(ps);
	return e->a ? e : NULL;
}

/* '(' starts a cast, a tuple or a parenthesized expression. */
static Expr *parse_paren(Parser *ps)
{
	Loc open = ps->tok.loc;
	if (!advance(ps))
		return NULL;
	if (type_ahead(ps, false))
		return parse_cast(ps, open);
	bool saved = ps->pred_slash;
	ps->pred_slash = false;
	if (ps->lx.opts->records && record_ahead(ps)) {
		Expr *r = parse_record(ps, open);
		ps->pred_slash = saved;
		return r;
	}
	Expr *e = parse_expr(ps);
	if (!e)
		return NULL;
	if (ps->tok.kind == T_COMMA) {
		Expr *t = new_expr(ps, E_TUPLE, open);
		expr_push(ps, &t->args, e);
		if (!advance(ps) || !parse_list(ps, &t->args, T_RPAREN, open, "()",
						"an expression"))
			return NULL;
		ps->pred_slash = saved;
		return t;
	}
	if (!expect_close(ps, T_RPAREN, open, "()"))
		return NULL;
	ps->pred_slash = saved;
	return e;
}

/* D: xlate <TYPE>(expr), an E_CALL "xlate" with the type's text in sval
 * (the D front end turns its members into the translator's expressions) */
static Expr *parse_xlate(Parser *ps)
{
	Expr *e = new_expr(ps, E_CALL, ps->tok.loc);
	e->name = "xlate";
	if (!advance(ps))
		return NULL;
	if (ps->tok.kind != T_LT)
		return unexpected(ps, "'<'"), NULL;
	if (!advance(ps) || !(e->sval = parse_d_type(ps)))
		return NULL;
	if (ps->tok.kind != T_GT)
		return unexpected(ps, "'>'"), NULL;
	if (!advance(ps))
		return NULL;
	if (ps->tok.kind != T_LPAREN)
		return unexpected(ps, "'('"), NULL;
	Loc open = ps->tok.loc;
	if (!advance(ps) || !parse_list(ps, &e->args, T_RPAREN, open, "()", NULL))
		return NULL;
	if (e->args.n != 1)
		return error_at(ps->err, e->loc, "xlate takes one expression"), NULL;
	return e;
}

static Expr *parse_ident(Parser *ps)
{
	if (ps->d_syntax && tok_is(&ps->tok, "xlate"))
		return parse_xlate(ps);
	if (tok_is(&ps->tok, "sizeof"))
		return parse_sizeof(ps);
	if (tok_is(&ps->tok, "offsetof"))
		return parse_offsetof(ps);
	if (TOK_IN(&ps->tok, keywords))
		return unexpected(ps, "an expression"), NULL;
	Expr *e = new_expr(ps, E_BUILTIN, ps->tok.loc);
	e->name = tok_strdup(ps, 0);
	if (!advance(ps))
		return NULL;
	if (ps->tok.kind != T_LPAREN)
		return e;
	Loc open = ps->tok.loc;
	e->kind = E_CALL;
	if (!advance(ps) || !parse_list(ps, &e->args, T_RPAREN, open, "()", NULL))
		return NULL;
	return e;
}

static Expr *parse_map(Parser *ps)
{
	Expr *e = new_expr(ps, E_MAP, ps->tok.loc);
	e->name = tok_strdup(ps, 1);
	if (!advance(ps))
		return NULL;
	if (ps->tok.kind != T_LBRACKET)
		return e;
	Loc open = ps->tok.loc;
	if (!advance(ps) || !parse_list(ps, &e->args, T_RBRACKET, open, "[]", "a map key"))
		return NULL;
	return e;
}

/* Tokens that stand alone as an expression. */
static Expr *parse_atom(Parser *ps)
{
	Token t = ps->tok;
	Expr *e = NULL;
	switch (t.kind) {
	case T_INT:
		e = new_expr(ps, E_INT, t.loc);
		e->ival = t.ival;
		e->lit = t.lit;
		break;
	case T_STR:
		e = new_expr(ps, E_STR, t.loc);
		e->sval = t.sval;
		e->slen = t.slen;
		break;
	case T_POSPARAM:
		e = new_expr(ps, E_POSPARAM, t.loc);
		e->ival = t.ival;
		break;
	case T_POSCOUNT:
		e = new_expr(ps, E_POSCOUNT, t.loc);
		break;
	case T_VAR:
		e = new_expr(ps, E_VAR, t.loc);
		e->name = tok_strdup(ps, 1);
		break;
	default:
		return unexpected(ps, "an expression"), NULL;
	}
	return advance(ps) ? e : NULL;
}

static Expr *parse_primary(Parser *ps)
{
	switch (ps->tok.kind) {
	case T_IDENT:
		return parse_ident(ps);
	case T_MAP:
		return parse_map(ps);
	case T_LPAREN:
		return parse_paren(ps);
	default:
		return parse_atom(ps);
	}
}

/* .name, .0, ->name */
static Expr *parse_field(Parser *ps, Expr *base)
{
	bool arrow = ps->tok.kind == T_ARROW;
	if (!advance(ps))
		return NULL;
	Token t = ps->tok;
	bool index = !arrow && t.kind == T_INT && strspn(t.text, "0123456789") == (size_t)t.len;
	if (t.kind != T_IDENT && !index)
		return unexpected(ps, arrow ? "a field name after '->'"
					    : "a field name or tuple index after '.'"), NULL;
	Expr *e = new_expr(ps, E_FIELD, t.loc);
	e->arrow = arrow;
	e->a = base;
	e->name = tok_strdup(ps, 0);
	return advance(ps) ? e : NULL;
}

static Expr *parse_postfix(Parser *ps)
{
	Expr *e = parse_primary(ps);
	while (e) {
		TokKind k = ps->tok.kind;
		if (k == T_DOT && lex_peek(&ps->lx, 0) == '.')
			break; /* a range's `..` (parse_loop.c) */
		if (k == T_DOT || k == T_ARROW) {
			e = parse_field(ps, e);
		} else if (k == T_LBRACKET) {
			Expr *ix = new_expr(ps, E_INDEX, ps->tok.loc);
			ExprList l = { 0 };
			ix->a = e;
			if (!advance(ps) ||
			    !parse_list(ps, &l, T_RBRACKET, ix->loc, "[]", "an index"))
				return NULL;
			if (l.n != 1 && !ps->d_syntax) /* D: x[a, b], an array keyed by a tuple */
				return error_at(ps->err, ix->loc, "an index takes one expression"),
				       NULL;
			ix->b = l.v[0];
			if (l.n > 1)
				ix->args = l;
			e = ix;
		} else if (k == T_INC || k == T_DEC) {
			Expr *id = new_expr(ps, E_INCDEC, ps->tok.loc);
			id->op = k == T_INC ? OP_ADD : OP_SUB;
			id->post = true;
			id->a = e;
			e = advance(ps) ? id : NULL;
		} else {
			break;
		}
	}
	return e;
}

static Op prefix_op(TokKind k)
{
	switch (k) {
	case T_MINUS: return OP_NEG;
	case T_BANG: return OP_LNOT;
	case T_TILDE: return OP_BNOT;
	case T_STAR: return OP_DEREF;
	case T_AMP: return OP_ADDR;
	case T_INC: return OP_ADD;
	case T_DEC: return OP_SUB;
	default: return OP_NONE;
	}
}

static Expr *parse_unary(Parser *ps)
{
	TokKind k = ps->tok.kind;
	Op op = prefix_op(k);
	if (op == OP_NONE)
		return parse_postfix(ps);
	Expr *e = new_expr(ps, k == T_INC || k == T_DEC ? E_INCDEC : E_UNOP, ps->tok.loc);
	e->op = op;
	if (!enter(ps) || !advance(ps))
		return NULL;
	e->a = parse_unary(ps);
	leave(ps);
	return e->a ? e : NULL;
}

/* Binding strength of a binary operator token (0: not one). */
static int binop_prec(const Parser *ps, Op *op)
{
	static const struct { TokKind k; Op op; int prec; } tab[] = {
		{ T_OROR, OP_LOR, 1 },   { T_XORXOR, OP_NONE, 2 },
		{ T_ANDAND, OP_LAND, 3 },
		{ T_PIPE, OP_BOR, 4 },   { T_CARET, OP_BXOR, 5 },
		{ T_AMP, OP_BAND, 6 },   { T_EQ, OP_EQ, 7 },
		{ T_NE, OP_NE, 7 },      { T_LT, OP_LT, 8 },
		{ T_LE, OP_LE, 8 },      { T_GT, OP_GT, 8 },
		{ T_GE, OP_GE, 8 },      { T_SHL, OP_SHL, 9 },
		{ T_SHR, OP_SHR, 9 },    { T_PLUS, OP_ADD, 10 },
		{ T_MINUS, OP_SUB, 10 }, { T_STAR, OP_MUL, 11 },
		{ T_SLASH, OP_DIV, 11 }, { T_PERCENT, OP_MOD, 11 },
	};
	if (ps->tok.kind == T_SLASH && ps->pred_slash)
		return 0;
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if (tab[i].k == ps->tok.kind) {
			*op = tab[i].op;
			return tab[i].prec;
		}
	}
	return 0;
}

static void xor_as_ne(Parser *ps, Expr *e)
{
	Expr *na = new_expr(ps, E_UNOP, e->a->loc), *nb = new_expr(ps, E_UNOP, e->b->loc);
	na->op = nb->op = OP_LNOT;
	na->a = e->a;
	nb->a = e->b;
	e->op = OP_NE;
	e->a = na;
	e->b = nb;
}

/* Precedence climbing; recursion is bounded by the number of levels. */
static Expr *parse_binary(Parser *ps, int min_prec)
{
	Expr *lhs = parse_unary(ps);
	while (lhs) {
		Op op = OP_NONE;
		int prec = binop_prec(ps, &op);
		if (prec < min_prec || prec == 0)
			break;
		bool lxor = ps->tok.kind == T_XORXOR;
		Expr *e = new_expr(ps, E_BINOP, ps->tok.loc);
		e->op = op;
		e->a = lhs;
		if (!advance(ps) || !(e->b = parse_binary(ps, prec + 1)))
			return NULL;
		if (lxor) /* a ^^ b is (!a) != (!b): both sides evaluated */
			xor_as_ne(ps, e);
		lhs = e;
	}
	return lhs;
}

static Expr *parse_ternary(Parser *ps)
{
	Expr *cond = parse_binary(ps, 1);
	if (!cond || ps->tok.kind != T_QUESTION)
		return cond;
	Expr *e = new_expr(ps, E_TERNARY, ps->tok.loc);
	e->a = cond;
	if (!advance(ps) || !(e->b = parse_expr(ps)))
		return NULL;
	if (!expect(ps, T_COLON, "':' in a ?: expression"))
		return NULL;
	e->c = parse_expr(ps);
	return e->c ? e : NULL;
}

static Expr *parse_expr(Parser *ps)
{
	if (!enter(ps))
		return NULL;
	Expr *e = parse_ternary(ps);
	leave(ps);
	return e;
}

/* ---- statements ---- */

/* "(expr)" after if/while/unroll. */
static Expr *parse_cond(Parser *ps, const char *kw)
{
	char want[48];
	snprintf(want, sizeof(want), "'(' after '%s'", kw);
	Loc open = ps->tok.loc;
	if (!expect(ps, T_LPAREN, want))
		return NULL;
	Expr *e = parse_expr(ps);
	if (!e || !expect_close(ps, T_RPAREN, open, "()"))
		return NULL;
	return e;
}

static Stmt *parse_if(Parser *ps)
{
	Stmt *s = new_stmt(ps, S_IF, ps->tok.loc);
	if (!enter(ps) || !advance(ps) || !(s->expr = parse_cond(ps, "if")) ||
	    !parse_block(ps, &s->body, "if"))
		return NULL;
	if (tok_is(&ps->tok, "else")) {
		if (!advance(ps))
			return NULL;
		if (tok_is(&ps->tok, "if")) {
			Stmt *elif = parse_if(ps);
			if (!elif)
				return NULL;
			stmt_push(ps, &s->els, elif);
		} else if (!parse_block(ps, &s->els, "else")) {
			return NULL;
		}
	}
	leave(ps);
	return s;
}

static Stmt *parse_loop(Parser *ps, StmtKind kind, const char *kw)
{
	Stmt *s = new_stmt(ps, kind, ps->tok.loc);
	if (!advance(ps) || !(s->expr = parse_cond(ps, kw)) || !parse_block(ps, &s->body, kw))
		return NULL;
	return s;
}

static Stmt *parse_simple(Parser *ps, StmtKind kind)
{
	Stmt *s = new_stmt(ps, kind, ps->tok.loc);
	if (!advance(ps))
		return NULL;
	if (kind == S_RETURN && ps->tok.kind != T_SEMI && ps->tok.kind != T_RBRACE &&
	    !(s->expr = parse_expr(ps)))
		return NULL;
	return s;
}

/* An expression statement or an assignment to a map or variable. */
static Stmt *parse_expr_stmt(Parser *ps)
{
	Stmt *s = new_stmt(ps, S_EXPR, ps->tok.loc);
	Expr *e = parse_expr(ps);
	if (!e)
		return NULL;
	if (ps->tok.kind != T_ASSIGN) {
		s->expr = e;
		return s;
	}
	bool d_target = ps->d_syntax && (e->kind == E_BUILTIN || e->kind == E_FIELD ||
					  e->kind == E_INDEX || (e->kind == E_UNOP && e->op == OP_DEREF));
	if (e->kind != E_MAP && e->kind != E_VAR && !d_target)
		return error_at(ps->err, ps->tok.loc,
				"can only assign to a map or a variable"), NULL;
	s->kind = S_ASSIGN;
	s->op = ps->tok.op;
	s->op_loc = ps->tok.loc;
	s->target = e;
	if (!advance(ps) || !(s->expr = parse_expr(ps)))
		return NULL;
	return s;
}

static Stmt *parse_stmt(Parser *ps)
{
	const Token *t = &ps->tok;
	if (t->kind == T_LBRACE) {
		Stmt *s = new_stmt(ps, S_BLOCK, t->loc);
		return parse_block(ps, &s->body, "block") ? s : NULL;
	}
	if (tok_is(t, "if"))
		return parse_if(ps);
	if (tok_is(t, "while"))
		return parse_loop(ps, S_WHILE, "while");
	if (tok_is(t, "unroll"))
		return parse_loop(ps, S_UNROLL, "unroll");
	if (tok_is(t, "break"))
		return parse_simple(ps, S_BREAK);
	if (tok_is(t, "continue"))
		return parse_simple(ps, S_CONTINUE);
	if (tok_is(t, "return"))
		return parse_simple(ps, S_RETURN);
	if (tok_is(t, "for") && ps->lx.opts->for_loops)
		return parse_for(ps);
	return parse_expr_stmt(ps);
}

static bool is_compound(const Stmt *s)
{
	return s->kind == S_IF || s->kind == S_WHILE || s->kind == S_UNROLL ||
	       s->kind == S_BLOCK || s->kind == S_FOR;
}

/* Statements after a '{' (at `open`) up to, not past, the matching '}'. */
static bool parse_stmts(Parser *ps, StmtList *out, Loc open)
{
	for (;;) {
		if (ps->tok.kind == T_SEMI) {
			if (!advance(ps))
				return false;
			continue;
		}
		if (ps->tok.kind == T_RBRACE)
			return true;
		if (ps->tok.kind == T_EOF)
			return error_at(ps->err, open, "missing '}' to close '{'");
		Stmt *s = parse_stmt(ps);
		if (!s)
			return false;
		stmt_push(ps, out, s);
		if (is_compound(s) || ps->tok.kind == T_SEMI || ps->tok.kind == T_RBRACE)
			continue;
		if (ps->tok.kind == T_EOF)
			return error_at(ps->err, open, "missing '}' to close '{'");
		return unexpected(ps, "';' or '}'");
	}
}

static bool parse_block(Parser *ps, StmtList *out, const char *what)
{
	if (ps->tok.kind != T_LBRACE)
		return error_at(ps->err, ps->tok.loc, "expected '{' to start the %s body", what);
	Loc open = ps->tok.loc;
	if (!enter(ps) || !advance(ps) || !parse_stmts(ps, out, open) || !advance(ps))
		return false;
	leave(ps);
	return true;
}

/* ---- probes ---- */

/* ParseOpts.lowercase_begin_end: a provider's name in any case is the
 * provider (`Tracepoint:` is `tracepoint:`), and `begin`/`end` in any case
 * are the special probes BEGIN and END */
static void fold_provider(char *ap)
{
	if (!strcasecmp(ap, "begin") || !strcasecmp(ap, "end")) {
		for (char *c = ap; *c; c++)
			*c = (char)toupper((unsigned char)*c);
		return;
	}
	char *colon = strchr(ap, ':');
	for (char *c = ap; colon && c < colon; c++)
		*c = (char)tolower((unsigned char)*c);
}

static bool parse_attach_points(Parser *ps, Probe *pr)
{
	Lexer *lx = &ps->lx;
	for (;;) {
		Token t;
		if (!lex_attach_point(lx, &t))
			return false;
		if (lx->opts->lowercase_begin_end)
			fold_provider(t.sval);
		pr->aps = arena_grow(&ps->prog->arena, pr->aps, pr->naps, sizeof(*pr->aps));
		pr->aps[pr->naps++] = (AttachPoint){ t.sval, t.loc };
		if (!lex_skip_space(lx))
			return false;
		if (lex_peek(lx, 0) != ',')
			return true;
		lex_advance(lx, 1);
		if (!lex_skip_space(lx))
			return false;
	}
}

/* The lexer is at the opening '/'; leaves the token after the closing one. */
static bool parse_predicate(Parser *ps, Probe *pr)
{
	Loc open = lex_loc(&ps->lx, 1);
	lex_advance(&ps->lx, 1);
	if (!advance(ps))
		return false;
	if (ps->tok.kind == T_SLASH)
		return error_at(ps->err, open, "empty predicate");
	ps->pred_slash = true;
	pr->pred = parse_expr(ps);
	ps->pred_slash = false;
	if (!pr->pred)
		return false;
	return expect(ps, T_SLASH, "'/' to end the predicate");
}

/* The body's closing '}' is left unconsumed-by-lookahead: the next probe
 * header must be scanned in attach-point mode, not as a token. */
static bool parse_probe(Parser *ps)
{
	Probe *pr = arena_alloc(&ps->prog->arena, sizeof(*pr));
	if (!parse_attach_points(ps, pr))
		return false;
	pr->loc = pr->aps[0].loc;
	if (lex_peek(&ps->lx, 0) == '/') {
		if (!parse_predicate(ps, pr))
			return false;
	} else if (!advance(ps)) {
		return false;
	}
	if (ps->tok.kind != T_LBRACE)
		return error_at(ps->err, ps->tok.loc, "expected '{' to start the probe body");
	Loc open = ps->tok.loc;
	if (!advance(ps) || !parse_stmts(ps, &pr->body, open))
		return false;
	program_add_probe(ps->prog, pr);
	return true;
}

static bool parse_top(Parser *ps, StrBuf *cdefs)
{
	Lexer *lx = &ps->lx;
	for (;;) {
		if (!lex_skip_space(lx))
			return false;
		if (!lex_peek(lx, 0))
			break;
		if (lex_at_c_def(lx)) {
			if (ps->prog->nprobes)
				return error_at(ps->err, lex_loc(lx, 1),
						"C definitions must come before the first probe");
			if (!cdefs->len)
				ps->prog->c_defs_loc = lex_loc(lx, 1);
			if (!lex_c_def(lx, cdefs))
				return false;
			continue;
		}
		if (!parse_probe(ps))
			return false;
	}
	if (!ps->prog->nprobes)
		return error_at(ps->err, lex_loc(lx, 1),
				"expected an attach point (e.g. tracepoint:sched:sched_switch)");
	return true;
}

/* D clauses (src/dtrace): after the probe descriptions, an optional
 * /predicate/ and an optional { body } (D allows either to be left out). */
bool parse_d_clause(Lexer *lx, Program *prog, Probe *pr, Error *err)
{
	Parser ps = { .lx = *lx, .prog = prog, .err = err, .d_syntax = true };
	bool ok = true;
	if (lex_peek(&ps.lx, 0) == '/') {
		ok = parse_predicate(&ps, pr);
	} else if (lex_peek(&ps.lx, 0) == '{') {
		ok = advance(&ps);
	} else {
		*lx = ps.lx;
		return true;
	}
	if (ok && ps.tok.kind == T_LBRACE) {
		Loc open = ps.tok.loc;
		/* on success the lexer stands right after the closing '}' */
		ok = advance(&ps) && parse_stmts(&ps, &pr->body, open);
	} else if (ok) { /* a predicate without a body: back to the token's start */
		ps.lx.pos = (size_t)(ps.tok.text - ps.lx.text);
		ps.lx.line = ps.tok.loc.line;
		ps.lx.col = ps.tok.loc.col;
	}
	*lx = ps.lx;
	return ok;
}

/* D's `inline TYPE NAME = EXPR;` (the lexer at `inline`); leaves the lexer
 * after the ';' */
bool parse_d_inline(Lexer *lx, Program *prog, DInlineDecl *out, Error *err)
{
	Parser ps = { .lx = *lx, .prog = prog, .err = err, .d_syntax = true };
	out->loc = lex_loc(lx, 6);
	if (!advance(&ps) || !advance(&ps)) /* past `inline`, at the type */
		return false;
	if (!TOK_IN(&ps.tok, d_type_words) && ps.tok.kind != T_IDENT)
		return unexpected(&ps, "a type name");
	if (tok_is(&ps.tok, "string")) {
		out->type = "string";
		if (!advance(&ps))
			return false;
	} else if (!(out->type = parse_d_type(&ps))) {
		return false;
	}
	if (ps.tok.kind != T_IDENT)
		return unexpected(&ps, "a name");
	out->name = tok_strdup(&ps, 0);
	out->name_loc = ps.tok.loc;
	if (!advance(&ps))
		return false;
	if (ps.tok.kind != T_ASSIGN || ps.tok.op != OP_NONE)
		return unexpected(&ps, "'='");
	if (!advance(&ps) || !(out->expr = parse_expr(&ps)))
		return false;
	if (ps.tok.kind != T_SEMI)
		return unexpected(&ps, "';'");
	/* the lexer stands right after the ';' */
	*lx = ps.lx;
	return true;
}

/* a D declaration's type: C's words, or `string` */
static char *parse_d_decl_type(Parser *ps)
{
	if (!tok_is(&ps->tok, "string"))
		return parse_d_type(ps);
	char *t = "string";
	return advance(ps) ? t : NULL;
}

/* is the token after the current one an integer constant? */
static bool peek_int(const Parser *ps)
{
	Lexer lx = ps->lx;
	Token t;
	return lex_next(&lx, &t) && t.kind == T_INT;
}

/* one declarator: NAME, NAME[KEY TYPES] (an associative array) or NAME[N]
 * (a scalar array: a read copies it whole, hence the bound) */
#define D_ARRAY_MAX 4096
static bool parse_d_declarator(Parser *ps, const char *scope, const char *type)
{
	if (ps->tok.kind != T_IDENT || TOK_IN(&ps->tok, d_type_words))
		return unexpected(ps, "a name");
	Program *p = ps->prog;
	DVarDecl d = { .type = type, .loc = ps->tok.loc };
	char buf[256];
	snprintf(buf, sizeof(buf), "%s%.*s", scope, ps->tok.len, ps->tok.text);
	d.name = arena_strdup(&p->arena, buf);
	if (!advance(ps))
		return false;
	if (ps->tok.kind == T_LBRACKET && peek_int(ps)) { /* a scalar array: `int x[5];` */
		if (!advance(ps))
			return false;
		if (!ps->tok.ival || ps->tok.ival > D_ARRAY_MAX)
			return error_at(ps->err, ps->tok.loc, "array dimension %llu is out of range "
					"(1 to %d)", (unsigned long long)ps->tok.ival, D_ARRAY_MAX);
		d.count = (int)ps->tok.ival;
		if (!advance(ps))
			return false;
		if (ps->tok.kind != T_RBRACKET)
			return unexpected(ps, "']'");
		if (!advance(ps))
			return false;
	} else if (ps->tok.kind == T_LBRACKET) { /* the key types are what the keys' uses give */
		d.assoc = true;
		do {
			if (!advance(ps) || !parse_d_decl_type(ps))
				return false;
		} while (ps->tok.kind == T_COMMA);
		if (ps->tok.kind != T_RBRACKET)
			return unexpected(ps, "']'");
		if (!advance(ps))
			return false;
	}
	for (int i = 0; i < p->nd_vars; i++)
		if (!strcmp(p->d_vars[i].name, d.name) && strcmp(p->d_vars[i].type, d.type))
			return error_at(ps->err, d.loc, "identifier redeclared: %s", buf + strlen(scope));
	p->d_vars = arena_grow(&p->arena, p->d_vars, p->nd_vars, sizeof(*p->d_vars));
	p->d_vars[p->nd_vars++] = d;
	return true;
}

bool parse_d_decl(Lexer *lx, Program *prog, Error *err)
{
	Parser ps = { .lx = *lx, .prog = prog, .err = err, .d_syntax = true };
	if (!advance(&ps))
		return false;
	const char *scope = "`";
	if (tok_is(&ps.tok, "self") || tok_is(&ps.tok, "this")) {
		scope = tok_is(&ps.tok, "self") ? "self->" : "this->";
		if (!advance(&ps))
			return false;
	}
	/* `self x;`, `this x, y;`: a name and no type declares an int (DTrace) */
	const char *after = ps.lx.text + ps.lx.pos;
	while (*after == ' ' || *after == '\t')
		after++;
	bool untyped = *scope != '`' && ps.tok.kind == T_IDENT && !TOK_IN(&ps.tok, d_type_words) &&
		       !tok_is(&ps.tok, "string") && (*after == ';' || *after == ',');
	char *type = untyped ? "int" : parse_d_decl_type(&ps);
	if (!type)
		return false;
	for (;;) {
		if (!parse_d_declarator(&ps, scope, type))
			return false;
		if (ps.tok.kind != T_COMMA)
			break;
		if (!advance(&ps))
			return false;
	}
	if (ps.tok.kind != T_SEMI)
		return unexpected(&ps, "';'");
	*lx = ps.lx; /* right after the ';' */
	return true;
}

Program *parse_program_with(const Source *src, Error *err, ParseTopFn top, void *arg)
{
	Program *p = xcalloc(1, sizeof(*p));
	p->src = *src;
	Lexer lx;
	lexer_init(&lx, src->text, &p->arena, err);
	StrBuf cdefs = { 0 };
	bool ok = top(&lx, p, &cdefs, err, arg);
	if (ok && cdefs.len)
		p->c_defs = arena_strndup(&p->arena, cdefs.s, cdefs.len);
	sb_free(&cdefs);
	if (!ok) {
		program_free(p);
		return NULL;
	}
	return p;
}

/* arg: the language's rules (ParseOpts) */
static bool bpftrace_top(Lexer *lx, Program *p, StrBuf *cdefs, Error *err, void *arg)
{
	Parser ps = { .lx = *lx, .prog = p, .err = err };
	ps.lx.opts = arg;
	return parse_top(&ps, cdefs);
}

Program *parse_program_opts(const Source *src, const ParseOpts *opts, Error *err)
{
	return parse_program_with(src, err, bpftrace_top, (void *)(opts ? opts : &parse_opts_017));
}

Program *parse_program(const Source *src, Error *err)
{
	return parse_program_opts(src, NULL, err);
}

/* ---- for the parser's other files (parser_int.h) ---- */

const Token *ps_tok(const Parser *ps) { return &ps->tok; }
Lexer *ps_lexer(Parser *ps) { return &ps->lx; }
Program *ps_prog(Parser *ps) { return ps->prog; }
Error *ps_err(Parser *ps) { return ps->err; }
bool ps_is(const Parser *ps, const char *word) { return tok_is(&ps->tok, word); }
bool ps_advance(Parser *ps) { return advance(ps); }
bool ps_expect(Parser *ps, TokKind kind, const char *expecting) { return expect(ps, kind, expecting); }
bool ps_unexpected(Parser *ps, const char *expecting) { return unexpected(ps, expecting); }
Expr *ps_expr(Parser *ps) { return parse_expr(ps); }
Expr *ps_unary(Parser *ps) { return parse_unary(ps); }
bool ps_block(Parser *ps, StmtList *out, const char *what) { return parse_block(ps, out, what); }
Stmt *ps_stmt_new(Parser *ps, StmtKind kind, Loc loc) { return new_stmt(ps, kind, loc); }

bool ps_expect_close(Parser *ps, TokKind kind, Loc open, const char *pair)
{
	return expect_close(ps, kind, open, pair);
}
