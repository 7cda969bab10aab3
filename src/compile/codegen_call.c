/* Builtins and functions: code generation hooks in tables indexed by the
 * ids sema assigned (BuiltinId); a function's code is its row's hook. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "codegen.h"
#include "sema_hooks.h"

/* --- builtins ---------------------------------------------------------- */

static void b_pid(Gen *g, const Expr *e)
{
	emit_call(g, BPF_FUNC_get_current_pid_tgid);
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, e->aux2 == B_PID ? 32 : 0));
	if (e->aux2 == B_TID) {
		emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_0, 32));
		emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	}
}

static void b_uid(Gen *g, const Expr *e)
{
	emit_call(g, BPF_FUNC_get_current_uid_gid);
	if (e->aux2 == B_GID) {
		emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	} else {
		emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_0, 32));
		emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	}
}

static void b_helper(Gen *g, const Expr *e)
{
	static const int helper[] = {
		[B_CPU] = BPF_FUNC_get_smp_processor_id, [B_NSECS] = BPF_FUNC_ktime_get_ns,
		[B_CGROUP] = BPF_FUNC_get_current_cgroup_id, [B_CURTASK] = BPF_FUNC_get_current_task,
		[B_RAND] = BPF_FUNC_get_prandom_u32, [B_NUMAID] = BPF_FUNC_get_numa_node_id,
	};
	emit_call(g, helper[e->aux2]);
}

static void b_elapsed(Gen *g, const Expr *e)
{
	(void)e;
	emit_call(g, BPF_FUNC_ktime_get_ns);
	emit_ld_imm64(g, BPF_REG_1, g->sc->opt.start_ns);
	emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_1));
}

/* An argument described by the provider (usdt): register, memory operand
 * or constant, then truncated and extended to 64 bits. */
static void gen_arg_loc(Gen *g, const ArgLoc *l)
{
	if (l->reg_off < 0) {
		emit_ld_imm64(g, BPF_REG_0, (uint64_t)l->disp);
		return;
	}
	emit(g, I_LDX(BPF_DW, BPF_REG_0, R_CTX, l->reg_off));
	if (l->deref) {
		if (l->index_off >= 0) {
			emit(g, I_LDX(BPF_DW, BPF_REG_1, R_CTX, l->index_off));
			emit(g, I_ALU64_IMM(BPF_MUL, BPF_REG_1, l->scale));
			emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1));
		}
		emit_ld_imm64(g, BPF_REG_1, (uint64_t)l->disp);
		emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1));
		int mark = g->scratch_top, tmp = scratch_alloc(g, 8);
		emit_st(g, BPF_DW, R_SCR, tmp, 0);
		emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_0));
		emit_scratch_ptr(g, BPF_REG_1, tmp);
		emit(g, I_MOV64_IMM(BPF_REG_2, l->size));
		emit_call(g, BPF_FUNC_probe_read_user);
		emit_ldx(g, BPF_DW, BPF_REG_0, R_SCR, tmp);
		g->scratch_top = mark;
	}
	if (l->size < 8) {
		emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_0, 64 - 8 * l->size));
		emit(g, I_ALU64_IMM(l->is_signed ? BPF_ARSH : BPF_RSH, BPF_REG_0, 64 - 8 * l->size));
	}
}

static void b_ctx_arg(Gen *g, const Expr *e)
{
	int n = e->aux2 == B_RETVAL ? -1 : e->aux;
	ArgLoc l;
	const CodegenHooks *h = codegen_hooks(g->sc);
	if (h->arg_value && h->arg_value(g, n))
		return;
	if (n >= 0 && g->spec->prov->arg_loc && g->spec->prov->arg_loc(g->spec, n, &l)) {
		gen_arg_loc(g, &l);
		return;
	}
	int off = h->arg_offset ? h->arg_offset(g->spec, n) : -1;
	if (off < 0)
		off = g->spec->prov->ctx_arg_offset(g->spec, n);
	emit(g, I_LDX(BPF_DW, BPF_REG_0, R_CTX, off));
	const Type *t = e->type;
	if (t->kind == TY_INT && !t->pointee && t->bits > 0 && t->bits < 64) {
		/* kretfunc's int retval: the slot's upper bits are not the value's */
		emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_0, 64 - t->bits));
		emit(g, I_ALU64_IMM(t->is_signed ? BPF_ARSH : BPF_RSH, BPF_REG_0, 64 - t->bits));
	}
}

static void b_ctx(Gen *g, const Expr *e)
{
	(void)e;
	emit(g, I_MOV64_REG(BPF_REG_0, R_CTX));
}

static void b_cpid(Gen *g, const Expr *e)
{
	(void)e;
	emit(g, I_MOV64_IMM(BPF_REG_0, g->sc->opt.cpid));
}

/* sargN: the Nth 8-byte stack argument, above the return address at sp */
static void b_sarg(Gen *g, const Expr *e)
{
	bool user = g->spec->prov->space == SPACE_USER;
	int mark = g->scratch_top, tmp = scratch_alloc(g, 8);
	emit_st(g, BPF_DW, R_SCR, tmp, 0);
	emit(g, I_LDX(BPF_DW, BPF_REG_3, R_CTX, pt_regs_offset("sp")));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, 8 * (e->aux + 1)));
	emit_scratch_ptr(g, BPF_REG_1, tmp);
	emit(g, I_MOV64_IMM(BPF_REG_2, 8));
	int helper = user ? BPF_FUNC_probe_read_user : BPF_FUNC_probe_read_kernel;
	emit_call(g, helper);
	gen_helper_check(g, helper);
	emit_ldx(g, BPF_DW, BPF_REG_0, R_SCR, tmp);
	g->scratch_top = mark;
}

typedef void (*BuiltinGen)(Gen *g, const Expr *e);
static const BuiltinGen builtin_int[] = {
	[B_PID] = b_pid,	 [B_TID] = b_pid,	  [B_UID] = b_uid,
	[B_GID] = b_uid,	 [B_CPU] = b_helper,	  [B_NSECS] = b_helper,
	[B_ELAPSED] = b_elapsed, [B_CGROUP] = b_helper,	  [B_CURTASK] = b_helper,
	[B_RAND] = b_helper,	 [B_ARG] = b_ctx_arg,	  [B_RETVAL] = b_ctx_arg,
	[B_CPID] = b_cpid,	 [B_NUMAID] = b_helper,	  [B_SARG] = b_sarg,
	[B_CTX] = b_ctx,	 [B_USERNAME] = b_uid,
};

void gen_builtin_int(Gen *g, const Expr *e)
{
	if (e->aux2 == B_FAMILY) { /* a family's own (sema_hooks.h: BUILTIN_VARS) */
		((const BuiltinDef *)e->auxp)->gen_int(g, e);
		return;
	}
	BuiltinGen fn = (size_t)e->aux2 < sizeof(builtin_int) / sizeof(builtin_int[0]) ? builtin_int[e->aux2]
									       : NULL;
	if (fn)
		fn(g, e);
	else /* the dialect's own */
		codegen_hooks(g->sc)->builtin_int(g, e);
}

/* depth: the frames recorded (the stack map of that depth, see loader.c) */
static void gen_stackid_into(Gen *g, bool user, RelocKind map, int depth, int dst_off)
{
	if (user) {
		emit_call(g, BPF_FUNC_get_current_pid_tgid);
		emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
		emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, dst_off + 8);
	}
	emit(g, I_MOV64_REG(BPF_REG_1, R_CTX));
	emit_ld_map(g, BPF_REG_2, map, depth);
	emit(g, I_MOV64_IMM(BPF_REG_3, user ? BPF_F_USER_STACK : 0));
	emit_call(g, BPF_FUNC_get_stackid);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, dst_off);
}

void gen_stack_into(Gen *g, bool user, int depth, int dst_off)
{
	gen_stackid_into(g, user, user ? R_USTACK : R_KSTACK, depth, dst_off);
}

void gen_build_id_stack_into(Gen *g, int depth, int dst_off)
{
	gen_stackid_into(g, true, R_BSTACK, depth, dst_off);
}

/* The group's probe names, one fixed-size slot each, in the read-only map. */
static int group_names_table(Gen *g, int *slot)
{
	const ProbeSpec *sp = g->spec;
	int longest = 0;
	for (int i = 0; i < sp->group_n; i++)
		if ((int)strlen(sp[i].name) > longest)
			longest = (int)strlen(sp[i].name);
	*slot = (longest + 1 + 7) & ~7;
	if (!g->group_table) {
		char *t = xcalloc((size_t)sp->group_n, (size_t)*slot);
		for (int i = 0; i < sp->group_n; i++)
			memcpy(t + (size_t)i * (size_t)*slot, sp[i].name, strlen(sp[i].name));
		g->group_table = 1 + script_rodata_bytes(g->sc, t, (size_t)sp->group_n * (size_t)*slot);
		free(t);
	}
	return g->group_table - 1;
}

/* probe/func in a program shared by a group of kprobes: the BPF cookie is
 * the spec's index in the group, its name is read from the table. */
static void gen_group_name_into(Gen *g, bool func, int dst_off, const Type *dt)
{
	int slot, table = group_names_table(g, &slot);
	const char *name = g->spec->name, *colon = strrchr(name, ':');
	int skip = func && colon ? (int)(colon + 1 - name) : 0;
	int n = slot - skip < dt->size ? slot - skip : dt->size;
	int ok = label_new(g);
	emit(g, I_MOV64_REG(BPF_REG_1, R_CTX));
	emit_call(g, BPF_FUNC_get_attach_cookie);
	emit_jmp_imm(g, BPF_JLT, BPF_REG_0, g->spec->group_n, ok);
	emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	label_place(g, ok);
	emit(g, I_ALU64_IMM(BPF_MUL, BPF_REG_0, slot));
	emit_ld_map_value(g, BPF_REG_3, R_RODATA, table + skip);
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_3, BPF_REG_0));
	emit_scratch_ptr(g, BPF_REG_1, dst_off);
	emit(g, I_MOV64_IMM(BPF_REG_2, n));
	emit_call(g, BPF_FUNC_probe_read_kernel);
	emit_memzero(g, dst_off + n, dt->size - n);
}

/* a usym value: the address in R0, then the process it belongs to (its
 * symbols are resolved in that process's maps when printed) */
void gen_usym_store(Gen *g, int dst_off)
{
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, dst_off);
	emit_call(g, BPF_FUNC_get_current_pid_tgid);
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, dst_off + 8);
}

void gen_builtin_into(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	switch (e->aux2) {
	case B_COMM:
		/* the helper pads with zeros up to the size it is given */
		emit_scratch_ptr(g, BPF_REG_1, dst_off);
		emit(g, I_MOV64_IMM(BPF_REG_2, 16));
		emit_call(g, BPF_FUNC_get_current_comm);
		emit_memzero(g, dst_off + 16, dt->size - 16);
		return;
	case B_PROBE:
	case B_FUNC: {
		if (e->type->kind == TY_USYM) { /* BPFTRACE_NO_USER_SYMBOLS=1: usym(reg("ip")) */
			emit(g, I_LDX(BPF_DW, BPF_REG_0, R_CTX, pt_regs_offset("ip")));
			gen_usym_store(g, dst_off);
			return;
		}
		if (g->spec->group_n > 1) {
			gen_group_name_into(g, e->aux2 == B_FUNC, dst_off, dt);
			return;
		}
		const char *name = e->aux2 == B_FUNC ? g->spec->func : g->spec->name;
		int n = (int)strlen(name) < dt->size ? (int)strlen(name) : dt->size - 1;
		emit_store_bytes(g, dst_off, name, n);
		emit_memzero(g, dst_off + n, dt->size - n);
		return;
	}
	case B_DPROBE: /* the dialect's own */
		codegen_hooks(g->sc)->builtin_into(g, e, dst_off, dt);
		return;
	case B_KSTACK:
	case B_USTACK:
		if (e->type->stack_mode == STACK_BUILD_ID)
			gen_build_id_stack_into(g, e->type->stack_depth, dst_off);
		else
			gen_stack_into(g, e->aux2 == B_USTACK, e->type->stack_depth, dst_off);
		return;
	case B_USERNAME: /* the uid; its name is looked up when printed */
		b_uid(g, e);
		emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, dst_off);
		return;
	case B_FAMILY: {
		const BuiltinDef *b = e->auxp;
		b->gen_into(g, e, dst_off, dt);
		return;
	}
	default:
		emit_memzero(g, dst_off, dt->size);
	}
}

/* --- events ------------------------------------------------------------ */

EventDesc *event_new(Gen *g, EventKind kind, int nargs)
{
	EventDesc *ev = arena_alloc(&g->sc->arena, sizeof(EventDesc));
	ev->kind = kind;
	ev->nargs = nargs;
	ev->argt = arena_alloc(&g->sc->arena, sizeof(Type *) * (size_t)(nargs ? nargs : 1));
	ev->argoff = arena_alloc(&g->sc->arena, sizeof(int) * (size_t)(nargs ? nargs : 1));
	ev->size = 8;
	g->sc->traced_events |= !g->spec->prov->is_special;
	/* ERROR's too: a fault in END runs it while the others' records are ignored */
	ev->from_end = g->spec->prov->is_special == SPECIAL_END ||
		       g->spec->prov->is_special == SPECIAL_ERROR;
	vec_push(&g->sc->events, ev);
	return ev;
}

/* lost map += 1 (this CPU's slot) */
void gen_count_lost(Gen *g)
{
	int ok = label_new(g);
	emit_ld_map(g, BPF_REG_1, R_LOST, 0);
	emit_ld_map_value(g, BPF_REG_2, R_ZERO, 0);
	emit_call(g, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, ok);
	emit(g, I_MOV64_IMM(BPF_REG_1, 1));
	emit(g, I_ATOMIC_ADD64(BPF_REG_0, BPF_REG_1, 0));
	label_place(g, ok);
}

/* bpf_ringbuf_output; a failed output is counted in the lost map.
 * Streamed events do not wake the reader: a wake-up per event costs the
 * traced program more than the event itself, and the reader polls every
 * few milliseconds anyway.  exit() and BEGIN/END events wake it at once. */
void gen_event_send(Gen *g, int rec_off, int size, bool urgent)
{
	bool wake = urgent || g->spec->prov->is_special;
	g->sc->lazy_events |= !wake;
	const CodegenHooks *h = codegen_hooks(g->sc);
	if (h->record_send)
		h->record_send(g, rec_off, size, wake);
	else
		gen_ringbuf_output(g, rec_off, size, wake);
}

void gen_ringbuf_output(Gen *g, int rec_off, int size, bool wake)
{
	int ok = label_new(g);
	emit_ld_map(g, BPF_REG_1, R_RINGBUF, 0);
	emit_scratch_ptr(g, BPF_REG_2, rec_off);
	emit(g, I_MOV64_IMM(BPF_REG_3, size));
	emit(g, I_MOV64_IMM(BPF_REG_4, wake ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP));
	emit_call(g, BPF_FUNC_ringbuf_output);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, ok);
	gen_count_lost(g);
	label_place(g, ok);
}

/* a record must fit the smallest ring buffer (512 KiB) with room to spare */
#define EVENT_MAX (256 << 10)

/* An event whose arguments are call->args[first..]: print(value),
 * unwatch(), D's exit(N), trunc(), normalize(). */
EventDesc *gen_args_event(Gen *g, EventKind kind, const Expr *call, int first)
{
	int n = call->args.n - first;
	EventDesc *ev = event_new(g, kind, n);
	int idx = g->sc->events.n - 1; /* the arguments may add events (-k checks) */
	for (int i = 0; i < n; i++) {
		ev->argt[i] = call->args.v[first + i]->type;
		ev->argoff[i] = ev->size;
		ev->size += (ev->argt[i]->size + 7) & ~7;
	}
	if (ev->size > EVENT_MAX)
		error_at(g->err, call->loc, "%s(): %d bytes of arguments are too large for one event "
			 "(the limit is %d)", call->func->name, ev->size - 8, EVENT_MAX - 8);
	int mark = g->scratch_top;
	int rec = scratch_alloc(g, ev->size);
	for (int i = 0; i < n; i++)
		gen_into(g, call->args.v[first + i], rec + ev->argoff[i], ev->argt[i]);
	emit_ld_imm64(g, BPF_REG_1, (uint64_t)idx);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_1, rec);
	gen_event_send(g, rec, ev->size, false);
	g->scratch_top = mark;
	return ev;
}

/* printf, cat, system: the arguments after the format (argument 0), which
 * the runtime renders them with */
EventDesc *gen_format_event(Gen *g, EventKind kind, const Expr *call)
{
	EventDesc *ev = gen_args_event(g, kind, call, 1);
	ev->fmt = call->args.v[0]->auxp;
	return ev;
}

void gen_simple_event(Gen *g, EventDesc *ev)
{
	int mark = g->scratch_top;
	int rec = scratch_alloc(g, 8);
	emit_st(g, BPF_DW, R_SCR, rec, g->sc->events.n - 1);
	gen_event_send(g, rec, 8, ev->kind == EV_EXIT);
	g->scratch_top = mark;
}

int cg_literal_int(const Expr *e)
{
	if (e->kind == E_UNOP && e->op == OP_NEG)
		return -(int)e->a->ival;
	return (int)e->ival;
}

void gen_call_stmt(Gen *g, const Expr *e)
{
	if (e->func->gen_stmt)
		e->func->gen_stmt(g, e);
}

/* --- value-returning functions ------------------------------------------ */

void gen_call_int(Gen *g, const Expr *e)
{
	if (e->func->gen_int)
		e->func->gen_int(g, e);
	else
		emit(g, I_MOV64_IMM(BPF_REG_0, 0));
}

void gen_call_into(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	if (e->func->gen_into)
		e->func->gen_into(g, e, dst_off, dt);
	else
		emit_memzero(g, dst_off, dt->size);
}
