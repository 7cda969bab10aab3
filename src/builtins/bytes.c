/* The string and byte functions bpftrace 0.17 has beside str(): strncmp,
 * strcontains, bswap, strerror, pton, macaddr; each one's type rule and
 * code generation (strerror's and macaddr's values are printed by their
 * types, runtime/value_format.c). */
#include <arpa/inet.h>
#include <string.h>
#include <sys/socket.h>

#include "../compile/codegen.h"
#include "../compile/sema_hooks.h"
#include "builtins.h"

/* strncmp(a, b, n): 0 when the first n bytes are equal */
static bool check_strncmp(Sema *s, Expr *c)
{
	int64_t n;
	if (!sema_arg_kind(s, c, 0, TY_STR) || !sema_arg_kind(s, c, 1, TY_STR))
		return false;
	sema_posparam_fold(s, c->args.v[2]);
	if (c->args.v[2]->kind != E_INT && sema_hooks(s)->not_literal)
		return sema_hooks(s)->not_literal(s, c, c->args.v[2], "integer");
	if (c->args.v[2]->kind != E_INT)
		return sema_error(s, c->args.v[2]->loc, "strncmp() expects an integer literal as its "
				  "length");
	if (!sema_arg_literal_int(s, c, 2, &n))
		return false;
	c->type = ty_int(s, 64, false);
	return true;
}

/* r0 = 1 when the strings' first n bytes are equal */
static void gen_strncmp(Gen *g, const Expr *e)
{
	int ne = label_new(g);
	gen_strcmp(g, e->args.v[0], e->args.v[1], (int)e->args.v[2]->ival);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, ne);
	emit(g, I_MOV64_IMM(BPF_REG_0, 1));
	label_place(g, ne);
}

/* strcontains(hay, needle): true (1) when needle occurs in hay */
static bool check_strcontains(Sema *s, Expr *c)
{
	if (!sema_arg_kind(s, c, 0, TY_STR) || !sema_arg_kind(s, c, 1, TY_STR))
		return false;
	c->type = sema_truth_type(s);
	return true;
}

/* where the needle compare goes: the needle's NUL or end reached (found),
 * the haystack's end or NUL reached first (none), a byte differs (next) */
typedef struct NeedleJumps {
	int found, none, next;
} NeedleJumps;

/* the needle (scratch offset on, nsize bytes) compared with the haystack
 * (oh, hsize) from start r1, index j in r2; every path leaves by a jump
 * in *to (r3-r5 clobbered) */
static void emit_needle_compare(Gen *g, int oh, int on, int hsize, int nsize,
				const NeedleJumps *to)
{
	int inner = label_new(g);
	emit(g, I_MOV64_IMM(BPF_REG_2, 0)); /* j */
	label_place(g, inner);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_2, nsize, to->found);
	emit(g, I_MOV64_REG(BPF_REG_4, R_SCR));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_4, BPF_REG_2));
	emit_ldx(g, BPF_B, BPF_REG_3, BPF_REG_4, on);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, 0, to->found);
	emit(g, I_MOV64_REG(BPF_REG_5, BPF_REG_1));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_5, BPF_REG_2));
	emit_jmp_imm(g, BPF_JGE, BPF_REG_5, hsize, to->none);
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_5, R_SCR));
	emit_ldx(g, BPF_B, BPF_REG_4, BPF_REG_5, oh);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_4, 0, to->none); /* the rest is shorter than needle */
	emit_jmp_reg(g, BPF_JNE, BPF_REG_4, BPF_REG_3, to->next);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, 1));
	emit_goto(g, inner);
}

/* A haystack longer than this is searched by a bpf_loop callback, one
 * start position a call: as one nested loop, the verifier follows each
 * (start, needle byte) pair and gives up past 8192 jumps in a path (a
 * 1024-byte string, bpftrace 0.26's max_strlen) */
#define STRCONTAINS_INLINE_MAX 64

/* the callback: start position r1; args: the haystack's and needle's
 * scratch offsets and sizes, the result's slot (set to 1 when found) */
static void strcontains_step(Gen *g, const int *a)
{
	int oh = a[0], on = a[1], hsize = a[2], nsize = a[3], res = a[4];
	int next = label_new(g), found = label_new(g), stop = label_new(g);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_1, hsize, stop);
	NeedleJumps to = {found, stop, next};
	emit_needle_compare(g, oh, on, hsize, nsize, &to);
	label_place(g, next);
	emit(g, I_MOV64_IMM(BPF_REG_0, 0)); /* on to the next start */
	emit(g, I_EXIT());
	label_place(g, found);
	emit_st(g, BPF_DW, R_SCR, res, 1);
	label_place(g, stop);
	emit(g, I_MOV64_IMM(BPF_REG_0, 1));
	emit(g, I_EXIT());
}

static void gen_strcontains_loop(Gen *g, int oh, int on, int hsize, int nsize)
{
	int res = scratch_alloc(g, 8);
	emit_st(g, BPF_DW, R_SCR, res, 0);
	emit(g, I_MOV64_IMM(BPF_REG_0, hsize)); /* bpf_loop's count */
	int args[] = {oh, on, hsize, nsize, res};
	gen_loop_call(g, strcontains_step, args, 5);
	emit_ldx(g, BPF_DW, BPF_REG_0, R_SCR, res);
}

/* For each start i, needle bytes are compared until its NUL (found) or a
 * mismatch; the end of hay ends the search. */
static void gen_strcontains(Gen *g, const Expr *e)
{
	const Expr *h = e->args.v[0], *nd = e->args.v[1];
	int mark = g->scratch_top;
	int oh = gen_mem(g, h), on = gen_mem(g, nd);
	if (h->type->size > STRCONTAINS_INLINE_MAX) {
		gen_strcontains_loop(g, oh, on, h->type->size, nd->type->size);
		g->scratch_top = mark;
		return;
	}
	int outer = label_new(g), next = label_new(g), found = label_new(g), none = label_new(g),
	    end = label_new(g);
	emit(g, I_MOV64_IMM(BPF_REG_1, 0)); /* i */
	label_place(g, outer);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_1, h->type->size, none);
	NeedleJumps to = {found, none, next};
	emit_needle_compare(g, oh, on, h->type->size, nd->type->size, &to);
	label_place(g, next);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	emit_goto(g, outer);
	label_place(g, found);
	emit(g, I_MOV64_IMM(BPF_REG_0, 1));
	emit_goto(g, end);
	label_place(g, none);
	emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	label_place(g, end);
	g->scratch_top = mark;
}

/* bpftrace 0.26's strlen(s): the bytes of a string (or a char array)
 * before its first NUL, a uint64 */
static bool check_str_length(Sema *s, Expr *c)
{
	Expr *a = c->args.v[0];
	if (!sema_expr(s, a))
		return false;
	const Type *t = a->type;
	bool chars = t->kind == TY_ARRAY && t->pointee && t->pointee->size == 1;
	if (t->kind != TY_STR && !chars)
		return sema_error(s, a->loc, "strlen() expects a string or a char array, not %s",
				  tn(t));
	c->type = ty_int(s, 64, false);
	return true;
}

/* r0 = the count of bytes before the first NUL (all of them when none is):
 * a bounded loop the verifier follows byte by byte (1024 for bpftrace
 * 0.26's max_strlen: one unknown branch each, well inside its limits) */
static void gen_str_length(Gen *g, const Expr *e)
{
	const Expr *a = e->args.v[0];
	int mark = g->scratch_top, off = gen_mem(g, a);
	int loop = label_new(g), end = label_new(g);
	emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	label_place(g, loop);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_0, a->type->size, end);
	emit(g, I_MOV64_REG(BPF_REG_2, R_SCR));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_2, BPF_REG_0));
	emit_ldx(g, BPF_B, BPF_REG_3, BPF_REG_2, off);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, 0, end);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_0, 1));
	emit_goto(g, loop);
	label_place(g, end);
	g->scratch_top = mark;
}

/* bswap(x): the bytes of x reversed, at x's width, unsigned (as bpftrace) */
static bool check_bswap(Sema *s, Expr *c)
{
	if (!sema_arg_kind(s, c, 0, TY_INT))
		return false;
	const Type *t = c->args.v[0]->type;
	int bits = t->kind == TY_INT && !t->pointee && t->bits ? t->bits : 64;
	c->type = ty_int(s, bits, false);
	return true;
}

/* BPF_END to big-endian swaps on this little-endian machine; then
 * zero-extended from x's width */
static void gen_bswap(Gen *g, const Expr *e)
{
	gen_int(g, e->args.v[0]);
	if (e->type->bits > 8)
		emit(g, ((struct bpf_insn){.code = BPF_ALU | BPF_END | BPF_TO_BE,
					   .dst_reg = BPF_REG_0, .imm = e->type->bits}));
	gen_cast_r0(g, e->type);
}

/* strerror(errno): the text is looked up when printed */
static bool check_strerror(Sema *s, Expr *c)
{
	if (!sema_arg_kind(s, c, 0, TY_INT))
		return false;
	c->type = ty_simple(s, TY_STRERROR, 8);
	return true;
}

/* signal_name(sig): the text is looked up when printed */
static bool check_signal_name(Sema *s, Expr *c)
{
	if (!sema_arg_kind(s, c, 0, TY_INT))
		return false;
	c->type = ty_simple(s, TY_SIGNAL, 8);
	return true;
}

/* pton("1.2.3.4" | "::1"): the address bytes, as uint8[4] or uint8[16] */
static bool check_pton(Sema *s, Expr *c)
{
	Expr *a = c->args.v[0];
	if (a->kind != E_STR)
		return sema_error(s, a->loc, "pton() expects a string literal argument");
	unsigned char addr[16];
	bool v6 = strchr(a->sval, ':') != NULL;
	if (inet_pton(v6 ? AF_INET6 : AF_INET, a->sval, addr) != 1)
		return sema_error(s, a->loc, "pton(): invalid %s address \"%s\"", v6 ? "IPv6" : "IPv4",
				  a->sval);
	Type *t = ty_simple(s, TY_ARRAY, v6 ? 16 : 4);
	t->count = t->size;
	t->pointee = ty_int(s, 8, false);
	c->type = t;
	return true;
}

/* the bytes, parsed again from the literal the check accepted */
static void gen_pton(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	(void)dt;
	unsigned char addr[16];
	const char *text = e->args.v[0]->sval;
	inet_pton(e->type->count == 16 ? AF_INET6 : AF_INET, text, addr);
	emit_store_bytes(g, dst_off, (const char *)addr, e->type->count);
}

static Type *macaddr_type(Sema *s)
{
	return ty_simple(s, TY_MACADDR, 8);
}

/* macaddr(p): 6 bytes read from a pointer, or a 6-byte array or record */
static bool check_macaddr(Sema *s, Expr *c)
{
	Expr *a = c->args.v[0];
	if (a->kind == E_STR)
		return sema_error(s, a->loc, "macaddr() does not support literal string arguments");
	if (!sema_expr(s, a))
		return false;
	const Type *t = a->type;
	if ((t->kind == TY_ARRAY || t->kind == TY_RECORD || t->kind == TY_STR) && t->size != 6)
		return sema_error(s, a->loc, "macaddr() argument must be 6 bytes in size");
	if (t->kind != TY_INT && t->kind != TY_ARRAY && t->kind != TY_RECORD && t->kind != TY_STR &&
	    (t->kind != TY_NONE || s->strict))
		return sema_error(s, a->loc, "macaddr() takes a pointer or a 6-byte array (%s provided)",
				  bpf_kind(t));
	c->type = macaddr_type(s);
	return true;
}

/* six bytes from a pointer or from a 6-byte value, then two zero bytes */
static void gen_macaddr(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	(void)dt;
	const Expr *a = e->args.v[0];
	emit_memzero(g, dst_off, 8);
	if (a->type->kind == TY_INT) {
		gen_int(g, a);
		emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_0));
		emit_scratch_ptr(g, BPF_REG_1, dst_off);
		emit(g, I_MOV64_IMM(BPF_REG_2, 6));
		emit_call(g, a->type->user ? BPF_FUNC_probe_read_user : BPF_FUNC_probe_read);
		return;
	}
	int mark = g->scratch_top, src = gen_mem(g, a);
	emit_memcpy(g, dst_off, R_SCR, src, 6);
	g->scratch_top = mark;
}

static const BtArgCheck bswap_arg = {
	"%1$s() only supports integer arguments (%2$s provided)", .ints = true, .typed = true};
static const BtArgCheck macaddr_arg = {
	"%1$s() only supports array or pointer arguments (%2$s provided)"};

static const FuncDef bytes_funcs[] = {
	{"strncmp", FK_EXPR, 3, 3, check_strncmp, .gen_int = gen_strncmp},
	{"strcontains", FK_EXPR, 2, 2, check_strcontains, .gen_int = gen_strcontains},
	{"bswap", FK_EXPR, 1, 1, check_bswap, .bt_arg = &bswap_arg, .gen_int = gen_bswap},
	{"strerror", FK_EXPR, 1, 1, check_strerror, .gen_into = builtin_gen_int_into},
	{"pton", FK_EXPR, 1, 1, check_pton, .gen_into = gen_pton},
	{"macaddr", FK_EXPR, 1, 1, check_macaddr, .bt_arg = &macaddr_arg,
	 .kept_type = macaddr_type, .gen_into = gen_macaddr},
	{"signal_name", FK_EXPR, 1, 1, check_signal_name, .gen_into = builtin_gen_int_into,
	 .sets = FSET_BT_STDLIB},
	{"strlen", FK_EXPR, 1, 1, check_str_length, .gen_int = gen_str_length, .sets = FSET_BT_STDLIB},
};
BUILTINS(bytes_funcs)
