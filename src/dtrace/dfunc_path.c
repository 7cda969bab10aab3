/* D's path subroutines: basename and dirname (below), and
 * cleanpath(str): the path with "//", "/./" and "x/.." removed, as
 * dtrace-utils cleans it (its tst.cleanpath.r): no trailing "/", a ".."
 * that has nothing to remove stays in a relative path and goes in a rooted
 * one ("/.." is "/"), a path that cleans to nothing is ".", "" stays "".
 *
 * One loop over the input bytes (the NUL or the buffer's end included),
 * one byte per pass: a byte joins the current component (written at once,
 * after a "/" unless the output is empty or just "/"); a "/" or the end
 * closes it: "." is taken back, ".." takes back the component before it
 * (the output's length before each kept component is on a list), anything
 * else is pushed on that list.  The position is on the stack, where the
 * verifier follows it; the rest is in scratch, where it does not, so the
 * paths through one pass prune at the next. */
#include "../compile/codegen.h"
#include "dfunc.h"

#define CP_MAXCOMP 256 /* kept components remembered (each 2+ output bytes) */

typedef struct CleanVars {
	int os, ns;     /* the input's bytes */
	int dst, out;   /* the output and its size */
	int w, k, w0;   /* output length, components kept, w where this one began */
	int clen, dots; /* this component's length; 1 while all its bytes are '.' */
	int root;       /* 1 for a rooted path */
	int starts;     /* CP_MAXCOMP x 2 bytes: w0 of each kept component */
	int pos;        /* the input position (stack) */
} CleanVars;

static void ld(Gen *g, int reg, int slot)
{
	emit_ldx(g, BPF_DW, reg, R_SCR, slot);
}

static void st(Gen *g, int slot, int reg)
{
	emit_stx(g, BPF_DW, R_SCR, reg, slot);
}

/* output[w++] = byte in r2 when it fits (r3-r5 used) */
static void put_byte(Gen *g, const CleanVars *v)
{
	int full = label_new(g);
	ld(g, BPF_REG_3, v->w);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_3, v->out - 1, full);
	d_st_byte(g, BPF_REG_3, v->dst, BPF_REG_2, BPF_REG_4);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, 1));
	st(g, v->w, BPF_REG_3);
	label_place(g, full);
}

/* a component closed (r3 = its length, not 0) */
static void close_component(Gen *g, const CleanVars *v)
{
	int normal = label_new(g), back = label_new(g), done = label_new(g), dotdot = label_new(g);
	ld(g, BPF_REG_4, v->dots);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_4, 0, normal);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, 2, dotdot);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_3, 1, normal);
	label_place(g, back); /* "." (or a ".." at the root): taken back */
	ld(g, BPF_REG_4, v->w0);
	st(g, v->w, BPF_REG_4);
	emit_goto(g, done);
	label_place(g, dotdot);
	ld(g, BPF_REG_4, v->k);
	int none = label_new(g);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_4, 0, none);
	emit(g, I_ALU64_IMM(BPF_SUB, BPF_REG_4, 1));
	emit_jmp_imm(g, BPF_JGE, BPF_REG_4, CP_MAXCOMP, done);
	st(g, v->k, BPF_REG_4);
	emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_4, 1));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_4, R_SCR));
	emit_ldx(g, BPF_H, BPF_REG_4, BPF_REG_4, v->starts);
	st(g, v->w, BPF_REG_4);
	emit_goto(g, done);
	label_place(g, none); /* nothing to take back: kept unless rooted */
	ld(g, BPF_REG_4, v->root);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_4, 0, back);
	emit_goto(g, done);
	label_place(g, normal); /* a name: pushed */
	ld(g, BPF_REG_4, v->k);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_4, CP_MAXCOMP, done);
	emit(g, I_MOV64_REG(BPF_REG_5, BPF_REG_4));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_5, 1));
	st(g, v->k, BPF_REG_5);
	emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_4, 1));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_4, R_SCR));
	ld(g, BPF_REG_5, v->w0);
	emit_stx(g, BPF_H, BPF_REG_4, BPF_REG_5, v->starts);
	label_place(g, done);
}

/* a byte of a component (in r2): a new one starts with "/" when the
 * output holds more than the root */
static void add_byte(Gen *g, const CleanVars *v)
{
	int more = label_new(g), nosep = label_new(g), dot = label_new(g);
	ld(g, BPF_REG_3, v->clen);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_3, 0, more);
	ld(g, BPF_REG_4, v->w);
	st(g, v->w0, BPF_REG_4);
	emit_st(g, BPF_DW, R_SCR, v->dots, 1);
	ld(g, BPF_REG_5, v->root);
	emit_jmp_reg(g, BPF_JLE, BPF_REG_4, BPF_REG_5, nosep);
	emit(g, I_MOV64_REG(BPF_REG_0, BPF_REG_2));
	emit(g, I_MOV64_IMM(BPF_REG_2, '/'));
	put_byte(g, v);
	emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_0));
	label_place(g, nosep);
	ld(g, BPF_REG_3, v->clen);
	label_place(g, more);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, 1));
	st(g, v->clen, BPF_REG_3);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_2, '.', dot);
	emit_st(g, BPF_DW, R_SCR, v->dots, 0);
	label_place(g, dot);
	put_byte(g, v);
}

static void gen_cleanpath(Gen *g, const Expr *e, int dst, const Type *dt)
{
	int mark = g->scratch_top;
	CleanVars v = {.dst = dst, .out = e->type->size < dt->size ? e->type->size : dt->size};
	v.os = d_str_arg(g, e->args.v[0], &v.ns);
	v.w = d_slot(g), v.k = d_slot(g), v.w0 = d_slot(g), v.clen = d_slot(g);
	v.dots = d_slot(g), v.root = d_slot(g);
	v.starts = scratch_alloc(g, CP_MAXCOMP * 2);
	emit_memzero(g, dst, dt->size);
	int slots[] = {v.w, v.k, v.w0, v.clen, v.dots, v.root};
	for (unsigned i = 0; i < sizeof(slots) / sizeof(slots[0]); i++)
		emit_st(g, BPF_DW, R_SCR, slots[i], 0);
	int relative = label_new(g), loop = label_new(g), have = label_new(g);
	emit_ldx(g, BPF_B, BPF_REG_2, R_SCR, v.os);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_2, '/', relative);
	emit_st(g, BPF_B, R_SCR, dst, '/');
	emit_st(g, BPF_DW, R_SCR, v.w, 1);
	emit_st(g, BPF_DW, R_SCR, v.root, 1);
	label_place(g, relative);
	v.pos = stack_push(g);
	emit(g, I_ST(BPF_DW, BPF_REG_10, v.pos, 0));
	label_place(g, loop);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, v.pos));
	emit(g, I_MOV64_IMM(BPF_REG_2, 0));
	emit_jmp_imm(g, BPF_JGE, BPF_REG_1, v.ns, have);
	d_ld_byte(g, BPF_REG_2, BPF_REG_1, v.os);
	label_place(g, have);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_1, v.pos));
	int sep = label_new(g), next = label_new(g);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_2, '/', sep);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_2, 0, sep);
	add_byte(g, &v);
	emit_goto(g, loop);
	label_place(g, sep); /* r2 (the byte) survives close_component */
	ld(g, BPF_REG_3, v.clen);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, 0, next);
	emit_st(g, BPF_DW, R_SCR, v.clen, 0);
	close_component(g, &v);
	label_place(g, next);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_2, 0, loop);
	stack_pop(g);
	/* the NUL after what is kept; nothing kept of a non-empty path is "." */
	int nul = label_new(g), fin = label_new(g);
	ld(g, BPF_REG_1, v.w);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_1, 0, nul);
	emit_ldx(g, BPF_B, BPF_REG_2, R_SCR, v.os);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_2, 0, nul);
	emit_st(g, BPF_B, R_SCR, dst, '.');
	emit(g, I_MOV64_IMM(BPF_REG_1, 1));
	label_place(g, nul);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_1, v.out, fin);
	emit(g, I_MOV64_IMM(BPF_REG_2, 0));
	d_st_byte(g, BPF_REG_1, dst, BPF_REG_2, BPF_REG_3);
	label_place(g, fin);
	g->scratch_top = mark;
}

/* basename/dirname as dtrace.c: "" and "a" give "." for dirname, "/" and
 * "///" give "/", trailing slashes are ignored. */
static void gen_pathpart(Gen *g, const Expr *e, int dst, const Type *dt, bool dir)
{
	int mark = g->scratch_top;
	int ns, out = e->type->size < dt->size ? e->type->size : dt->size;
	int os = d_str_arg(g, e->args.v[0], &ns);
	int i = d_slot(g), lastbase = d_slot(g), firstbase = d_slot(g), lastdir = d_slot(g);
	int start = d_slot(g), count = d_slot(g);
	int dot = label_new(g), copy = label_new(g), end = label_new(g);
	emit_memzero(g, dst, dt->size);
	d_strlen(g, os, ns, BPF_REG_1);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, dot);
	emit(g, I_ALU64_IMM(BPF_SUB, BPF_REG_1, 1));
	d_st_slot(g, i, BPF_REG_1);
	/* three backward scans: over trailing slashes, the base, the slashes
	 * before it; each leaves its stop (or -1) in a slot */
	int slots[3] = {lastbase, firstbase, lastdir};
	for (int k = 0; k < 3; k++) {
		int loop = label_new(g), stop = label_new(g);
		d_ld_slot(g, BPF_REG_1, i);
		label_place(g, loop);
		emit_jmp_imm(g, BPF_JGE, BPF_REG_1, ns, stop); /* -1 too */
		d_ld_byte(g, BPF_REG_2, BPF_REG_1, os);
		emit_jmp_imm(g, k == 1 ? BPF_JEQ : BPF_JNE, BPF_REG_2, '/', stop);
		emit(g, I_ALU64_IMM(BPF_SUB, BPF_REG_1, 1));
		emit_goto(g, loop);
		label_place(g, stop);
		int neg = label_new(g), set = label_new(g);
		emit_jmp_imm(g, BPF_JSLT, BPF_REG_1, 0, neg);
		d_st_slot(g, i, BPF_REG_1);
		if (k == 1)
			emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
		emit_goto(g, set);
		label_place(g, neg);
		emit(g, I_MOV64_IMM(BPF_REG_1, -1));
		d_st_slot(g, i, BPF_REG_1);
		label_place(g, set);
		d_st_slot(g, slots[k], BPF_REG_1);
	}
	int haveslash = label_new(g), havebase = label_new(g);
	d_ld_slot(g, BPF_REG_1, lastbase);
	emit_jmp_imm(g, BPF_JSGE, BPF_REG_1, 0, haveslash);
	/* only slashes: "/" */
	emit_st(g, BPF_B, R_SCR, dst, '/');
	emit_goto(g, end);
	label_place(g, haveslash);
	d_ld_slot(g, BPF_REG_2, firstbase);
	emit_jmp_imm(g, BPF_JSGE, BPF_REG_2, 0, havebase);
	if (dir) {
		emit_goto(g, dot); /* no slash: "." */
	} else {
		emit(g, I_MOV64_IMM(BPF_REG_2, 0));
	}
	label_place(g, havebase);
	if (dir) {
		int some = label_new(g);
		d_ld_slot(g, BPF_REG_1, lastdir); /* "/base": "/" */
		emit_jmp_imm(g, BPF_JSGE, BPF_REG_1, 0, some);
		emit(g, I_MOV64_IMM(BPF_REG_1, 0));
		label_place(g, some);
		emit(g, I_MOV64_IMM(BPF_REG_2, 0));
	}
	/* copy [r2, r1] */
	d_st_slot(g, start, BPF_REG_2);
	emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_1, BPF_REG_2));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	d_st_slot(g, count, BPF_REG_1);
	emit_goto(g, copy);
	label_place(g, dot);
	emit_st(g, BPF_B, R_SCR, dst, '.');
	emit_goto(g, end);
	label_place(g, copy);
	d_copy_range(g, os, ns, start, count, dst, out);
	label_place(g, end);
	g->scratch_top = mark;
}

static void gen_basename(Gen *g, const Expr *e, int dst, const Type *dt)
{
	gen_pathpart(g, e, dst, dt, false);
}

static void gen_dirname(Gen *g, const Expr *e, int dst, const Type *dt)
{
	gen_pathpart(g, e, dst, dt, true);
}

/* D's path subroutines */
static const FuncDef path_funcs[] = {
	{"basename", FK_EXPR, 1, 1, dcheck_str1, FUNC_D, .gen_into = gen_basename},
	{"dirname", FK_EXPR, 1, 1, dcheck_str1, FUNC_D, .gen_into = gen_dirname},
	{"cleanpath", FK_EXPR, 1, 1, dcheck_str1, FUNC_D, .gen_into = gen_cleanpath},
};
BUILTINS(path_funcs)
