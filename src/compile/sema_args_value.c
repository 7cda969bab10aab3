/* bpftrace 0.26's `args` as a value: print(args), `$a = args`, `@m = args`,
 * `(args, 1)` take a record of the probe's arguments in their order,
 * `{ .n = 0x7ffc..., .c = 120 }` (SemaHooks.args_values).  The node becomes
 * that record: a named tuple of args.NAME fields, so it is checked, laid
 * out, generated and printed as any record, each field read as args.NAME
 * reads it. */
#include <string.h>

#include "../sym/dwarf_args.h"
#include "sema_int.h"

/* the argument names: the function's parameters (uprobes with DWARF,
 * fentry), else a tracepoint's fields; 0 when the probe has none */
static int arg_names(const ProbeSpec *p, const char **names, int max)
{
	int n = 0;
	if (p->dwarf)
		for (int i = 0; i < p->dwarf->nparams && n < max; i++)
			names[n++] = p->dwarf->params[i].name;
	else if (p->prov->args == ARGS_FIELDS)
		for (int i = 0; i < p->tp.nfields && n < max; i++)
			names[n++] = p->tp.fields[i].name;
	return n;
}

void sema_args_value(Sema *s, Expr *e)
{
	/* by name: the builtin's id is set when it is checked, after this */
	if (!sema_hooks(s)->args_values || e->kind != E_BUILTIN || strcmp(e->name, "args") ||
	    s->spec->uevent)
		return;
	const char *names[64];
	int n = arg_names(s->spec, names, 64);
	if (!n)
		return;
	Program *prog = s->sc->ast;
	Expr *base = expr_new(prog, E_BUILTIN, e->loc);
	*base = *e;
	Expr **fields = arena_alloc(&prog->arena, sizeof(*fields) * (size_t)n);
	char **fnames = arena_alloc(&prog->arena, sizeof(*fnames) * (size_t)n);
	for (int i = 0; i < n; i++) {
		fields[i] = expr_new(prog, E_FIELD, e->loc);
		fields[i]->a = base;
		fnames[i] = arena_strdup(&prog->arena, names[i]);
		fields[i]->name = fnames[i];
	}
	e->kind = E_TUPLE;
	e->args = (ExprList){fields, n};
	e->names = fnames;
	e->visit = 0;
}
