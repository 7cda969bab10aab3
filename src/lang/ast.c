#include "ast.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

const char *op_str(Op op)
{
	switch (op) {
	case OP_NONE: return "";
	case OP_ADD: return "+";
	case OP_SUB: return "-";
	case OP_MUL: return "*";
	case OP_DIV: return "/";
	case OP_MOD: return "%";
	case OP_BAND: return "&";
	case OP_BOR: return "|";
	case OP_BXOR: return "^";
	case OP_SHL: return "<<";
	case OP_SHR: return ">>";
	case OP_EQ: return "==";
	case OP_NE: return "!=";
	case OP_LT: return "<";
	case OP_LE: return "<=";
	case OP_GT: return ">";
	case OP_GE: return ">=";
	case OP_LAND: return "&&";
	case OP_LOR: return "||";
	case OP_NEG: return "-";
	case OP_LNOT: return "!";
	case OP_BNOT: return "~";
	case OP_DEREF: return "*";
	case OP_ADDR: return "&";
	}
	return "?";
}

void program_add_probe(Program *p, Probe *pr)
{
	p->probes = arena_grow(&p->arena, p->probes, p->nprobes, sizeof(*p->probes));
	p->probes[p->nprobes++] = pr;
}

Expr *expr_new(Program *p, ExprKind k, Loc loc)
{
	Expr *e = arena_alloc(&p->arena, sizeof(*e));
	e->kind = k;
	e->loc = loc;
	return e;
}

SourceFiles *program_files(Program *p)
{
	if (!p->src.files)
		p->src.files = &p->own_files;
	return p->src.files;
}

void program_free(Program *p)
{
	if (!p)
		return;
	source_files_free(&p->own_files);
	arena_free(&p->arena);
	free(p);
}

/* ---- dump ---- */

/* Escapes so that every node stays on one line whatever bytes it holds. */
static void put_escaped(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		case '\\': fputs("\\\\", out); break;
		case '"': fputs("\\\"", out); break;
		default:
			if (c < 0x20 || c >= 0x7f)
				fprintf(out, "\\x%02x", c);
			else
				fputc(c, out);
		}
	}
}

static void indent(FILE *out, int depth)
{
	for (int i = 0; i < depth; i++)
		fputc(' ', out);
}

static void dump_expr(FILE *out, const Expr *e, int depth);

static void dump_list(FILE *out, const ExprList *l, int depth)
{
	for (int i = 0; i < l->n; i++)
		dump_expr(out, l->v[i], depth);
}

/* The node's own line, without children. */
static void expr_label(FILE *out, const Expr *e)
{
	switch (e->kind) {
	case E_INT: fprintf(out, "int: %" PRIu64, e->ival); break;
	case E_STR:
		fputs("string: ", out);
		put_escaped(out, e->sval, e->slen);
		break;
	case E_BUILTIN: fprintf(out, "builtin: %s", e->name); break;
	case E_POSPARAM: fprintf(out, "param: $%" PRIu64, e->ival); break;
	case E_POSCOUNT: fputs("param: $#", out); break;
	case E_VAR: fprintf(out, "variable: $%s", e->name); break;
	case E_MAP: fprintf(out, "map: @%s", e->name); break;
	case E_CALL: fprintf(out, "call: %s", e->name); break;
	case E_BINOP: fputs(op_str(e->op), out); break;
	case E_UNOP: fprintf(out, "unop: %s", op_str(e->op)); break;
	case E_TERNARY: fputs("?:", out); break;
	case E_FIELD: fprintf(out, "field: %s%s", e->arrow ? "->" : ".", e->name); break;
	case E_INDEX: fputs("[]", out); break;
	case E_CAST: fprintf(out, "cast: %s", e->name ? e->name : "typeof"); break;
	case E_TUPLE: fputs("tuple", out); break;
	case E_INCDEC:
		fprintf(out, "%s (%s)", e->op == OP_ADD ? "++" : "--", e->post ? "post" : "pre");
		break;
	case E_RANGE: fputs("range", out); break;
	case E_BLOCK: fputs("block", out); break;
	case E_SIZEOF:
		fputs("sizeof", out);
		if (e->name)
			fprintf(out, ": %s", e->name);
		break;
	}
}

static void dump_stmts(FILE *out, const StmtList *l, int depth);

static void dump_expr(FILE *out, const Expr *e, int depth)
{
	if (!e)
		return;
	indent(out, depth);
	expr_label(out, e);
	fputc('\n', out);
	dump_stmts(out, &e->block, depth + 1);
	dump_expr(out, e->a, depth + 1);
	dump_expr(out, e->b, depth + 1);
	dump_expr(out, e->c, depth + 1);
	dump_list(out, &e->args, depth + 1);
}

static void dump_labeled(FILE *out, const char *label, const StmtList *l, int depth)
{
	indent(out, depth);
	fprintf(out, "%s\n", label);
	dump_stmts(out, l, depth + 1);
}

static void dump_stmt(FILE *out, const Stmt *s, int depth)
{
	static const char *const names[] = {
		[S_IF] = "if", [S_UNROLL] = "unroll", [S_WHILE] = "while",
		[S_BREAK] = "break", [S_CONTINUE] = "continue",
		[S_RETURN] = "return", [S_BLOCK] = "block", [S_FOR] = "for",
	};
	if (s->kind == S_EXPR) {
		dump_expr(out, s->expr, depth);
		return;
	}
	indent(out, depth);
	if (s->kind == S_ASSIGN) {
		fprintf(out, "%s=\n", op_str(s->op));
		dump_expr(out, s->target, depth + 1);
		dump_expr(out, s->expr, depth + 1);
		return;
	}
	fprintf(out, "%s\n", names[s->kind]);
	dump_expr(out, s->target, depth + 1);
	dump_expr(out, s->expr, depth + 1);
	if (s->kind == S_BLOCK)
		dump_stmts(out, &s->body, depth + 1);
	else if (s->kind == S_IF || s->kind == S_WHILE || s->kind == S_UNROLL || s->kind == S_FOR)
		dump_labeled(out, s->kind == S_IF ? "then" : "body", &s->body, depth + 1);
	if (s->kind == S_IF && s->els.n)
		dump_labeled(out, "else", &s->els, depth + 1);
}

static void dump_stmts(FILE *out, const StmtList *l, int depth)
{
	for (int i = 0; i < l->n; i++)
		dump_stmt(out, l->v[i], depth);
}

void ast_dump(FILE *out, const Program *p)
{
	fputs("Program\n", out);
	if (p->c_defs) {
		fputs(" c_defs: ", out);
		put_escaped(out, p->c_defs, strlen(p->c_defs));
		fputc('\n', out);
	}
	for (int i = 0; i < p->nprobes; i++) {
		const Probe *pr = p->probes[i];
		for (int j = 0; j < pr->naps; j++) {
			fputc(' ', out);
			put_escaped(out, pr->aps[j].text, strlen(pr->aps[j].text));
			fputc('\n', out);
		}
		if (pr->pred) {
			fputs("  pred\n", out);
			dump_expr(out, pr->pred, 3);
		}
		dump_stmts(out, &pr->body, 2);
	}
}
