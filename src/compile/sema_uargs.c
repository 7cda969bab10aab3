/* args->NAME in uprobes: the function's parameters from DWARF (the uprobe
 * provider attaches them to the probe), read as bpftrace 0.17 does from the
 * argument register of the same position.  The field becomes a TpField
 * whose offset is that register's in pt_regs, so codegen reads it as it
 * reads a tracepoint field. */
#include <string.h>

#include "../lang/sym_types.h"
#include "../sym/dwarf_args.h"
#include "sema.h"

bool sema_uprobe_args(Sema *s, Expr *e)
{
	const ProbeSpec *p = s->spec;
	if (p->dwarf || (p->prov->args == ARGS_DWARF && dwarf_present(s->sc->opt.sym, p->target)))
		return true;
	return sema_error(s, e->loc, "args: no debug info for %s in %s (build it with -g, or use "
			  "arg0..arg5)", p->func, p->target);
}

static const char *const ordinal[] = {"1st", "2nd", "3rd", "4th", "5th", "6th"};

bool sema_uprobe_arg(Sema *s, Expr *e)
{
	const ProbeSpec *p = s->spec;
	int idx;
	const DwarfParam *dp = dwarf_param(p->dwarf, e->name, &idx);
	if (!dp)
		return sema_error(s, e->loc, "%s has no parameter '%s'", p->func, e->name);
	int off = p->prov->ctx_arg_offset(p, idx); /* a register, or kfunc's u64 slot */
	if (off < 0)
		return sema_error(s, e->loc, "parameter '%s' of %s is number %d: only the first six "
				  "are read (from registers), use a pointer or another probe", e->name,
				  p->func, idx + 1);
	Type *t = type_of_param(s->sc->opt.sym, p->dwarf, idx);
	if (t->kind != TY_INT)
		return sema_error(s, e->loc, "parameter '%s' of %s (the %s) is a %s: only integer and "
				  "pointer parameters can be read", e->name, p->func, ordinal[idx],
				  dp->ctype);
	TpField *f = arena_alloc(&s->sc->arena, sizeof(*f));
	f->name = dp->name;
	f->type = dp->ctype;
	f->offset = off;
	f->size = type_csize(t);
	f->is_signed = t->is_signed;
	f->is_ptr = t->pointee != NULL;
	e->auxp = f;
	e->type = f->is_ptr ? t : ty_int(s, t->bits, t->is_signed);
	return true;
}

/* locals.NAME: a variable's value at the probed instruction, from where
 * DWARF says it is there; only uprobes have one instruction to ask about. */
bool sema_uprobe_locals(Sema *s, Expr *e)
{
	const ProbeSpec *p = s->spec;
	if (p->prov->args != ARGS_DWARF)
		return sema_error(s, e->loc, "locals is only available in uprobe probes (a variable's "
				  "place is known at one instruction), not in %s", p->prov->name);
	if (!dwarf_present(s->sc->opt.sym, p->target))
		return sema_error(s, e->loc, "locals: %s has no debug information (build it with -g)",
				  p->target);
	return true;
}

static bool local_type(Sema *s, Expr *e, const DwarfLocal *l, bool params_only)
{
	const Type *t = type_of_dwarf(s->sc->opt.sym, l->type);
	const char *what = params_only ? "args" : "locals";
	if (t->kind == TY_INT) {
		e->type = t->pointee ? (Type *)t : ty_int(s, t->bits, t->is_signed);
		return true;
	}
	if (t->kind == TY_NONE)
		return sema_error(s, e->loc, "%s.%s is a %s: only integers, pointers, structs, unions and "
				  "arrays can be read", what, e->name, l->ctype);
	if (l->kind != DLOC_MEM)
		return sema_error(s, e->loc, "%s.%s (%s) is held in registers at this address: read it "
				  "where it is in memory", what, e->name, l->ctype);
	e->type = (Type *)t;
	return true;
}

bool sema_uprobe_local(Sema *s, Expr *e, bool params_only)
{
	const ProbeSpec *p = s->spec;
	const DwarfLocal *l;
	const char *why;
	if (!(l = dwarf_local(s->sc->opt.sym, p->target, p->offset, e->name, params_only, &why)))
		return sema_error(s, e->loc, "%s.%s: %s", params_only ? "args" : "locals", e->name, why);
	if (!local_type(s, e, l, params_only))
		return false;
	e->aux2 = FIELD_DWARF_LOCAL;
	e->auxp = (void *)l;
	return true;
}
