/* The small emit helpers the BPF programs of sonde trace share: map
 * lookups, the scratch record and its header, ring-buffer output. */
#include "bpfgen.h"

void ld_map(BpfCode *g, int reg, int map)
{
	bpf_emit_ld_map(g, reg, R_MAP, map);
}

/* r0 = tg_lookup(map, r10+keyoff); goto out if NULL */
void tg_lookup(BpfCode *g, int map, int keyoff, int out)
{
	ld_map(g, BPF_REG_1, map);
	bpf_emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_10));
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, keyoff));
	bpf_emit_call(g, BPF_FUNC_map_lookup_elem);
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, out);
}

/* goto out unless the process whose tgid is the u32 at r10+keyoff is
 * traced: in the pid set; system-wide (all), any process the set does not
 * hold with 0 (sonde itself) */
void tg_traced(BpfCode *g, bool all, int keyoff, int out)
{
	if (!all) {
		tg_lookup(g, TM_PIDS, keyoff, out);
		return;
	}
	int traced = bpf_label_new(g);
	ld_map(g, BPF_REG_1, TM_PIDS);
	bpf_emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_10));
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, keyoff));
	bpf_emit_call(g, BPF_FUNC_map_lookup_elem);
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, traced);
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_0, 0));
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, out);
	bpf_label_place(g, traced);
}

/* One scratch slot per CPU in a plain array (a per-CPU array value is
 * limited to 32 KiB, too small for -s 4096 captures). */
void tg_scratch(BpfCode *g, int out)
{
	bpf_emit_call(g, BPF_FUNC_get_smp_processor_id);
	bpf_emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_0, S_IDX));
	tg_lookup(g, TM_SCRATCH, S_IDX, out);
	bpf_emit(g, I_MOV64_REG(R_SCR, BPF_REG_0));
}

/* header fields every record has: type, tid, tgid, len 0, caps 0 */
void hdr_common(BpfCode *g, int type)
{
	bpf_emit(g, I_ST(BPF_H, R_SCR, H_TYPE, type));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_PIDTGID));
	bpf_emit(g, I_STX(BPF_W, R_SCR, BPF_REG_1, H_TID));
	bpf_emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_1, 32));
	bpf_emit(g, I_STX(BPF_W, R_SCR, BPF_REG_1, H_TGID));
	bpf_emit(g, I_ST(BPF_W, R_SCR, H_LEN, 0));
	for (int o = H_CAP; o < H_AUX; o += 4)
		bpf_emit(g, I_ST(BPF_W, R_SCR, o, 0));
	bpf_emit(g, I_ST(BPF_W, R_SCR, H_AUX, 0));
}

/* r4 = the wake-up flag of a record: none (the reader polls every few
 * ms), unless the ring is filling up: then each record wakes it. */
void wake_flags(BpfCode *g)
{
	int quiet = bpf_label_new(g);
	ld_map(g, BPF_REG_1, TM_RING);
	bpf_emit(g, I_MOV64_IMM(BPF_REG_2, BPF_RB_AVAIL_DATA));
	bpf_emit_call(g, BPF_FUNC_ringbuf_query);
	bpf_emit(g, I_MOV64_IMM(BPF_REG_4, BPF_RB_NO_WAKEUP));
	bpf_emit_jmp_imm(g, BPF_JLT, BPF_REG_0, WAKE_AT, quiet);
	bpf_emit(g, I_MOV64_IMM(BPF_REG_4, BPF_RB_FORCE_WAKEUP));
	bpf_label_place(g, quiet);
}

/* lost[0] += 1, then on to next */
void count_lost(BpfCode *g, int next)
{
	bpf_emit(g, I_ST(BPF_W, BPF_REG_10, S_IDX, 0));
	tg_lookup(g, TM_LOST, S_IDX, next);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, 0));
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_0, BPF_REG_1, 0));
}

/* ringbuf_output(r7, size in reg); count a loss on failure */
void tg_output(BpfCode *g, int size_reg, int size_imm)
{
	wake_flags(g);
	ld_map(g, BPF_REG_1, TM_RING);
	bpf_emit(g, I_MOV64_REG(BPF_REG_2, R_SCR));
	if (size_reg >= 0)
		bpf_emit(g, I_MOV64_REG(BPF_REG_3, size_reg));
	else
		bpf_emit(g, I_MOV64_IMM(BPF_REG_3, size_imm));
	bpf_emit_call(g, BPF_FUNC_ringbuf_output);
	int ok = bpf_label_new(g);
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, ok);
	count_lost(g, ok);
	bpf_label_place(g, ok);
}

void finish_exit(BpfCode *g, int out)
{
	bpf_label_place(g, out);
	bpf_emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	bpf_emit(g, I_EXIT());
}

/* S_REGS = the current task's struct pt_regs (a BTF pointer: loads through
 * it need no helper) */
void current_regs(BpfCode *g)
{
	bpf_emit_call(g, BPF_FUNC_get_current_task_btf);
	bpf_emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
	bpf_emit_call(g, BPF_FUNC_task_pt_regs);
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, S_REGS));
}

/* Whether calls need their entry time and duration: not for a plain live
 * trace without timestamps (each clock read is a visible part of a call's
 * cost); ts and dur are then 0. */
bool need_time(const TraceOpts *o)
{
	return o->record_path || o->tstamp || o->relative || o->show_time || o->count ||
	       o->count_and_print || o->min_dur_ns || o->hist;
}
