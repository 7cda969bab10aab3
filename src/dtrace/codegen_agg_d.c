/* D's aggregating functions: bucket indexes of quantize and llquantize,
 * and stddev's running sums.  Each starts with r0 = this CPU's slot and
 * r1 = the value (see gen_map_agg), and may use r1-r5. */
#include "codegen_d.h"

/* r2 = floor(log2(r1)) for r1 >= 1 (unsigned); r1 is consumed */
/* r2 = floor(log2(r1)) for r1 >= 1 */
static void gen_floor_log2(Gen *g)
{
	emit(g, I_MOV64_IMM(BPF_REG_2, 0));
	bpf_emit_log2_search(&g->code, 32);
}

/* r1 = quantize bucket of r1 (types.h: QUANT_*): 0 in QUANT_ZERO, 2^k..
 * above it, -2^k.. below it, INT64_MIN in bucket 0 */
void gen_quantize_index(Gen *g)
{
	int neg = label_new(g), zero = label_new(g), done = label_new(g), low = label_new(g);
	emit_jmp_imm(g, BPF_JSLT, BPF_REG_1, 0, neg);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, zero);
	gen_floor_log2(g);
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_2));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, QUANT_ZERO + 1));
	emit_goto(g, done);
	label_place(g, neg);
	emit(g, I_NEG64(BPF_REG_1));
	gen_floor_log2(g);
	emit(g, I_MOV64_IMM(BPF_REG_1, QUANT_ZERO - 1));
	emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_1, BPF_REG_2));
	emit_jmp_imm(g, BPF_JSGE, BPF_REG_1, 0, done);
	label_place(g, low);
	emit(g, I_MOV64_IMM(BPF_REG_1, 0));
	emit_goto(g, done);
	label_place(g, zero);
	emit(g, I_MOV64_IMM(BPF_REG_1, QUANT_ZERO));
	label_place(g, done);
}

/* r1 = |v|'s distance from the middle bin of llquantize (0: |v| below
 * factor^low; half + 1: the overflow bin), one magnitude at a time from
 * the top: within magnitude m the bins are factor^(m+1) / steps wide. */
static void gen_llq_offset(Gen *g, const Type *t, int out)
{
	int f = t->llq_factor, steps = t->llq_steps, sf = steps / f, per = steps - sf;
	emit_ld_imm64(g, BPF_REG_2, llquant_pow((uint64_t)f, t->llq_high + 1));
	int in = label_new(g);
	emit_jmp_reg(g, BPF_JLT, BPF_REG_1, BPF_REG_2, in);
	emit(g, I_MOV64_IMM(BPF_REG_1, llquant_half(t) + 1));
	emit_goto(g, out);
	label_place(g, in);
	for (int m = t->llq_high; m >= t->llq_low; m--) {
		int next = label_new(g);
		emit_ld_imm64(g, BPF_REG_2, llquant_pow((uint64_t)f, m));
		emit_jmp_reg(g, BPF_JLT, BPF_REG_1, BPF_REG_2, next);
		if (m == 0 && steps > f) { /* bins narrower than 1: v * steps / f */
			emit(g, I_ALU64_IMM(BPF_MUL, BPF_REG_1, steps));
			emit(g, I_ALU64_IMM(BPF_DIV, BPF_REG_1, f));
		} else {
			emit_ld_imm64(g, BPF_REG_2, llquant_width(t, m));
			emit(g, I_ALU64_REG(BPF_DIV, BPF_REG_1, BPF_REG_2));
		}
		emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1 + (m - t->llq_low) * per - sf));
		emit_goto(g, out);
		label_place(g, next);
	}
	emit(g, I_MOV64_IMM(BPF_REG_1, 0));
}

/* r1 = llquantize bin of r1: the middle bin plus or minus the offset of |v| */
void gen_llquantize_index(Gen *g, const Type *t)
{
	int pos = label_new(g), out = label_new(g), minus = label_new(g), done = label_new(g);
	emit(g, I_MOV64_IMM(BPF_REG_4, 0));
	emit_jmp_imm(g, BPF_JSGE, BPF_REG_1, 0, pos);
	emit(g, I_NEG64(BPF_REG_1));
	emit(g, I_MOV64_IMM(BPF_REG_4, 1));
	label_place(g, pos);
	gen_llq_offset(g, t, out);
	label_place(g, out);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_4, 0, minus);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, llquant_half(t) + 1));
	emit_goto(g, done);
	label_place(g, minus);
	emit(g, I_NEG64(BPF_REG_1));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, llquant_half(t) + 1));
	label_place(g, done);
}

/* (r4 low, r5 high) += r3 << 32 as 128 bits, plus r3 >> 32 into r5 */
static void add_shifted(Gen *g)
{
	int nc = label_new(g);
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_3));
	emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_1, 32));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_4, BPF_REG_1));
	emit_jmp_reg(g, BPF_JGE, BPF_REG_4, BPF_REG_1, nc);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_5, 1));
	label_place(g, nc);
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_3));
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_1, 32));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_5, BPF_REG_1));
}

/* stddev: count += 1, total += v, and the 128-bit sum of squares += v*v
 * (|v| split in 32-bit halves: lo*lo + 2*(lo*hi << 32) + (hi*hi << 64)) */
void gen_stddev(Gen *g)
{
	int abs = label_new(g), nc = label_new(g);
	emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_0, 8));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_2, BPF_REG_1));
	emit(g, I_STX(BPF_DW, BPF_REG_0, BPF_REG_2, 8));
	emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_0, 0));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, 1));
	emit(g, I_STX(BPF_DW, BPF_REG_0, BPF_REG_2, 0));
	emit_jmp_imm(g, BPF_JSGE, BPF_REG_1, 0, abs);
	emit(g, I_NEG64(BPF_REG_1));
	label_place(g, abs);
	emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_1));
	emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_2, 32));
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_2, 32)); /* lo */
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_1, 32)); /* hi */
	emit(g, I_MOV64_REG(BPF_REG_4, BPF_REG_2));
	emit(g, I_ALU64_REG(BPF_MUL, BPF_REG_4, BPF_REG_2)); /* lo*lo */
	emit(g, I_MOV64_REG(BPF_REG_5, BPF_REG_1));
	emit(g, I_ALU64_REG(BPF_MUL, BPF_REG_5, BPF_REG_1)); /* hi*hi */
	emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_2));
	emit(g, I_ALU64_REG(BPF_MUL, BPF_REG_3, BPF_REG_1)); /* lo*hi */
	add_shifted(g);
	add_shifted(g);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, 16));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_4));
	emit(g, I_STX(BPF_DW, BPF_REG_0, BPF_REG_1, 16));
	emit_jmp_reg(g, BPF_JGE, BPF_REG_1, BPF_REG_4, nc);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_5, 1));
	label_place(g, nc);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, 24));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_5));
	emit(g, I_STX(BPF_DW, BPF_REG_0, BPF_REG_1, 24));
}

/* ---- the aggregation actions ---- */

/* printa([fmt, ]@a[, @b ...]) */
void dgen_printa(Gen *g, const Expr *e)
{
	EventDesc *ev = event_new(g, EV_PRINTA, 0);
	const Expr *f = e->args.v[0]->kind == E_STR ? e->args.v[0] : NULL;
	ev->nmaps = e->args.n - (f != NULL);
	ev->maps = arena_alloc(&g->sc->arena, sizeof(MapInfo *) * (size_t)ev->nmaps);
	for (int i = 0; i < ev->nmaps; i++)
		ev->maps[i] = e->args.v[(f != NULL) + i]->map;
	ev->map = ev->maps[0];
	ev->fmt = f ? f->auxp : NULL;
	ev->value_conv = f ? f->aux2 - 1 : -1;
	gen_simple_event(g, ev);
}

/* trunc(@a[, n]), normalize(@a, n), denormalize(@a): n travels in the
 * event, the map in its descriptor */
void dgen_trunc(Gen *g, const Expr *e)
{
	gen_args_event(g, EV_TRUNC, e, 1)->map = e->args.v[0]->map;
}

void dgen_normalize(Gen *g, const Expr *e)
{
	gen_args_event(g, EV_NORMALIZE, e, 1)->map = e->args.v[0]->map;
}

/* setopt(name[, value]): the runtime changes its printing options */
void dgen_setopt(Gen *g, const Expr *e)
{
	EventDesc *ev = event_new(g, EV_SETOPT, 0);
	ev->text = e->args.v[0]->sval;
	ev->text2 = e->args.n > 1 ? e->args.v[1]->sval : NULL;
	gen_simple_event(g, ev);
}
