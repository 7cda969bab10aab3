/* One BPF program per concrete probe: prologue, predicate, statements. */
#include <signal.h>
#include <string.h>

#include "codegen.h"

/* `p += n` on a pointer: r0 (n) times the pointee's size */
void gen_scale_step(Gen *g, Op op, const Type *target)
{
	int step = sema_ctype_step(target);
	if ((op == OP_ADD || op == OP_SUB) && step > 1)
		emit(g, I_ALU64_IMM(BPF_MUL, BPF_REG_0, step));
}

static void gen_var_assign(Gen *g, const Stmt *st)
{
	const VarInfo *v = st->target->var;
	if (st->op == OP_NONE && v->type->kind == TY_INT) {
		gen_int(g, st->expr);
		gen_cast_r0(g, v->type); /* D: the variable's own width */
		emit_stx(g, BPF_DW, cg_var_reg(v), BPF_REG_0, v->off);
		return;
	}
	if (st->op == OP_NONE && st->expr->kind == E_INT) { /* D: a struct zeroed */
		emit_memzero(g, v->off, v->type->size);
		return;
	}
	if (st->op == OP_NONE) {
		gen_into(g, st->expr, v->off, v->type);
		return;
	}
	gen_int(g, st->expr);
	gen_scale_step(g, st->op, v->type);
	if (st->op == OP_DIV || st->op == OP_MOD)
		cg_divisor_check(g, BPF_REG_0);
	emit_ldx(g, BPF_DW, BPF_REG_1, cg_var_reg(v), v->off);
	gen_alu_r1(g, cg_alu_of(st->op), cg_signed_div(g, v->type, st->expr->type));
	gen_cast_reg(g, BPF_REG_1, v->type);
	emit_stx(g, BPF_DW, cg_var_reg(v), BPF_REG_1, v->off);
}

/* `let $x;`: zero (S_LET; nothing for a variable never assigned) */
static void gen_let(Gen *g, const Stmt *st)
{
	const VarInfo *v = st->target->var;
	if (v && !v->type)
		return; /* declared, never used */
	if (v && v->type->kind == TY_INT)
		emit_st(g, BPF_DW, cg_var_reg(v), v->off, 0);
	else if (v)
		emit_memzero(g, v->off, v->type->size);
}

static void gen_assign(Gen *g, const Stmt *st)
{
	if (st->target->kind == E_VAR) {
		gen_var_assign(g, st);
		return;
	}
	if (st->target->kind != E_MAP) {
		gen_store_assign(g, st);
		return;
	}
	const Expr *v = st->expr;
	if (v->kind == E_CALL && v->func && v->func->kind == FK_AGG)
		gen_map_agg(g, st->target, v);
	else
		gen_map_assign(g, st);
}

static void gen_if(Gen *g, const Stmt *st)
{
	int els = label_new(g), end = label_new(g);
	gen_int(g, st->expr);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, els);
	gen_stmts(g, &st->body);
	emit_goto(g, end);
	label_place(g, els);
	gen_stmts(g, &st->els);
	label_place(g, end);
}

static void gen_while(Gen *g, const Stmt *st)
{
	int top = label_new(g), end = label_new(g);
	label_place(g, top);
	gen_int(g, st->expr);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, end);
	vec_push(&g->loop_break, end);
	vec_push(&g->loop_continue, top);
	gen_stmts(g, &st->body);
	g->loop_break.n--;
	g->loop_continue.n--;
	emit_goto(g, top);
	label_place(g, end);
}

static void gen_stmt(Gen *g, const Stmt *st)
{
	int mark = g->scratch_top;
	g->code.line = st->loc.line;
	g->loc = st->loc;
	switch (st->kind) {
	case S_EXPR:
		if (st->expr->kind == E_CALL && st->expr->func->kind == FK_STMT)
			gen_call_stmt(g, st->expr);
		else if (st->expr->type->kind == TY_INT)
			gen_int(g, st->expr);
		else
			gen_mem(g, st->expr);
		break;
	case S_ASSIGN:
		gen_assign(g, st);
		break;
	case S_IF:
		gen_if(g, st);
		break;
	case S_UNROLL:
		for (uint64_t i = 0; i < st->expr->ival; i++)
			gen_stmts(g, &st->body);
		break;
	case S_WHILE:
		gen_while(g, st);
		break;
	case S_BREAK:
		emit_goto(g, g->loop_break.v[g->loop_break.n - 1]);
		break;
	case S_CONTINUE:
		emit_goto(g, g->loop_continue.v[g->loop_continue.n - 1]);
		break;
	case S_RETURN:
		emit_goto(g, g->exit_label);
		break;
	case S_BLOCK:
		gen_stmts(g, &st->body);
		break;
	case S_FOR:
		gen_loop_stmt(g, st);
		break;
	case S_LET:
		gen_let(g, st);
		break;
	}
	g->scratch_top = mark;
}

void gen_stmts(Gen *g, const StmtList *l)
{
	for (int i = 0; i < l->n && !g->err->set; i++)
		gen_stmt(g, l->v[i]);
}

static void gen_prologue(Gen *g, bool traced_events)
{
	g->code.line = g->probe->loc.line;
	emit(g, I_MOV64_REG(R_CTX, BPF_REG_1));
	/* (a probe the kernel already limits to one process needs no check) */
	int only = g->sc->opt.target.maps_pid; /* -p */
	if (traced_events && only > 0 && g->spec->pid <= 0 && g->spec->prov->ctx != CTX_ITER &&
	    codegen_hooks(g->sc)->pid_filters_all) {
		emit_call(g, BPF_FUNC_get_current_pid_tgid);
		emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
		emit_jmp_imm(g, BPF_JNE, BPF_REG_0, only, g->exit_label);
	} else if (traced_events && g->sc->opt.self_pid && g->spec->pid <= 0 &&
		   probe_skips_self(g->spec)) {
		/* sonde's own system calls (its output writes) are not traced:
		 * otherwise every printed line would make another event */
		emit_call(g, BPF_FUNC_get_current_pid_tgid);
		emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
		emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, g->sc->opt.self_pid, g->exit_label);
	}
	if (traced_events && codegen_hooks(g->sc)->gate_probes) {
		emit_ld_map_value(g, BPF_REG_1, R_CONTROL, 0);
		emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_1, 0));
		emit_jmp_imm(g, BPF_JNE, BPF_REG_2, 0, g->exit_label);
		emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_1, CTL_RUN_STATE));
		emit_jmp_imm(g, BPF_JNE, BPF_REG_2, CTL_RUN_ACTIVE, g->exit_label);
	}
	emit_call(g, BPF_FUNC_get_smp_processor_id);
	emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_0, -8));
	emit_ld_map(g, BPF_REG_1, R_SCRATCH, 0);
	emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_10));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, -8));
	emit_call(g, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, g->bare_exit);
	emit(g, I_MOV64_REG(R_SCR, BPF_REG_0));
}

static void gen_free(Gen *g)
{
	bpf_code_free(&g->code);
	vec_free(&g->loop_break);
	vec_free(&g->loop_continue);
	vec_free(&g->loop_cbs);
	vec_free(&g->func_starts);
	vec_free(&g->firing_slots);
	vec_free(&g->faults);
}

static void prog_take(Gen *g, ProgCode *pc)
{
	pc->insns = g->code.insns.v;
	pc->ninsns = g->code.insns.n;
	pc->lines = g->code.lines.v;
	pc->relocs = g->code.relocs.v;
	pc->nrelocs = g->code.relocs.n;
	pc->funcs = g->func_starts.v;
	pc->nfuncs = g->func_starts.n;
	g->func_starts.v = NULL;
	g->func_starts.n = 0;
	g->code.insns.v = NULL;
	g->code.lines.v = NULL;
	g->code.relocs.v = NULL;
}

static ProgCode *prog_add(Gen *g, const Probe *p)
{
	ProgCode *pc = arena_alloc(&g->sc->arena, sizeof(ProgCode));
	pc->spec = g->spec;
	pc->probe = p;
	pc->fd = -1;
	pc->err_kind = pc->err_slot = -1; /* not an ERROR clause's */
	if (codegen_hooks(g->sc)->prog_slot)
		codegen_hooks(g->sc)->prog_slot(g, &pc->err_kind, &pc->err_slot);
	prog_take(g, pc);
	vec_push(&g->sc->progs, pc);
	return pc;
}

/* watchpoint:FUNC+argN: the uprobe on FUNC sends argN to user space (an
 * EV_WATCHPOINT record: index, address), which watches that address with
 * program wp_prog; the sync form stops the task until then. */
static bool gen_wp_setup(Script *sc, const Probe *p, const ProbeSpec *wp, int wp_prog,
			 Error *err)
{
	Gen g = {.sc = sc, .spec = wp->wp_setup, .probe = p, .err = err};
	g.code.line = p->loc.line;
	EventDesc *ev = event_new(&g, EV_WATCHPOINT, 0);
	ev->size = 16;
	ev->wp = wp;
	ev->wp_prog = wp_prog;
	emit(&g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_1, regs_arg_offset(wp->wp_arg)));
	emit(&g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_1, -8));
	emit_ld_imm64(&g, BPF_REG_1, (uint64_t)(sc->events.n - 1));
	emit(&g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_1, -16));
	emit_ld_map(&g, BPF_REG_1, R_RINGBUF, 0);
	emit(&g, I_MOV64_REG(BPF_REG_2, BPF_REG_10));
	emit(&g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, -16));
	emit(&g, I_MOV64_IMM(BPF_REG_3, 16));
	emit(&g, I_MOV64_IMM(BPF_REG_4, BPF_RB_FORCE_WAKEUP));
	emit_call(&g, BPF_FUNC_ringbuf_output);
	if (wp->prov->watch == WATCH_SYNC) {
		int out = label_new(&g);
		/* not sent: nobody would let the task go on */
		emit_jmp_imm(&g, BPF_JNE, BPF_REG_0, 0, out);
		emit(&g, I_MOV64_IMM(BPF_REG_1, SIGSTOP));
		emit_call(&g, BPF_FUNC_send_signal);
		label_place(&g, out);
	}
	emit(&g, I_MOV64_IMM(BPF_REG_0, 0));
	emit(&g, I_EXIT());
	bool ok = emit_finish(&g);
	if (ok)
		prog_add(&g, p);
	gen_free(&g);
	return ok;
}

bool codegen_probe(Script *sc, const Probe *p, const ProbeSpec *spec, VarInfo **vars,
		   int nvars, Error *err)
{
	Gen g = {.sc = sc, .spec = spec, .probe = p, .err = err};
	bool loops = codegen_has_loops(p);
	g.vars = vars;
	g.nvars = nvars;
	if (loops)
		codegen_loop_homes(p, vars, nvars);
	g.exit_label = label_new(&g);
	g.bare_exit = label_new(&g);
	gen_prologue(&g, !spec->prov->is_special && !spec->prov->run);
	const CodegenHooks *h = codegen_hooks(sc);
	if (h->clause_start)
		h->clause_start(&g);
	if (spec->prov->run) {
		/* an iterator calls its program once more at the end with no
		 * object (ctx->task etc., right after ctx->meta, is NULL):
		 * skip that call, as bpftrace does */
		emit(&g, I_LDX(BPF_DW, BPF_REG_0, R_CTX, 8));
		emit_jmp_imm(&g, BPF_JEQ, BPF_REG_0, 0, g.exit_label);
	}
	/* variables live in scratch for the whole program, zeroed so that a
	 * variable set on one path reads as 0/"" on another */
	for (int i = 0; i < nvars; i++) {
		if (!vars[i]->type)
			continue; /* `let $x;` of a variable never used */
		if (vars[i]->type->kind == TY_INT && vars[i]->loop)
			continue; /* on its loop's callback's stack (codegen_loop.c) */
		if (vars[i]->type->kind == TY_INT && !(loops && vars[i]->loop_shared)) {
			/* integer variables live on the stack (never popped),
			 * where the verifier tracks their values: a while loop
			 * over a variable is then provably bounded; those a
			 * for loop's body shares live in scratch */
			vars[i]->off = stack_push(&g);
			emit(&g, I_ST(BPF_DW, BPF_REG_10, vars[i]->off, 0));
			continue;
		}
		vars[i]->off = scratch_alloc(&g, vars[i]->type->size);
		emit_memzero(&g, vars[i]->off, vars[i]->type->size);
	}
	if (sc->uses_spec) { /* for the whole clause: speculate() sets it */
		g.spec_off = scratch_alloc(&g, 8);
		emit_st(&g, BPF_DW, R_SCR, g.spec_off, 0);
	}
	if (h->clause_scratch)
		h->clause_scratch(&g);
	if (p->pred) {
		g.code.line = p->pred->loc.line;
		gen_int(&g, p->pred);
		emit_jmp_imm(&g, BPF_JEQ, BPF_REG_0, 0, g.exit_label);
	}
	/* D: the firing's records go out at the end, also when a statement
	 * ends the clause early (its jumps to the exit land on the send) */
	int exit_label = g.exit_label;
	g.firing = h->firing_end != NULL;
	if (g.firing)
		g.exit_label = label_new(&g);
	if (h->clause_body)
		h->clause_body(&g, p);
	gen_stmts(&g, &p->body);
	if (g.firing) {
		label_place(&g, g.exit_label);
		h->firing_end(&g);
		g.exit_label = exit_label;
	}
	label_place(&g, g.exit_label);
	g.code.line = 0;
	if (h->clause_exit)
		h->clause_exit(&g);
	label_place(&g, g.bare_exit);
	emit(&g, I_MOV64_IMM(BPF_REG_0, 0));
	emit(&g, I_EXIT());
	if (h->prog_tail)
		h->prog_tail(&g);
	gen_loop_callbacks(&g);
	bool ok = !err->set && emit_finish(&g);
	if (ok) {
		prog_add(&g, p);
		if (g.scratch_max > sc->scratch_size)
			sc->scratch_size = g.scratch_max;
	}
	gen_free(&g);
	if (ok && spec->wp_setup)
		ok = gen_wp_setup(sc, p, spec, sc->progs.n - 1, err);
	return ok;
}
