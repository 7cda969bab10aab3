/* D's symbol subroutines: sym() func() mod() of a kernel address, usym()
 * ufunc() umod() uaddr() of a user one.  Each value is the address (and,
 * for a user one, the pid, as bpftrace's ksym()/usym(), whose code
 * generates them: builtins/values.c); what prints is the function's (Type.dsym), as
 * libdtrace's dt_print_sym/dt_print_mod/dt_print_usym/dt_print_umod print
 * them: dtrace/stack_d.c's sym_text_d. */
#include <string.h>

#include "../builtins/builtins.h"
#include "../compile/codegen.h"
#include "dfunc.h"

static char dsym_kind(const char *name)
{
	if (!strcmp(name, "mod") || !strcmp(name, "umod"))
		return DSYM_MOD;
	return strcmp(name, "uaddr") ? DSYM_SYM : DSYM_ADDR;
}

bool dcheck_sym(Sema *s, Expr *c)
{
	if (!dsema_arg_int(s, c, 0, "uintptr_t"))
		return false;
	bool user = c->name[0] == 'u';
	c->type = ty_simple(s, user ? TY_USYM : TY_KSYM, user ? 16 : 8);
	c->type->dsym = dsym_kind(c->name);
	if (user)
		s->sc->uses_usym = true;
	return true;
}

/* D's symbol values: an address (and pid) printed as the name says; their
 * code is bpftrace's ksym()'s and usym()'s */
static const FuncDef sym_funcs[] = {
	{"sym", FK_EXPR, 1, 1, dcheck_sym, FUNC_D, .gen_into = builtin_gen_ksym_into},
	{"func", FK_EXPR, 1, 1, dcheck_sym, FUNC_D, .gen_into = builtin_gen_ksym_into},
	{"mod", FK_EXPR, 1, 1, dcheck_sym, FUNC_D, .gen_into = builtin_gen_ksym_into},
	{"usym", FK_EXPR, 1, 1, dcheck_sym, FUNC_D, .gen_into = builtin_gen_usym_into},
	{"ufunc", FK_EXPR, 1, 1, dcheck_sym, FUNC_D, .gen_into = builtin_gen_usym_into},
	{"umod", FK_EXPR, 1, 1, dcheck_sym, FUNC_D, .gen_into = builtin_gen_usym_into},
	{"uaddr", FK_EXPR, 1, 1, dcheck_sym, FUNC_D, .gen_into = builtin_gen_usym_into},
};
BUILTINS(sym_funcs)
