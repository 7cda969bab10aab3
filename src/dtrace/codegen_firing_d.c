/* D: a firing's output as one ring-buffer record.
 *
 * dtrace(1) keeps each CPU's records in its own buffer, so one firing's
 * lines never mix with another's.  sonde's records share one ring buffer:
 * sent one by one, two CPUs' firings could interleave there.  In the D
 * dialect a clause's records (its heading, trace, printf, stack, printa,
 * exit ...) are instead copied into this CPU's firing buffer, each at its
 * own compile-time slot: a u64 "present" word, then the record.  At the
 * end of the clause the buffer goes out as one EV_D_FIRING record (when a
 * record is present), and the present words are cleared.  The reader hands
 * each present slot to the usual record handler, in clause order.
 *
 * The buffers are an array map indexed by CPU (like the scratch map, key
 * at fp-8), sized for the largest clause.  A clause that ends early (a
 * failed lookup) jumps to the send too; a fault drops the records.
 * Word 8 of the buffer says "something present". */
#include <stdio.h>
#include <string.h>

#include "codegen_d.h"
#include "dfunc.h"

/* beyond this a record is sent alone, as in the bpftrace dialect */
#define FIRING_MAX (192 << 10)

/* r0 = this CPU's firing buffer; NULL jumps to `none` */
static void firing_ptr(Gen *g, int none)
{
	emit_ld_map(g, BPF_REG_1, R_FIRING, 0);
	emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_10));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, -8));
	emit_call(g, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, none);
}

bool dfiring_add(Gen *g, int rec_off, int size, bool wake)
{
	if (!g->firing_size)
		g->firing_size = 16; /* the EV_D_FIRING index, "something present" */
	int slot = g->firing_size, rounded = (size + 7) & ~7;
	if (slot + 8 + rounded > FIRING_MAX)
		return false;
	g->firing_size += 8 + rounded;
	g->firing_wake |= wake;
	vec_push(&g->firing_slots, slot);
	vec_push(&g->firing_slots, size);
	int none = label_new(g);
	firing_ptr(g, none);
	emit(g, I_MOV64_IMM(BPF_REG_1, 1));
	emit(g, I_STX(BPF_DW, BPF_REG_0, BPF_REG_1, 8)); /* something present */
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, slot));
	emit(g, I_MOV64_IMM(BPF_REG_2, 1));
	emit(g, I_STX(BPF_DW, BPF_REG_1, BPF_REG_2, 0)); /* this slot present */
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 8));
	emit(g, I_MOV64_IMM(BPF_REG_2, size));
	emit_scratch_ptr(g, BPF_REG_3, rec_off);
	emit_call(g, BPF_FUNC_probe_read_kernel);
	label_place(g, none);
	return true;
}

/* r0 = the firing buffer: "something present" and every slot's mark to 0 */
static void clear_marks(Gen *g)
{
	emit(g, I_ST(BPF_DW, BPF_REG_0, 8, 0));
	for (int i = 0; i < g->firing_slots.n; i += 2) { /* slots past 32 KiB: through r1 */
		emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
		emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, g->firing_slots.v[i]));
		emit(g, I_ST(BPF_DW, BPF_REG_1, 0, 0));
	}
}

/* The end of the clause: the buffer out as one record, then cleared. */
void dfiring_end(Gen *g)
{
	int nslots = g->firing_slots.n / 2;
	if (!nslots)
		return;
	EventDesc *ev = event_new(g, EV_D_FIRING, nslots);
	ev->size = g->firing_size;
	ev->slot_size = arena_alloc(&g->sc->arena, sizeof(int) * (size_t)nslots);
	for (int i = 0; i < nslots; i++) {
		ev->argoff[i] = g->firing_slots.v[2 * i];
		ev->slot_size[i] = g->firing_slots.v[2 * i + 1];
	}
	if (g->firing_size > g->sc->firing_size)
		g->sc->firing_size = g->firing_size;
	int none = label_new(g), ok = label_new(g), out = stack_push(g);
	firing_ptr(g, none);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, 8));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, none);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, out));
	emit_ld_imm64(g, BPF_REG_1, (uint64_t)(g->sc->events.n - 1));
	emit(g, I_STX(BPF_DW, BPF_REG_0, BPF_REG_1, 0));
	emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_0));
	emit_ld_map(g, BPF_REG_1, R_RINGBUF, 0);
	emit(g, I_MOV64_IMM(BPF_REG_3, g->firing_size));
	emit(g, I_MOV64_IMM(BPF_REG_4, g->firing_wake || g->spec->prov->is_special
					? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP));
	emit_call(g, BPF_FUNC_ringbuf_output);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, ok);
	gen_count_lost(g);
	label_place(g, ok);
	emit(g, I_LDX(BPF_DW, BPF_REG_0, BPF_REG_10, out));
	clear_marks(g);
	label_place(g, none);
	stack_pop(g);
}

/* A fault: the clause's records are dropped, as DTrace drops a faulting
 * clause's buffered data (codegen_fault_d.c). */
void dfiring_discard(Gen *g)
{
	if (!g->firing_slots.n)
		return;
	int none = label_new(g);
	firing_ptr(g, none);
	clear_marks(g);
	label_place(g, none);
}

/* D, not quiet: the firing's "CPU ID FUNCTION:NAME" columns; the runtime
 * prints the heading before the first and ends each firing's line. */
void gen_d_probe_event(Gen *g)
{
	const DProbeName *d = g->spec->ap ? g->spec->ap->d : NULL;
	EventDesc *ev = event_new(g, EV_D_PROBE, 0);
	ev->top = d ? d->id : 0;
	char *fn = arena_alloc(&g->sc->arena, 256);
	snprintf(fn, 256, "%s:%s", d ? d->func : "", d ? d->name : "");
	ev->text = fn;
	ev->text2 = d ? d->prov : ""; /* flowindent: syscall's arrows are => and <= */
	ev->size = 16;
	int mark = g->scratch_top;
	int rec = scratch_alloc(g, 16);
	emit_st(g, BPF_DW, R_SCR, rec, g->sc->events.n - 1);
	emit_call(g, BPF_FUNC_get_smp_processor_id);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, rec + 8);
	gen_event_send(g, rec, 16, false);
	g->scratch_top = mark;
}

/* does the clause call speculate() (DTrace puts it before any record) */
static bool speculates(const StmtList *l)
{
	for (int i = 0; i < l->n; i++) {
		const Expr *e = l->v[i]->expr;
		if (l->v[i]->kind == S_EXPR && e && e->kind == E_CALL && !strcmp(e->name, "speculate"))
			return true;
	}
	return false;
}

/* a speculating clause's heading is part of its speculation (DTrace
 * buffers the whole record, heading included, until commit()) */
void dfiring_clause_body(Gen *g, const Probe *p)
{
	g->heading_at_speculate = p->d_record && speculates(&p->body);
	if (p->d_record && !g->heading_at_speculate)
		gen_d_probe_event(g);
}

/* after speculate(): tagged for its buffer, or not sent at all; then sent
 * with the firing, or alone when it does not fit */
void dfiring_record_send(Gen *g, int rec_off, int size, bool wake)
{
	int skip = g->speculating ? dspec_tag_record(g, rec_off, size) : -1;
	if (!g->firing || !dfiring_add(g, rec_off, size, wake))
		gen_ringbuf_output(g, rec_off, size, wake);
	if (skip >= 0)
		label_place(g, skip);
}
