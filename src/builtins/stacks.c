/* The stack functions: kstack([mode][, depth]) and ustack(...), each
 * one's type rule and code generation (a stack id from the stack map of
 * that depth; the runtime prints the frames).  D's stack() and
 * ustack() make the same values (builtin_gen_stack_into). */
#include <string.h>

#include "../compile/codegen.h"
#include "../compile/sema_hooks.h"
#include "../util/util.h"
#include "builtins.h"

static const char *const default_modes[] = {"bpftrace", "perf", NULL};

/* "bpftrace or perf", "bpftrace, perf, raw or build_id" */
static void modes_text(StrBuf *b, const char *const *modes)
{
	for (int i = 0; modes[i]; i++)
		sb_printf(b, "%s%s", i == 0 ? "" : modes[i + 1] ? ", " : " or ", modes[i]);
}

/* kstack(MODE, ...): MODE one of the modes the dialect names */
static bool stack_mode_arg(Sema *s, const Expr *c, const Expr *m, StackMode *mode)
{
	const char *const *modes = sema_hooks(s)->stack_modes ? sema_hooks(s)->stack_modes : default_modes;
	for (int i = 0; modes[i]; i++)
		if (!strcmp(modes[i], m->name)) {
			*mode = (StackMode)i;
			return true;
		}
	StrBuf b = {0};
	modes_text(&b, modes);
	bool ok = sema_error(s, m->loc, "%s(): unknown stack mode '%s' (%s)", c->name, m->name, b.s);
	sb_free(&b);
	return ok;
}

static bool check_stack(Sema *s, Expr *c)
{
	bool user = c->name[0] == 'u';
	StackMode mode = sema_stack_mode(s, user, c->loc);
	int64_t depth = 127;
	int first = 0; /* kstack(MODE[, N]) */
	if (c->args.n && c->args.v[0]->kind == E_BUILTIN) {
		if (!stack_mode_arg(s, c, c->args.v[0], &mode))
			return false;
		if (mode == STACK_BUILD_ID && !user)
			return sema_error(s, c->loc, "'build_id' stack mode can only be used for ustack");
		first = 1;
	}
	/* bpftrace 0.17's words for a string and for a depth past its own cap */
	if (c->args.n > first && c->args.v[first]->kind == E_STR)
		return sema_error(s, c->loc, "%s() expects a integer literal (string provided)", c->name);
	if (c->args.n > first && !sema_arg_literal_int(s, c, first, &depth))
		return false;
	if ((uint64_t)depth > 1024)
		return sema_error(s, c->loc, "%s([int limit]): limit shouldn't exceed 1024, %llu given",
				  c->name, (unsigned long long)depth);
	if (depth < 1 || depth > 127)
		return sema_error(s, c->loc, "%s(): the depth must be from 1 to 127", c->name);
	c->type = ty_simple(s, user ? TY_USTACK : TY_KSTACK, user ? 16 : 8);
	c->type->stack_depth = (int)depth;
	c->type->stack_mode = mode;
	s->sc->uses_kstack |= !user;
	s->sc->uses_ustack |= user;
	return true;
}

/* the stack's id (and, for a user stack, the process) */
void builtin_gen_stack_into(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	(void)dt;
	if (e->type->stack_mode == STACK_BUILD_ID)
		gen_build_id_stack_into(g, e->type->stack_depth, dst_off);
	else
		gen_stack_into(g, e->type->kind == TY_USTACK, e->type->stack_depth, dst_off);
}

static const FuncDef stack_funcs[] = {
	{"kstack", FK_EXPR, 0, 2, check_stack, .gen_into = builtin_gen_stack_into},
	{"ustack", FK_EXPR, 0, 2, check_stack, .gen_into = builtin_gen_stack_into},
};
BUILTINS(stack_funcs)
