/* Address spaces, only for bpftrace 0.17's "Addrspace mismatch" warning.
 *
 * bpftrace tags some values with the memory they come from: kernel (comm,
 * string literals, curtask, ctx, kaddr(), buf(), kptr(), kernel probes'
 * arguments, tracepoint fields outside syscalls), user (uprobe and usdt
 * arguments, uaddr(), uptr(), the fields of syscalls tracepoints) or none
 * (numbers, most builtins and functions).  Members, indexes, derefs, casts
 * and str() keep their operand's tag, a tuple's elements theirs; variables and maps keep the tag of
 * their first assignment; a binary operator takes its left tag, else its
 * right one, and when the two differ (neither none) bpftrace warns
 * "Addrspace mismatch" and the result is none.  sonde reads memory by the
 * pointer types (sema_ctype.c), not by these tags: they only decide the
 * warning, so that sonde prints what bpftrace prints. */
#include <string.h>

#include "sema_hooks.h"

static int addrspace_of(ProbeSpace space)
{
	return space == SPACE_USER ? AS_USER : space == SPACE_KERNEL ? AS_KERNEL : AS_NONE;
}

/* bpftrace's find_addrspace(): where a probe type's arguments live */
int sema_probe_addrspace(const Sema *s)
{
	return addrspace_of(s->spec->prov->space);
}

static int builtin_addrspace(const Sema *s, const Expr *e)
{
	switch (e->aux2) {
	case B_COMM:
	case B_CURTASK:
	case B_CTX:
		return AS_KERNEL;
	case B_ARG:
	case B_SARG:
	case B_RETVAL:
		return sema_probe_addrspace(s);
	case B_ARGS: /* a syscall's arguments point into the process */
		return addrspace_of(probe_args_space(s->spec));
	default:
		return AS_NONE;
	}
}

/* a function's: its row says (FuncDef.addrspace) */
static int call_addrspace(const Sema *s, const Expr *e)
{
	return e->func && e->func->addrspace ? e->func->addrspace(s, e) : AS_NONE;
}

void sema_addrspace(Sema *s, Expr *e)
{
	switch (e->kind) {
	case E_STR:
		e->addrspace = AS_KERNEL;
		break;
	case E_BUILTIN:
		e->addrspace = (signed char)builtin_addrspace(s, e);
		break;
	case E_CALL:
		e->addrspace = (signed char)call_addrspace(s, e);
		break;
	case E_VAR:
		e->addrspace = e->var ? e->var->addrspace : AS_NONE;
		break;
	case E_MAP:
		e->addrspace = e->map ? e->map->addrspace : AS_NONE;
		break;
	case E_FIELD: /* a tuple's element: the tag it had when the tuple was made */
		if (e->a->type && e->a->type->kind == TY_TUPLE)
			e->addrspace = e->a->type->elem_as ? e->a->type->elem_as[e->aux] : AS_NONE;
		else
			e->addrspace = e->a->addrspace;
		break;
	case E_TUPLE: /* the tuple itself has none; its type keeps each element's */
		e->addrspace = AS_NONE;
		if (e->type && e->type->kind == TY_TUPLE && e->type->nelem == e->args.n) {
			e->type->elem_as = arena_alloc(&s->sc->arena, (size_t)e->args.n);
			for (int i = 0; i < e->args.n; i++)
				e->type->elem_as[i] = e->args.v[i]->addrspace;
		}
		break;
	case E_INDEX:
		e->addrspace = e->a->addrspace;
		break;
	case E_UNOP: /* *p keeps p's tag; *addr, -x, !x, ~x have none */
		e->addrspace = e->op == OP_DEREF && type_is_ptr(e->a->type) ? e->a->addrspace : AS_NONE;
		break;
	case E_CAST: /* a typeof's zero has no value */
		e->addrspace = e->a ? e->a->addrspace : AS_NONE;
		if (e->addrspace == AS_NONE && type_is_ptr(e->type) &&
		    e->type->pointee->kind == TY_RECORD) /* (struct x *)0: the probe's */
			e->addrspace = (signed char)sema_probe_addrspace(s);
		break;
	default: /* numbers, $1, $#, ?:, tuples, ++/--, sizeof */
		e->addrspace = AS_NONE;
	}
}

void sema_addrspace_binop(Sema *s, Expr *e)
{
	int l = e->a->addrspace, r = e->b->addrspace;
	if (l != r && l != AS_NONE && r != AS_NONE) {
		if (sema_hooks(s)->addrspace_warn)
			sema_warn(s, e->loc, "Addrspace mismatch");
		e->addrspace = AS_NONE;
		return;
	}
	e->addrspace = (signed char)(l != AS_NONE ? l : r);
}

void sema_addrspace_assigned(Expr *target, const Expr *value)
{
	if (target->kind == E_VAR && target->var && !target->var->addrspace_set) {
		target->var->addrspace = value->addrspace;
		target->var->addrspace_set = true;
	} else if (target->kind == E_MAP && target->map && !target->map->addrspace_set) {
		target->map->addrspace = value->addrspace;
		target->map->addrspace_set = true;
	}
}
