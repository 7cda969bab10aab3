/* A count/sum/avg/min/max map read as a number (bpftrace 0.26: `@c > 5`,
 * `$t = @s[k]`, print(@c[k])): every CPU's slot of the key, read with
 * bpf_map_lookup_percpu_elem (Linux 5.19) and combined as user space does
 * when it prints the map (runtime/map_print.c): counts and sums added,
 * avg the added totals over the added counts, min/max over the slots that
 * saw a value; 0 when no CPU has the key. */
#include <bpf/libbpf.h>

#include "codegen.h"

/* the slot at r0 into the running value (acc) and, for avg the count and
 * for min/max whether a value was seen (acc2); r1-r3 are free */
static void fold_slot(Gen *g, const Type *t, int acc, int acc2, int next)
{
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, 0));
	emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_10, acc));
	if (t->kind == TY_COUNT || t->kind == TY_SUM || t->kind == TY_AVG) {
		int first = t->kind == TY_AVG ? 8 : 0; /* avg: count, then total */
		if (first) {
			emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_10, acc2));
			emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_3, BPF_REG_1));
			emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_3, acc2));
			emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, first));
		}
		emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_2, BPF_REG_1));
		emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_2, acc));
		return;
	}
	/* min/max: value, then 1 once the CPU saw one */
	int take = label_new(g);
	emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_0, 8));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, 0, next);
	emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_10, acc2));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, 0, take);
	bool sign = t->is_signed, is_min = t->kind == TY_MIN;
	int keep = is_min ? (sign ? BPF_JSGE : BPF_JGE) : (sign ? BPF_JSLE : BPF_JLE);
	emit_jmp_reg(g, keep, BPF_REG_1, BPF_REG_2, next);
	label_place(g, take);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_1, acc));
	emit(g, I_ST(BPF_DW, BPF_REG_10, acc2, 1));
}

/* r0 = the combined value; avg divides (signed for a signed avg) */
static void agg_result(Gen *g, const Type *t, int acc, int acc2)
{
	emit(g, I_LDX(BPF_DW, BPF_REG_0, BPF_REG_10, acc));
	if (t->kind != TY_AVG)
		return;
	int done = label_new(g);
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
	emit(g, I_LDX(BPF_DW, BPF_REG_0, BPF_REG_10, acc2));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, done); /* no value: 0 */
	gen_divmod(g, BPF_DIV, t->is_signed);
	emit(g, I_MOV64_REG(BPF_REG_0, BPF_REG_1));
	label_place(g, done);
}

void gen_map_read_agg(Gen *g, const Expr *map)
{
	const MapInfo *m = map->map;
	int mark = g->scratch_top, key = gen_map_key(g, map);
	int cpu = stack_push(g), acc = stack_push(g), acc2 = stack_push(g);
	int ncpus = libbpf_num_possible_cpus();
	int loop = label_new(g), next = label_new(g), done = label_new(g);
	emit(g, I_ST(BPF_DW, BPF_REG_10, cpu, 0));
	emit(g, I_ST(BPF_DW, BPF_REG_10, acc, 0));
	emit(g, I_ST(BPF_DW, BPF_REG_10, acc2, 0));
	label_place(g, loop);
	emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_10, cpu));
	emit_jmp_imm(g, BPF_JGE, BPF_REG_3, ncpus > 0 ? ncpus : 1, done);
	emit_ld_map(g, BPF_REG_1, R_MAP, m->id);
	emit_scratch_ptr(g, BPF_REG_2, key);
	emit_call(g, BPF_FUNC_map_lookup_percpu_elem);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, next);
	fold_slot(g, m->val, acc, acc2, next);
	label_place(g, next);
	emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_10, cpu));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, 1));
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_3, cpu));
	emit_goto(g, loop);
	label_place(g, done);
	agg_result(g, m->val, acc, acc2);
	stack_pop(g);
	stack_pop(g);
	stack_pop(g);
	g->scratch_top = mark;
}
