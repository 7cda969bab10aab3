/* bpftrace 0.26's checks of a script's own assumptions: assert(cond, msg)
 * while tracing (its stdlib macro: `errorf("assert failed: %s", msg);
 * exit(1);` when cond is false), static_assert(cond, msg) and fail(fmt,
 * args...) while compiling.  A branch that a constant condition never runs
 * does not fail (Sema.dead: `if ($1 < 2) { fail(...) }`).  Each one's type
 * rule and code. */
#include <stdio.h>
#include <string.h>

#include "../compile/codegen.h"
#include "../compile/sema_hooks.h"
#include "../compile/sema_int.h"
#include "../lang/diag.h"

#define ASSERT_FORMAT "assert failed: %s"

static Expr *new_call(Sema *s, const char *name, Loc loc, int nargs)
{
	Expr *c = expr_new(s->sc->ast, E_CALL, loc);
	c->name = (char *)name;
	c->args.v = arena_alloc(&s->sc->ast->arena, sizeof(Expr *) * (size_t)nargs);
	c->args.n = nargs;
	return c;
}

/* assert's failure, made once: a = errorf(ASSERT_FORMAT, msg), b = exit(1) */
static void assert_failure(Sema *s, Expr *c)
{
	Expr *fmt = expr_new(s->sc->ast, E_STR, c->loc);
	fmt->sval = ASSERT_FORMAT;
	fmt->slen = strlen(ASSERT_FORMAT);
	c->a = new_call(s, "errorf", c->loc, 2);
	c->a->args.v[0] = fmt;
	c->a->args.v[1] = c->args.v[1];
	Expr *code = expr_new(s->sc->ast, E_INT, c->loc);
	code->ival = 1;
	c->b = new_call(s, "exit", c->loc, 1);
	c->b->args.v[0] = code;
}

static bool check_assert(Sema *s, Expr *c)
{
	if (!sema_need_cond(s, c->args.v[0], COND_IF, "assert()'s condition"))
		return false;
	if (!sema_arg_kind(s, c, 1, TY_STR))
		return false;
	if (!c->a)
		assert_failure(s, c);
	return sema_call(s, c->a, CALL_STMT) && sema_call(s, c->b, CALL_STMT);
}

static void gen_assert(Gen *g, const Expr *e)
{
	int holds = label_new(g);
	gen_int(g, e->args.v[0]);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, holds);
	gen_call_stmt(g, e->a);
	gen_call_stmt(g, e->b);
	label_place(g, holds);
}

/* static_assert(cond, msg): cond known while compiling; msg, when it is
 * false, as the error at the call */
static bool check_static_assert(Sema *s, Expr *c)
{
	Expr *cond = c->args.v[0];
	if (!sema_expr(s, cond) || !sema_arg_literal_str(s, c, 1))
		return false;
	int64_t v = 0;
	if (!sema_const_int(s, cond, &v))
		return sema_error(s, cond->loc, "static_assert() needs a condition known at compile "
				  "time (literals, positional parameters and operators on them)");
	if (v || s->dead)
		return true;
	return sema_error(s, loc_call_span(&s->sc->ast->src, c->loc), "%s", c->args.v[1]->sval);
}

/* one conversion of fail()'s format with its literal argument (a
 * string's %d is refused by the format's own check) */
static bool fail_piece(Sema *s, StrBuf *sb, const FmtPiece *p, const Expr *a)
{
	int64_t v = 0;
	if (p->conv == FC_STR && a->kind == E_STR)
		sb_printf(sb, p->text, a->sval);
	else if (p->conv == FC_INT && sema_const_int(s, a, &v))
		sb_printf(sb, p->text, p->arg64 ? (long long)v : (long long)(int)v);
	else if (sema_const_int(s, a, &v))
		sb_printf(sb, "%lld", (long long)v);
	else
		return sema_error(s, a->loc, "fail() arguments need to be literals");
	return true;
}

/* fail()'s arguments are literals (or known while compiling), the first
 * a string: bpftrace 0.26's words for each, at the call */
static bool fail_literals(Sema *s, Expr *c)
{
	int64_t v;
	Loc at = loc_call_span(&s->sc->ast->src, c->loc);
	for (int i = 0; i < c->args.n; i++) {
		const Expr *a = c->args.v[i];
		if (a->kind != E_STR && !sema_const_int(s, a, &v))
			return sema_error(s, at, "fail() arguments need to be literals");
	}
	if (c->args.v[0]->kind != E_STR)
		return sema_error(s, at, "first argument to fail() must be a string literal");
	return true;
}

/* fail(fmt, args...): the formatted text as a compile error at the call,
 * unless the call is in a branch that never runs */
static bool check_fail(Sema *s, Expr *c)
{
	if (!fail_literals(s, c) || !sema_check_format(s, c, 1))
		return false;
	const Fmt *fmt = c->args.v[0]->auxp;
	StrBuf sb = {0};
	int ai = 1;
	bool ok = true;
	for (int i = 0; ok && i < fmt->npieces; i++) {
		const FmtPiece *p = &fmt->pieces[i];
		if (p->conv == FC_LITERAL) {
			sb_puts(&sb, p->text);
			continue;
		}
		ok = fail_piece(s, &sb, p, c->args.v[ai]);
		ai++;
	}
	if (ok && !s->dead)
		ok = sema_error(s, loc_call_span(&s->sc->ast->src, c->loc), "%s", sb.s ? sb.s : "");
	sb_free(&sb);
	return ok;
}

static const FuncDef assert_funcs[] = {
	{"assert", FK_STMT, 2, 2, check_assert, .gen_stmt = gen_assert, .sets = FSET_BT_STDLIB},
	{"static_assert", FK_STMT, 2, 2, check_static_assert, .sets = FSET_BT_STDLIB},
	{"fail", FK_STMT, 1, 64, check_fail, .sets = FSET_BT_STDLIB},
};
BUILTINS(assert_funcs)
