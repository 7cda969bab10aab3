/* Code for args.FIELD of a uprobe event (sema_uevent.c): the fetch
 * argument computed from the registers, as the kernel computes it for the
 * event's record.  An integer behind dereferences is a C place in user
 * memory (codegen_ctype.c reads it); strings are read up to their NUL. */
#include "../probes/uprobe_event.h"
#include "codegen.h"
#include "codegen_ctype.h"

bool cg_is_uevent(const Expr *e)
{
	return e->kind == E_FIELD && e->a->type->kind == TY_CTX && e->aux2 == FIELD_UPROBE_FETCH;
}

bool cg_uevent_is_place(const Expr *e)
{
	const UeventRead *r = e->auxp;
	return cg_is_uevent(e) && !r->is_str && (r->arg->nderef > 0 || r->arg->base == UA_FILEADDR);
}

/* r0 = the fetch's base: a register, an immediate, or @+X (the probed
 * instruction's address, less its file offset, plus X) */
static void gen_base(Gen *g, const UeventRead *r)
{
	switch (r->arg->base) {
	case UA_IMM:
		emit_ld_imm64(g, BPF_REG_0, (uint64_t)r->arg->imm);
		break;
	case UA_FILEADDR:
		emit(g, I_LDX(BPF_DW, BPF_REG_0, R_CTX, pt_regs_offset("ip")));
		cg_add_r0(g, r->addr_off);
		break;
	default:
		emit(g, I_LDX(BPF_DW, BPF_REG_0, R_CTX, r->ctx_off));
	}
}

static void read_u64_r0(Gen *g)
{
	int slot = stack_push(g);
	emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_0));
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_10));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, slot));
	emit(g, I_MOV64_IMM(BPF_REG_2, 8));
	emit_call(g, BPF_FUNC_probe_read_user);
	emit(g, I_LDX(BPF_DW, BPF_REG_0, BPF_REG_10, slot));
	stack_pop(g);
}

/* r0 = where the value is: @+X is memory at that address, each OFF(...)
 * reads the pointer inside and adds OFF; the last is the value's place */
void gen_uevent_addr(Gen *g, const Expr *e)
{
	const UeventRead *r = e->auxp;
	const UeventArg *a = r->arg;
	gen_base(g, r);
	if (a->base == UA_FILEADDR && a->nderef)
		read_u64_r0(g);
	for (int i = 0; i < a->nderef; i++) {
		cg_add_r0(g, a->deref[i]);
		if (i < a->nderef - 1)
			read_u64_r0(g);
	}
}

void gen_uevent_int(Gen *g, const Expr *e)
{
	gen_base(g, e->auxp); /* no dereference: the register or value itself */
	gen_cast_r0(g, e->type);
}

void gen_uevent_into(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	const UeventRead *r = e->auxp;
	emit_memzero(g, dst_off, dt->size);
	if (r->arg->base == UA_COMM) {
		emit_scratch_ptr(g, BPF_REG_1, dst_off);
		emit(g, I_MOV64_IMM(BPF_REG_2, dt->size < 16 ? dt->size : 16));
		emit_call(g, BPF_FUNC_get_current_comm);
		return;
	}
	gen_uevent_addr(g, e);
	emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_0));
	emit_scratch_ptr(g, BPF_REG_1, dst_off);
	emit(g, I_MOV64_IMM(BPF_REG_2, dt->size));
	emit_call(g, BPF_FUNC_probe_read_user_str);
}
