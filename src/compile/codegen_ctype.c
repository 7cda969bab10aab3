/* Code for C-typed places: struct members, *p, a[i].  A place is either
 * in scratch at a known offset (a member of a struct value held in a
 * variable or read from a map) or in kernel/user memory at an address
 * computed into r0, read with bpf_probe_read_kernel/_user. */
#include <string.h>

#include "codegen.h"
#include "codegen_ctype.h"
#include "sema.h"
#include "../sym/dwarf_args.h"

typedef struct Place {
	bool scr;  /* in scratch at off; else the address is in r0 */
	int off;
	bool user; /* the address is a user address */
	bool ctx;  /* in the program's context at off: direct loads from R_CTX */
} Place;

bool cg_is_dwarf_local(const Expr *e)
{
	return e->kind == E_FIELD && e->a->type->kind == TY_CTX && e->aux2 == FIELD_DWARF_LOCAL;
}

/* a variable in memory at a register + offset (a local on the stack, a static) */
static bool is_local_in_memory(const Expr *e)
{
	return cg_is_dwarf_local(e) && ((const DwarfLocal *)e->auxp)->kind == DLOC_MEM;
}

bool cg_is_place(const Expr *e)
{
	switch (e->kind) {
	case E_FIELD:
		return e->a->type->kind == TY_RECORD || type_is_ptr(e->a->type) || is_local_in_memory(e) ||
		       cg_uevent_is_place(e);
	case E_UNOP:
		return e->op == OP_DEREF;
	case E_INDEX:
		return true;
	default:
		return false;
	}
}

void cg_add_r0(Gen *g, int64_t v)
{
	if (!v)
		return;
	if (v >= INT32_MIN && v <= INT32_MAX) {
		emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_0, (int32_t)v));
	} else {
		emit_ld_imm64(g, BPF_REG_1, (uint64_t)v);
		emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1));
	}
}

static Place place(Gen *g, const Expr *e);

/* The place or value a member/index applies to. */
static Place base_place(Gen *g, const Expr *b)
{
	if (cg_is_place(b))
		return place(g, b);
	if (b->kind == E_VAR && b->type->kind != TY_INT)
		return (Place){true, b->var->off, false};
	return (Place){true, gen_mem(g, b), false};
}

/* Pointers of user-space probes and of system call tracepoints' arguments
 * point into the traced process */
bool cg_probe_reads_user(const Gen *g)
{
	return probe_args_space(g->spec) == SPACE_USER;
}

/* A pointer type says which memory it points into; a plain integer used
 * as an address is the probe's */
bool cg_user_addr(const Gen *g, const Type *t)
{
	return type_is_ptr(t) ? t->user : cg_probe_reads_user(g);
}

/* Is e the context pointer itself (ctx, a variable holding it, a cast)? */
static bool is_ctx_pointer(const Gen *g, const Expr *e)
{
	if (!type_is_ptr(e->type) || !e->type->ctx || g->spec->prov->ctx == CTX_ITER)
		return false; /* an iterator's record is read like memory (probe_read) */
	return (e->kind == E_BUILTIN && e->aux2 == B_CTX) || e->kind == E_VAR ||
	       (e->kind == E_CAST && is_ctx_pointer(g, e->a));
}

/* A place inside the context at a constant offset: the verifier rewrites
 * such loads (perf_event programs see struct bpf_perf_event_data, which
 * the kernel does not hold as such); a pointer to it cannot be read. */
static bool ctx_place(const Gen *g, const Expr *e, int *off)
{
	if (e->kind == E_UNOP && e->op == OP_DEREF && is_ctx_pointer(g, e->a)) {
		*off = 0;
		return true;
	}
	if (e->kind != E_FIELD || cg_is_dwarf_local(e) || cg_is_uevent(e) ||
	    e->a->type->kind == TY_CTX)
		return false;
	const Field *f = e->auxp;
	int base;
	if (e->arrow ? is_ctx_pointer(g, e->a) && (base = 0, true)
		     : e->a->type->ctx && ctx_place(g, e->a, &base)) {
		*off = base + f->offset;
		return true;
	}
	return false;
}

static Place place(Gen *g, const Expr *e)
{
	int ctx_off;
	if (ctx_place(g, e, &ctx_off))
		return (Place){.ctx = true, .off = ctx_off};
	if (e->kind == E_UNOP) {
		gen_int(g, e->a);
		return (Place){false, 0, cg_user_addr(g, e->a->type)};
	}
	if (cg_uevent_is_place(e)) {
		gen_uevent_addr(g, e);
		return (Place){false, 0, true};
	}
	if (is_local_in_memory(e)) { /* user memory at the saved register + offset */
		const DwarfLocal *l = e->auxp;
		emit(g, I_LDX(BPF_DW, BPF_REG_0, R_CTX, l->ctx_off));
		cg_add_r0(g, l->offset);
		return (Place){false, 0, true};
	}
	if (e->kind == E_FIELD) {
		const Field *f = e->auxp;
		if (type_is_ptr(e->a->type)) {
			gen_int(g, e->a);
			cg_add_r0(g, f->offset);
			return (Place){false, 0, e->a->type->user};
		}
		Place p = base_place(g, e->a);
		if (p.scr)
			p.off += f->offset;
		else
			cg_add_r0(g, f->offset);
		return p;
	}
	/* E_INDEX */
	const Type *bt = e->a->type;
	int esz = type_csize(e->type);
	Place p;
	if (type_is_ptr(bt)) {
		gen_int(g, e->a);
		p = (Place){false, 0, bt->user};
	} else {
		p = base_place(g, e->a);
	}
	if (e->b->kind == E_INT) {
		int64_t d = (int64_t)e->b->ival * esz;
		if (p.scr)
			p.off += (int)d;
		else
			cg_add_r0(g, d);
		return p;
	}
	if (p.scr) {
		/* a variable index into scratch: an address (bounded below) */
		emit(g, I_MOV64_REG(BPF_REG_0, R_SCR));
		cg_add_r0(g, p.off);
		p = (Place){false, 0, false};
	}
	int slot = stack_push(g);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, slot));
	gen_int(g, e->b);
	int count = bt->kind == TY_ARRAY ? bt->count : bt->kind == TY_STR ? bt->size : 0;
	if (count > 0 && codegen_hooks(g->sc)->index_check) { /* D faults, as DTrace */
		codegen_hooks(g->sc)->index_check(g, count);
	} else if (count > 0) {
		int ok = label_new(g);
		emit_jmp_imm(g, BPF_JLT, BPF_REG_0, count, ok);
		emit(g, I_MOV64_IMM(BPF_REG_0, 0));
		label_place(g, ok);
	}
	if (esz > 1)
		emit(g, I_ALU64_IMM(BPF_MUL, BPF_REG_0, esz));
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, slot));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1));
	stack_pop(g);
	return p;
}

/* r0 = the address of a place reached through a pointer */
void gen_place_addr(Gen *g, const Expr *e)
{
	Place p = place(g, e);
	if (p.scr) {
		emit(g, I_MOV64_REG(BPF_REG_0, R_SCR));
		cg_add_r0(g, p.off);
	}
}

/* The chain from the context is loaded directly, not through
 * bpf_probe_read (whose result is a plain number to the verifier): a
 * pointer member of the context pointer (an iterator's ctx->file, typed
 * "maybe NULL": checked before any arithmetic), or a probe argument
 * (fentry's args.file, a context load already), then members at constant
 * offsets.  Any other expression gets its plain value or address, which
 * the verifier refuses for such a helper as it refuses bpftrace's. */
void gen_btf_ptr(Gen *g, const Expr *e, int null_label)
{
	bool member = e->kind == E_FIELD && !cg_is_dwarf_local(e) && !cg_is_uevent(e) &&
		      e->a->type->kind != TY_CTX;
	const Field *f = member ? e->auxp : NULL;
	if (member && type_is_ptr(e->type) && !f->bit_width && e->a->kind == E_BUILTIN &&
	    e->a->aux2 == B_CTX) {
		emit(g, I_LDX(BPF_DW, BPF_REG_0, R_CTX, f->offset));
		emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, null_label);
	} else if (member && e->type->kind == TY_RECORD &&
		   (type_is_ptr(e->a->type) || e->a->type->kind == TY_RECORD)) {
		gen_btf_ptr(g, e->a, null_label);
		cg_add_r0(g, f->offset);
	} else if (e->type->kind != TY_RECORD) {
		gen_int(g, e);
	} else if (cg_is_place(e)) {
		gen_place_addr(g, e);
	} else {
		int off = gen_mem(g, e);
		emit(g, I_MOV64_REG(BPF_REG_0, R_SCR));
		cg_add_r0(g, off);
	}
}

static int ldx_size(int w)
{
	return w == 1 ? BPF_B : w == 2 ? BPF_H : w == 4 ? BPF_W : BPF_DW;
}

void gen_place_int(Gen *g, const Expr *e)
{
	int mark = g->scratch_top;
	const Field *f = e->kind == E_FIELD && !cg_is_dwarf_local(e) && !cg_is_uevent(e) ? e->auxp : NULL;
	int bw = f ? f->bit_width : 0;
	int w = type_csize(e->type);
	if (bw) {
		int n = (f->bit_off + bw + 7) / 8;
		w = n <= 1 ? 1 : n <= 2 ? 2 : n <= 4 ? 4 : 8;
	}
	Place p = place(g, e);
	if (p.ctx) {
		emit(g, I_LDX(ldx_size(w), BPF_REG_0, R_CTX, p.off));
	} else if (p.scr) {
		emit_ldx(g, ldx_size(w), BPF_REG_0, R_SCR, p.off);
	} else {
		int slot = stack_push(g);
		emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_0));
		emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_10));
		emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, slot));
		emit(g, I_MOV64_IMM(BPF_REG_2, w));
		int helper = p.user ? BPF_FUNC_probe_read_user : BPF_FUNC_probe_read_kernel;
		cg_read_call(g, helper);
		gen_helper_check(g, helper);
		emit(g, I_LDX(ldx_size(w), BPF_REG_0, BPF_REG_10, slot));
		stack_pop(g);
	}
	if (bw) {
		int up = 64 - f->bit_off - bw;
		if (up > 0)
			emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_0, up));
		if (bw < 64)
			emit(g, I_ALU64_IMM(e->type->is_signed ? BPF_ARSH : BPF_RSH, BPF_REG_0, 64 - bw));
	} else {
		gen_cast_r0(g, e->type);
	}
	g->scratch_top = mark;
}

void gen_dwarf_local_int(Gen *g, const Expr *e)
{
	const DwarfLocal *l = e->auxp;
	if (l->kind == DLOC_CONST) {
		emit_ld_imm64(g, BPF_REG_0, (uint64_t)l->value);
	} else {
		emit(g, I_LDX(BPF_DW, BPF_REG_0, R_CTX, l->ctx_off));
		if (l->kind == DLOC_VALUE)
			cg_add_r0(g, l->offset);
	}
	gen_cast_r0(g, e->type);
}

/* n bytes of the context from off into scratch, 8 at a time where it can
 * (the registers of bpf_perf_event_data only load as whole words) */
static void copy_from_ctx(Gen *g, int off, int n, int dst_off)
{
	for (int i = 0; i < n;) {
		int w = n - i >= 8 ? 8 : n - i >= 4 ? 4 : n - i >= 2 ? 2 : 1;
		emit(g, I_LDX(ldx_size(w), BPF_REG_0, R_CTX, off + i));
		emit_stx(g, ldx_size(w), R_SCR, BPF_REG_0, dst_off + i);
		i += w;
	}
}

void gen_place_into(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	int mark = g->scratch_top;
	const Type *st = e->type;
	Place p = place(g, e);
	if (p.ctx) {
		copy_from_ctx(g, p.off, st->size < dt->size ? st->size : dt->size, dst_off);
		if (dt->size > st->size)
			emit_memzero(g, dst_off + st->size, dt->size - st->size);
		g->scratch_top = mark;
		return;
	}
	if (p.scr) {
		gen_copy_value(g, R_SCR, p.off, st, dst_off, dt);
		g->scratch_top = mark;
		return;
	}
	int n = st->size < dt->size ? st->size : dt->size;
	if (n > 0) {
		emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_0));
		emit_scratch_ptr(g, BPF_REG_1, dst_off);
		emit(g, I_MOV64_IMM(BPF_REG_2, n));
		int helper = p.user ? BPF_FUNC_probe_read_user : BPF_FUNC_probe_read_kernel;
		cg_read_call(g, helper);
		gen_helper_check(g, helper);
	}
	if (dt->size > n)
		emit_memzero(g, dst_off + n, dt->size - n);
	else if (st->kind == TY_STR && st->size > dt->size)
		emit_st(g, BPF_B, R_SCR, dst_off + dt->size - 1, 0);
	g->scratch_top = mark;
}
