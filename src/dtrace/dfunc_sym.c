/* D's symbol subroutines: sym() func() mod() of a kernel address, usym()
 * ufunc() umod() uaddr() of a user one.  Each value is the address (and,
 * for a user one, the pid, as bpftrace's ksym()/usym(): F_KSYM/F_USYM
 * generate them); what prints is the function's (Type.dsym), as
 * libdtrace's dt_print_sym/dt_print_mod/dt_print_usym/dt_print_umod print
 * them: dtrace/stack_d.c's sym_text_d. */
#include <string.h>

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
