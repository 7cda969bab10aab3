/* D's string subroutines: strlen strjoin substr toupper tolower lltostr
 * strtok, with DTrace's semantics (the DTrace Guide; illumos dtrace.c for
 * the edge cases: substr with negative positions, lltostr in any base). */
#include <stdint.h>
#include <string.h>

#include "codegen_d.h"
#include "dfunc.h"

bool dcheck_strlen(Sema *s, Expr *c)
{
	if (!dsema_args_str(s, c, 1))
		return false;
	c->type = ty_int(s, 64, false);
	return true;
}

bool dcheck_strjoin(Sema *s, Expr *c)
{
	if (!dsema_args_str(s, c, 2))
		return false;
	c->type = dsema_string(s);
	return true;
}

bool dcheck_substr(Sema *s, Expr *c)
{
	if (!dsema_args_str(s, c, 1) || !dsema_arg_int(s, c, 1, "int"))
		return false;
	if (c->args.n > 2 && !dsema_arg_int(s, c, 2, "int"))
		return false;
	c->type = dsema_string(s);
	return true;
}

bool dcheck_str1(Sema *s, Expr *c)
{
	if (!dsema_args_str(s, c, 1))
		return false;
	c->type = dsema_string(s);
	return true;
}

/* strtok(s, delims): the continuation lives per thread (as DTrace keeps
 * it for strtok(NULL, ...)): the rest of the string in a map keyed by tid.
 * aux: STRTOK_GO_ON for strtok(NULL, ...), STRTOK_NO_DELIMS for a NULL
 * delimiter set (a fault when it runs, as in dtrace). */
#define STRTOK_MAP "self->strtok( )"
enum { STRTOK_GO_ON = 1, STRTOK_NO_DELIMS = 2 };

static bool is_null(const Expr *a)
{
	return a->kind == E_INT && a->ival == 0;
}

bool dcheck_strtok(Sema *s, Expr *c)
{
	c->aux = (is_null(c->args.v[0]) ? STRTOK_GO_ON : 0) |
		 (is_null(c->args.v[1]) ? STRTOK_NO_DELIMS : 0);
	for (int i = 0; i < 2; i++) {
		if (is_null(c->args.v[i]) && !sema_expr(s, c->args.v[i]))
			return false;
		if (!is_null(c->args.v[i]) && !dsema_arg_str_as(s, c, i, "char *"))
			return false;
	}
	c->type = dsema_string(s);
	c->map = script_map(s->sc, STRTOK_MAP, c->loc);
	c->map->key = ty_int(s, 64, false);
	c->map->val = c->type;
	return true;
}

bool dcheck_lltostr(Sema *s, Expr *c)
{
	if (!dsema_arg_int(s, c, 0, "int64_t"))
		return false;
	if (c->args.n > 1 && !dsema_arg_int(s, c, 1, "int"))
		return false;
	Expr *b = c->args.n > 1 ? c->args.v[1] : NULL;
	if (b && b->kind == E_INT && (b->ival < 2 || b->ival > 36))
		return sema_error(s, b->loc, "lltostr( ) base must be from 2 to 36");
	c->type = dsema_string(s);
	return true;
}

static void gen_strjoin(Gen *g, const Expr *e, int dst, const Type *dt)
{
	int mark = g->scratch_top;
	int na, nb, out = e->type->size < dt->size ? e->type->size : dt->size;
	int oa = d_str_arg(g, e->args.v[0], &na), ob = d_str_arg(g, e->args.v[1], &nb);
	int start = d_slot(g), count = d_slot(g), len = d_slot(g);
	emit_memzero(g, dst, dt->size);
	d_set_slot(g, start, 0);
	d_set_slot(g, count, out);
	d_copy_range(g, oa, na, start, count, dst, out);
	/* the second part goes after the first, whatever its length */
	d_strlen(g, dst, out, BPF_REG_1);
	d_st_slot(g, len, BPF_REG_1);
	int loop = label_new(g), end = label_new(g);
	d_ld_slot(g, BPF_REG_1, len); /* position in dst: forgotten, then bounded */
	emit(g, I_MOV64_IMM(BPF_REG_2, 0));
	label_place(g, loop);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_2, nb, end);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_1, out - 1, end);
	d_ld_byte(g, BPF_REG_3, BPF_REG_2, ob);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, 0, end);
	d_st_byte(g, BPF_REG_1, dst, BPF_REG_3, BPF_REG_4);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, 1));
	emit_goto(g, loop);
	label_place(g, end);
	g->scratch_top = mark;
}

/* substr(s, index[, length]) as dtrace.c: a negative index counts from the
 * end (and a length reaching into the string keeps its part), a negative
 * length leaves that many bytes off the end. */
static void gen_substr(Gen *g, const Expr *e, int dst, const Type *dt)
{
	int mark = g->scratch_top;
	int ns, out = e->type->size < dt->size ? e->type->size : dt->size;
	int os = d_str_arg(g, e->args.v[0], &ns);
	int idx = d_int_arg_slot(g, e->args.v[1]);
	int rem = e->args.n > 2 ? d_int_arg_slot(g, e->args.v[2]) : d_slot(g);
	int len = d_slot(g);
	if (e->args.n <= 2)
		d_set_slot(g, rem, g->sc->opt.strlen_max);
	emit_memzero(g, dst, dt->size);
	d_strlen(g, os, ns, BPF_REG_1);
	d_st_slot(g, len, BPF_REG_1);
	int check = label_new(g), empty = label_new(g),
	    posrem = label_new(g), copy = label_new(g);
	d_ld_slot(g, BPF_REG_1, idx);
	d_ld_slot(g, BPF_REG_2, rem);
	d_ld_slot(g, BPF_REG_3, len);
	emit_jmp_imm(g, BPF_JSGE, BPF_REG_1, 0, check);
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_3)); /* index += len */
	emit_jmp_imm(g, BPF_JSGE, BPF_REG_1, 0, check);
	emit(g, I_MOV64_REG(BPF_REG_4, BPF_REG_1));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_4, BPF_REG_2));
	emit_jmp_imm(g, BPF_JSLE, BPF_REG_4, 0, check);
	emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_4)); /* remaining += index */
	emit(g, I_MOV64_IMM(BPF_REG_1, 0));
	label_place(g, check);
	emit_jmp_imm(g, BPF_JSLT, BPF_REG_1, 0, empty);
	emit_jmp_reg(g, BPF_JSGE, BPF_REG_1, BPF_REG_3, empty);
	emit_jmp_imm(g, BPF_JSGE, BPF_REG_2, 0, posrem);
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_2, BPF_REG_3)); /* remaining += len - index */
	emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_2, BPF_REG_1));
	emit_goto(g, copy);
	label_place(g, posrem);
	emit(g, I_MOV64_REG(BPF_REG_4, BPF_REG_1));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_4, BPF_REG_2));
	emit_jmp_imm(g, BPF_JLE, BPF_REG_4, g->sc->opt.strlen_max, copy);
	emit(g, I_MOV64_IMM(BPF_REG_2, g->sc->opt.strlen_max));
	emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_2, BPF_REG_1));
	emit_goto(g, copy);
	label_place(g, empty);
	emit(g, I_MOV64_IMM(BPF_REG_2, 0));
	label_place(g, copy);
	d_st_slot(g, idx, BPF_REG_1);
	d_st_slot(g, rem, BPF_REG_2);
	d_copy_range(g, os, ns, idx, rem, dst, out);
	g->scratch_top = mark;
}

static void gen_case(Gen *g, const Expr *e, int dst, const Type *dt, bool upper)
{
	int mark = g->scratch_top;
	int ns, out = e->type->size < dt->size ? e->type->size : dt->size;
	int os = d_str_arg(g, e->args.v[0], &ns), start = d_slot(g), count = d_slot(g);
	int lo = upper ? 'a' : 'A', hi = upper ? 'z' : 'Z';
	emit_memzero(g, dst, dt->size);
	d_set_slot(g, start, 0);
	d_set_slot(g, count, out);
	d_copy_range(g, os, ns, start, count, dst, out);
	int loop = label_new(g), keep = label_new(g), end = label_new(g);
	emit(g, I_MOV64_IMM(BPF_REG_1, 0));
	label_place(g, loop);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_1, out, end);
	d_ld_byte(g, BPF_REG_2, BPF_REG_1, dst);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_2, 0, end);
	emit_jmp_imm(g, BPF_JLT, BPF_REG_2, lo, keep);
	emit_jmp_imm(g, BPF_JGT, BPF_REG_2, hi, keep);
	emit(g, I_ALU64_IMM(BPF_XOR, BPF_REG_2, 0x20));
	d_st_byte(g, BPF_REG_1, dst, BPF_REG_2, BPF_REG_3);
	label_place(g, keep);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	emit_goto(g, loop);
	label_place(g, end);
	g->scratch_top = mark;
}

static void gen_toupper(Gen *g, const Expr *e, int dst, const Type *dt)
{
	gen_case(g, e, dst, dt, true);
}

static void gen_tolower(Gen *g, const Expr *e, int dst, const Type *dt)
{
	gen_case(g, e, dst, dt, false);
}

/* lltostr(n[, base]): digits written backwards into a 66-byte buffer, then
 * copied out; base 10 is signed, 8 gets a leading 0 and 16 "0x" (as
 * dtrace.c).  A base outside 2..36 at run time gives "". */
#define LLTOSTR_BUF 72
static void gen_lltostr(Gen *g, const Expr *e, int dst, const Type *dt)
{
	int mark = g->scratch_top;
	int out = e->type->size < dt->size ? e->type->size : dt->size;
	int val = d_int_arg_slot(g, e->args.v[0]);
	int base = e->args.n > 1 ? d_int_arg_slot(g, e->args.v[1]) : d_slot(g);
	int buf = scratch_alloc(g, LLTOSTR_BUF), start = d_slot(g), count = d_slot(g);
	if (e->args.n < 2)
		d_set_slot(g, base, 10);
	emit_memzero(g, dst, dt->size);
	emit_memzero(g, buf, LLTOSTR_BUF);
	int bad = label_new(g), loop = label_new(g), digits = label_new(g);
	d_ld_slot(g, BPF_REG_2, base);
	emit_jmp_imm(g, BPF_JLT, BPF_REG_2, 2, bad);
	emit_jmp_imm(g, BPF_JGT, BPF_REG_2, 36, bad);
	d_ld_slot(g, BPF_REG_1, val);
	int pos_ok = label_new(g);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_2, 10, pos_ok);
	emit_jmp_imm(g, BPF_JSGE, BPF_REG_1, 0, pos_ok);
	emit(g, I_NEG64(BPF_REG_1));
	label_place(g, pos_ok);
	/* r1 value, r2 base, r3 position (from the end), r4 digit */
	emit(g, I_MOV64_IMM(BPF_REG_3, LLTOSTR_BUF - 2));
	label_place(g, loop);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, digits);
	emit_jmp_imm(g, BPF_JSLT, BPF_REG_3, 8, digits);
	emit(g, I_MOV64_REG(BPF_REG_4, BPF_REG_1));
	emit(g, I_ALU64_REG(BPF_MOD, BPF_REG_4, BPF_REG_2));
	emit(g, I_ALU64_REG(BPF_DIV, BPF_REG_1, BPF_REG_2));
	int letter = label_new(g), put = label_new(g);
	emit_jmp_imm(g, BPF_JGT, BPF_REG_4, 9, letter);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_4, '0'));
	emit_goto(g, put);
	label_place(g, letter);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_4, 'a' - 10));
	label_place(g, put);
	d_st_byte(g, BPF_REG_3, buf, BPF_REG_4, BPF_REG_5);
	emit(g, I_ALU64_IMM(BPF_SUB, BPF_REG_3, 1));
	emit_goto(g, loop);
	label_place(g, digits);
	/* prefixes, as dtrace.c adds them: 0x, 0 (octal, hex, zero), '-' */
	d_st_slot(g, start, BPF_REG_3);
	d_ld_slot(g, BPF_REG_1, val);
	d_ld_slot(g, BPF_REG_2, base);
	int nothex = label_new(g), nozero = label_new(g), noneg = label_new(g),
	    nonzerohex = label_new(g), zero = label_new(g);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_2, 16, nothex);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_1, 0, nonzerohex);
	emit_st(g, BPF_B, R_SCR, buf + LLTOSTR_BUF - 2, '0');
	emit_st(g, BPF_B, R_SCR, buf + LLTOSTR_BUF - 3, 'x');
	emit_st(g, BPF_B, R_SCR, buf + LLTOSTR_BUF - 4, '0');
	emit(g, I_MOV64_IMM(BPF_REG_3, LLTOSTR_BUF - 5));
	emit_goto(g, noneg);
	label_place(g, nonzerohex);
	d_ld_slot(g, BPF_REG_3, start);
	emit_jmp_imm(g, BPF_JSLT, BPF_REG_3, 8, noneg);
	emit_jmp_imm(g, BPF_JGT, BPF_REG_3, LLTOSTR_BUF - 1, noneg);
	emit(g, I_MOV64_IMM(BPF_REG_4, 'x'));
	d_st_byte(g, BPF_REG_3, buf, BPF_REG_4, BPF_REG_5);
	emit(g, I_ALU64_IMM(BPF_SUB, BPF_REG_3, 1));
	emit(g, I_MOV64_IMM(BPF_REG_4, '0'));
	d_st_byte(g, BPF_REG_3, buf, BPF_REG_4, BPF_REG_5);
	emit(g, I_ALU64_IMM(BPF_SUB, BPF_REG_3, 1));
	emit_goto(g, noneg);
	label_place(g, nothex);
	d_ld_slot(g, BPF_REG_3, start);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, zero);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_2, 8, nozero);
	label_place(g, zero);
	emit_jmp_imm(g, BPF_JSLT, BPF_REG_3, 8, noneg);
	emit_jmp_imm(g, BPF_JGT, BPF_REG_3, LLTOSTR_BUF - 1, noneg);
	emit(g, I_MOV64_IMM(BPF_REG_4, '0'));
	d_st_byte(g, BPF_REG_3, buf, BPF_REG_4, BPF_REG_5);
	emit(g, I_ALU64_IMM(BPF_SUB, BPF_REG_3, 1));
	label_place(g, nozero);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_2, 10, noneg);
	emit_jmp_imm(g, BPF_JSGE, BPF_REG_1, 0, noneg);
	emit_jmp_imm(g, BPF_JSLT, BPF_REG_3, 8, noneg);
	emit_jmp_imm(g, BPF_JGT, BPF_REG_3, LLTOSTR_BUF - 1, noneg);
	emit(g, I_MOV64_IMM(BPF_REG_4, '-'));
	d_st_byte(g, BPF_REG_3, buf, BPF_REG_4, BPF_REG_5);
	emit(g, I_ALU64_IMM(BPF_SUB, BPF_REG_3, 1));
	label_place(g, noneg);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, 1));
	d_st_slot(g, start, BPF_REG_3);
	d_set_slot(g, count, out);
	d_copy_range(g, buf, LLTOSTR_BUF, start, count, dst, out);
	label_place(g, bad); /* "" */
	g->scratch_top = mark;
}

/* scratch[bits + (c >> 3)] bit (c & 7) into r4 (0 or 1); c in reg */
static void delim_bit(Gen *g, int bits, int c)
{
	emit(g, I_MOV64_REG(BPF_REG_4, c));
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_4, 3));
	d_ld_byte(g, BPF_REG_4, BPF_REG_4, bits);
	emit(g, I_MOV64_REG(BPF_REG_5, c));
	emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_5, 7));
	emit(g, I_ALU64_REG(BPF_RSH, BPF_REG_4, BPF_REG_5));
	emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_4, 1));
}

/* the delimiters as a 256-bit set, as dtrace.c builds its token map */
static int delim_set(Gen *g, const Expr *delims)
{
	int nd, od = d_str_arg(g, delims, &nd), bits = scratch_alloc(g, 32);
	int loop = label_new(g), end = label_new(g);
	emit_memzero(g, bits, 32);
	emit(g, I_MOV64_IMM(BPF_REG_1, 0));
	label_place(g, loop);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_1, nd, end);
	d_ld_byte(g, BPF_REG_2, BPF_REG_1, od);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_2, 0, end);
	emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_2));
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_3, 3));
	d_ld_byte(g, BPF_REG_4, BPF_REG_3, bits);
	emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_2, 7));
	emit(g, I_MOV64_IMM(BPF_REG_5, 1));
	emit(g, I_ALU64_REG(BPF_LSH, BPF_REG_5, BPF_REG_2));
	emit(g, I_ALU64_REG(BPF_OR, BPF_REG_4, BPF_REG_5));
	d_st_byte(g, BPF_REG_3, bits, BPF_REG_4, BPF_REG_2);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	emit_goto(g, loop);
	label_place(g, end);
	return bits;
}

/* a NULL strtok() reads: dtrace's "invalid address (0x0)" fault */
static void strtok_null_fault(Gen *g)
{
	int addr = d_slot(g);
	d_set_slot(g, addr, 0);
	d_ld_slot(g, BPF_REG_0, addr);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, dfault_label(g, DTRACEFLT_BADADDR, addr));
}

/* strtok(NULL, ...): the thread's saved rest into os (n bytes); none saved
 * yet is a NULL string, a fault */
static void strtok_saved(Gen *g, const Expr *e, int key, int os, int n)
{
	int miss = label_new(g), got = label_new(g);
	gen_map_lookup(g, e->map, key);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, miss);
	emit_memcpy(g, os, BPF_REG_0, 0, n);
	emit_goto(g, got);
	label_place(g, miss);
	emit_memzero(g, os, n);
	strtok_null_fault(g);
	label_place(g, got);
}

/* strtok(s, delims) as dtrace-utils: skip leading delimiters, take bytes up
 * to the next delimiter, which is left at the start of the rest kept for
 * strtok(NULL, ...) (a next call with other delimiters gets it: its
 * unittest tst.strtok2); nothing left: "" and an empty rest. */
static void gen_strtok(Gen *g, const Expr *e, int dst, const Type *dt)
{
	int mark = g->scratch_top;
	int n = g->sc->opt.strlen_max, out = e->type->size < dt->size ? e->type->size : dt->size;
	int key = d_slot(g), ns, os;
	emit_memzero(g, dst, dt->size);
	if (e->aux & STRTOK_NO_DELIMS) {
		strtok_null_fault(g);
		g->scratch_top = mark;
		return;
	}
	emit_call(g, BPF_FUNC_get_current_pid_tgid);
	emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_0, 0x7fffffff)); /* the tid */
	d_st_slot(g, key, BPF_REG_0);
	if (e->aux & STRTOK_GO_ON) {
		os = scratch_alloc(g, n);
		ns = n;
		strtok_saved(g, e, key, os, n);
	} else {
		os = d_str_arg(g, e->args.v[0], &ns);
	}
	int bits = delim_set(g, e->args.v[1]), pos = d_slot(g);
	int skip = label_new(g), start = label_new(g), tok = label_new(g), end = label_new(g);
	int none = label_new(g), rest = scratch_alloc(g, n);
	emit_memzero(g, rest, n);
	emit(g, I_MOV64_IMM(BPF_REG_1, 0));
	label_place(g, skip);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_1, ns, none);
	d_ld_byte(g, BPF_REG_2, BPF_REG_1, os);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_2, 0, none);
	delim_bit(g, bits, BPF_REG_2);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_4, 0, start);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	emit_goto(g, skip);
	/* the token: r1 position in s, r3 in dst */
	label_place(g, start);
	d_st_slot(g, pos, BPF_REG_1);
	d_ld_slot(g, BPF_REG_1, pos);
	emit(g, I_MOV64_IMM(BPF_REG_3, 0));
	label_place(g, tok);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_1, ns, end);
	d_ld_byte(g, BPF_REG_2, BPF_REG_1, os);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_2, 0, end);
	delim_bit(g, bits, BPF_REG_2);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_4, 0, end);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_3, out - 1, end);
	d_st_byte(g, BPF_REG_3, dst, BPF_REG_2, BPF_REG_4);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, 1));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	emit_goto(g, tok);
	label_place(g, end);
	d_st_slot(g, pos, BPF_REG_1);
	/* the rest, for strtok(NULL, ...); none left: "" */
	int count = d_slot(g);
	d_set_slot(g, count, n);
	d_copy_range(g, os, ns, pos, count, rest, n);
	label_place(g, none); /* rest stays "" */
	emit_ld_map(g, BPF_REG_1, R_MAP, e->map->id);
	emit_scratch_ptr(g, BPF_REG_2, key);
	emit_scratch_ptr(g, BPF_REG_3, rest);
	emit(g, I_MOV64_IMM(BPF_REG_4, BPF_ANY));
	emit_call(g, BPF_FUNC_map_update_elem);
	g->scratch_top = mark;
}

/* strlen(s) */
static void gen_strlen(Gen *g, const Expr *e)
{
	int mark = g->scratch_top, ns, os = d_str_arg(g, e->args.v[0], &ns);
	d_strlen(g, os, ns, BPF_REG_0);
	g->scratch_top = mark;
}

/* D's string subroutines */
static const FuncDef string_funcs[] = {
	{"strlen", FK_EXPR, 1, 1, dcheck_strlen, FUNC_D, .gen_int = gen_strlen},
	{"strjoin", FK_EXPR, 2, 2, dcheck_strjoin, FUNC_D, .gen_into = gen_strjoin},
	{"substr", FK_EXPR, 2, 3, dcheck_substr, FUNC_D, .gen_into = gen_substr},
	{"toupper", FK_EXPR, 1, 1, dcheck_str1, FUNC_D, .gen_into = gen_toupper},
	{"tolower", FK_EXPR, 1, 1, dcheck_str1, FUNC_D, .gen_into = gen_tolower},
	{"lltostr", FK_EXPR, 1, 2, dcheck_lltostr, FUNC_D, .gen_into = gen_lltostr},
	{"strtok", FK_EXPR, 2, 2, dcheck_strtok, FUNC_D, .gen_into = gen_strtok},
};
BUILTINS(string_funcs)
