/* args.FIELD of tracepoint:GROUP:EVENT when the event is a uprobe event
 * (sonde probe -a, perf probe -x): the kernel runs only kprobe-type
 * programs there, so the probe is a uprobe at the event's place and each
 * field is computed as the kernel computes it, from the event's fetch
 * argument (probes/uprobe_event.h), sized and signed as its format says. */
#include <string.h>

#include "../probes/uprobe_event.h"
#include "sema.h"

static const UeventArg probe_ip = {.name = "__probe_ip", .base = UA_REG, .reg = "ip", .text = "%ip"};

bool sema_uevent_field(Sema *s, Expr *e)
{
	const ProbeSpec *p = s->spec;
	const Uevent *u = p->uevent;
	const TpField *f = tp_format_field(&p->tp, e->name);
	if (!f)
		return sema_error(s, e->loc, "Struct/union of type 'struct _tracepoint_%s_%s' does not "
				  "contain a field named '%s'", u->group, u->event, e->name);
	const UeventArg *a = !strcmp(e->name, "__probe_ip") && !u->ret ? &probe_ip : uevent_arg(u, e->name);
	UeventRead *r = arena_alloc(&s->sc->arena, sizeof(*r));
	*r = (UeventRead){.arg = a, .is_str = f->is_str};
	if (a && a->base == UA_REG)
		r->ctx_off = pt_regs_offset(a->reg);
	if (a && a->base == UA_FILEADDR)
		r->addr_off = a->imm - (int64_t)u->offset;
	if (!a || a->base == UA_BAD || a->bitfield || r->ctx_off < 0 || (a->base == UA_FILEADDR && u->ret) ||
	    (f->is_str && a->base != UA_COMM && a->base != UA_FILEADDR && !a->nderef) || (!f->is_str && (f->size <= 0 || f->size > 8)))
		return sema_error(s, e->loc, "field '%s' of uprobe event %s:%s is fetched as '%s', which "
				  "sonde does not compute (registers, @+OFFSET, immediates, $retval, $comm "
				  "and dereferences of them; integers and strings)", e->name, u->group,
				  u->event, a ? a->text : "(a field of the event itself)");
	e->aux2 = FIELD_UPROBE_FETCH;
	e->auxp = r;
	if (a->base == UA_COMM)
		e->type = ty_str(s, 16);
	else if (f->is_str)
		e->type = ty_str(s, s->sc->opt.strlen_max);
	else
		e->type = ty_int(s, f->size * 8, f->is_signed);
	return true;
}
