/* D's destructive actions, allowed only with -w (-x destructive): raise(sig)
 * and stop() signal the process that fired the probe (bpf_send_signal);
 * system() is the shared EV_SYSTEM event with D's format rules.  Without -w the
 * script is refused with dtrace(1)'s words, before anything is enabled. */
#include <signal.h>

#include "../compile/codegen.h"
#include "../builtins/builtins.h"
#include "dfunc.h"
#include "sema_d.h"

bool dsema_destructive(Sema *s, Expr *c)
{
	if (s->sc->opt.unsafe)
		return true;
	return sema_error(s, c->loc, "%s", D_DESTRUCTIVE_MSG);
}

bool dcheck_raise(Sema *s, Expr *c)
{
	/* the argument's type first: dtrace checks -w only when it enables */
	if (!dsema_arg_int(s, c, 0, "int") || !dsema_destructive(s, c))
		return false;
	Expr *a = c->args.v[0];
	if (a->kind == E_INT && (a->ival < 1 || a->ival > 64))
		return sema_error(s, a->loc, "raise( ) signal %lld is not a signal number (1 to 64)",
				  (long long)a->ival);
	return true;
}

bool dcheck_stop(Sema *s, Expr *c)
{
	return dsema_destructive(s, c);
}

/* system(fmt, ...): its format checked as D's printf's */
static bool dcheck_system(Sema *s, Expr *c)
{
	return dsema_destructive(s, c) && sema_format_d(s, c);
}

/* the signal in r0 to the process that fired the probe */
static void send_signal(Gen *g)
{
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
	emit_call(g, BPF_FUNC_send_signal);
}

static void gen_raise(Gen *g, const Expr *e)
{
	gen_int(g, e->args.v[0]);
	send_signal(g);
}

static void gen_stop(Gen *g, const Expr *e)
{
	(void)e;
	emit(g, I_MOV64_IMM(BPF_REG_0, SIGSTOP));
	send_signal(g);
}

/* D's raise(), stop() and system() */
static const FuncDef destr_funcs[] = {
	{"system", FK_STMT, 1, 64, dcheck_system, FUNC_D, .gen_stmt = builtin_gen_system},
	{"raise", FK_STMT, 1, 1, dcheck_raise, FUNC_D, .gen_stmt = gen_raise},
	{"stop", FK_STMT, 0, 0, dcheck_stop, FUNC_D, .gen_stmt = gen_stop},
};
BUILTINS(destr_funcs)
