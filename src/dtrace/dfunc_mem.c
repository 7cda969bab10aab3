/* D's memory actions: tracemem(addr, size[, dsize]) records size bytes
 * (a constant) and prints them as dtrace(1)'s hex and ASCII dump (dsize,
 * when 0 <= dsize < size, limits what is printed); copyout(buf, addr, n)
 * and copyoutstr(str, addr, maxlen) write into the process that fired the
 * probe (bpf_probe_write_user), destructive: refused without -w. */
#include <stdint.h>
#include <string.h>

#include "codegen_d.h"
#include "dfunc.h"

#define TRACEMEM_MAX (64 << 10) /* sonde's bound on one record's bytes */
/* Expr.aux2 of a tracemem() that is a trace(STRING): its record, strsize + 1
 * bytes (a char array's own size), dumped under -x rawbytes, else printed
 * as text when every byte is printable (libdtrace's rule) */
enum { TRACE_STRING_RAW = 1, TRACE_STRING_TEXT };

bool dcheck_tracemem(Sema *s, Expr *c)
{
	char buf[128];
	Expr *a = c->args.v[0], *n = c->args.v[1];
	if (c->args.n > 3)
		return sema_error(s, c->args.v[3]->loc, "tracemem ( ) prototype mismatch: expected at "
				  "most 3 args");
	if (!sema_expr(s, a) || !sema_expr(s, n))
		return false;
	if (a->type->kind == TY_STR && c->aux2)
		return true;
	if (a->type->kind != TY_INT && !(a->type->kind == TY_NONE && !s->strict))
		return sema_error(s, a->loc, "tracemem( ) argument #1 is incompatible with prototype:\n"
				  "\tprototype: pointer or integer\n\t argument: %s",
				  a->type->kind == TY_STR ? "string" : type_name(a->type, buf, sizeof(buf)));
	if (n->kind != E_INT || n->ival <= 0)
		return sema_error(s, n->loc, "tracemem( ) argument #2 must be a non-zero positive "
				  "integral constant expression");
	if (n->ival > TRACEMEM_MAX)
		return sema_error(s, n->loc, "tracemem( ) size %lld is more than sonde records at once "
				  "(%d bytes)", (long long)n->ival, TRACEMEM_MAX);
	if (c->args.n > 2) {
		Expr *d = c->args.v[2];
		if (!sema_expr(s, d))
			return false;
		if (d->type->kind != TY_INT && !(d->type->kind == TY_NONE && !s->strict))
			return sema_error(s, d->loc, "tracemem ( ) dynamic size (argument #3) must be of "
					  "scalar type");
	}
	return true;
}

static bool rawbytes(const Options *o)
{
	const char *v = options_d_get(o, "rawbytes");
	return v && strcmp(v, "no") && strcmp(v, "off") && strcmp(v, "false") && strcmp(v, "unset");
}

/* trace(STRING) records the string's bytes (zeros after its end), as
 * tracemem() does; they print as text, or as tracemem()'s hex and ASCII
 * dump when a byte is not printable text or under -x rawbytes */
void dsema_trace_string(Sema *s, Expr *c)
{
	Arena *ar = &s->sc->ast->arena;
	Expr *n = arena_alloc(ar, sizeof(Expr));
	n->kind = E_INT;
	n->loc = c->loc;
	n->ival = s->sc->opt.strlen_max; /* DTrace records strsize + 1 bytes */
	n->type = ty_int(s, 64, true);
	Expr **v2 = arena_alloc(ar, 2 * sizeof(Expr *));
	v2[0] = c->args.v[0];
	v2[1] = n;
	c->args.v = v2;
	c->args.n = 2;
	c->name = "tracemem";
	c->func = func_find("tracemem");
	c->aux2 = rawbytes(&s->sc->opt) ? TRACE_STRING_RAW : TRACE_STRING_TEXT;
}

/* copyout(buf, addr, n) (str: copyoutstr(s, addr, maxlen)) */
static bool check_copyout(Sema *s, Expr *c, bool str)
{
	if (!dsema_destructive(s, c))
		return false;
	if (str ? !dsema_arg_str(s, c, 0) : !dsema_arg_int(s, c, 0, "void *"))
		return false;
	return dsema_arg_int(s, c, 1, "uintptr_t") && dsema_arg_int(s, c, 2, "size_t");
}

bool dcheck_copyout(Sema *s, Expr *c)
{
	return check_copyout(s, c, false);
}

bool dcheck_copyoutstr(Sema *s, Expr *c)
{
	return check_copyout(s, c, true);
}

static bool user_ptr(const Expr *a)
{
	return type_is_ptr(a->type) && a->type->user;
}

bool dcheck_trace_record(Sema *s, Expr *c)
{
	Expr *a = c->args.v[0];
	if (!sema_expr(s, a))
		return false;
	if (a->type->kind != TY_RECORD) /* only trace() writes it */
		return sema_error(s, c->loc, "Unknown function: %s", c->name);
	return true;
}

/* trace(a struct value): tracemem's record, its bytes copied from the value */
static void gen_trace_record(Gen *g, const Expr *e)
{
	const Expr *a = e->args.v[0];
	int n = a->type->size, mark = g->scratch_top;
	EventDesc *ev = event_new(g, EV_D_TRACEMEM, 0);
	int idx = g->sc->events.n - 1;
	ev->size = 16 + ((n + 7) & ~7);
	int rec = scratch_alloc(g, ev->size);
	emit_memzero(g, rec + 16, ev->size - 16);
	int v = gen_mem(g, a);
	emit_memcpy(g, rec + 16, R_SCR, v, n);
	emit_st(g, BPF_DW, R_SCR, rec + 8, n);
	emit_ld_imm64(g, BPF_REG_1, (uint64_t)idx);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_1, rec);
	gen_event_send(g, rec, ev->size, false);
	g->scratch_top = mark;
}

/* record: the event index, the bytes to print, then size bytes */
static void gen_tracemem(Gen *g, const Expr *e)
{
	int n = (int)e->args.v[1]->ival, mark = g->scratch_top;
	EventDesc *ev = event_new(g, EV_D_TRACEMEM, 0);
	int idx = g->sc->events.n - 1;
	ev->size = 16 + ((n + 7) & ~7);
	bool str = e->args.v[0]->type->kind == TY_STR;
	int have = str ? e->args.v[0]->type->size : 0;
	bool chars = str && e->args.v[0]->kind == E_FIELD; /* a member: a char array */
	if (chars && have < n) /* its own size */
		ev->size = 16 + (((n = have) + 7) & ~7);
	/* a string prints with zeros after its end; a char array's bytes
	 * after its first NUL are kept (dumped when not all zero) */
	ev->text = chars ? "chars" : str ? "string" : NULL;
	if (e->aux2 == TRACE_STRING_TEXT) /* as text when printable */
		ev->text2 = g->sc->opt.d_quiet ? "%s" : "  %-33s";
	int rec = scratch_alloc(g, ev->size), addr;
	if (str) {
		addr = gen_mem(g, e->args.v[0]);
	} else {
		addr = d_slot(g);
		gen_int(g, e->args.v[0]);
		emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, addr);
	}
	emit_st(g, BPF_DW, R_SCR, rec + 8, n);
	if (e->args.n > 2) { /* DTrace ignores a negative or larger size */
		int keep = label_new(g);
		gen_int(g, e->args.v[2]);
		emit_jmp_imm(g, BPF_JSLT, BPF_REG_0, 0, keep);
		emit_jmp_imm(g, BPF_JSGE, BPF_REG_0, n, keep);
		emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, rec + 8);
		label_place(g, keep);
	}
	if (str) { /* trace(STRING): the string's bytes, zeros after them */
		if (have < n)
			emit_memzero(g, rec + 16 + have, n - have);
		emit_scratch_ptr(g, BPF_REG_1, rec + 16);
		emit(g, I_MOV64_IMM(BPF_REG_2, have < n ? have : n));
		emit_scratch_ptr(g, BPF_REG_3, addr);
		emit_call(g, BPF_FUNC_probe_read_kernel);
		if (!chars && have >= n) /* at most strsize characters, then the NUL */
			emit_st(g, BPF_B, R_SCR, rec + 16 + n - 1, 0);
	} else {
		emit_scratch_ptr(g, BPF_REG_1, rec + 16);
		emit(g, I_MOV64_IMM(BPF_REG_2, n));
		emit_ldx(g, BPF_DW, BPF_REG_3, R_SCR, addr);
		dfault_read_call(g, user_ptr(e->args.v[0]) ? BPF_FUNC_probe_read_user
							   : BPF_FUNC_probe_read_kernel);
	}
	emit_ld_imm64(g, BPF_REG_1, (uint64_t)idx);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_1, rec);
	gen_event_send(g, rec, ev->size, false);
	g->scratch_top = mark;
}

/* copyout(buf, addr, n): buf's bytes (at most scratchsize, staged in
 * scratch: the helper writes from BPF memory only) to the user address;
 * copyoutstr(s, addr, maxlen): the string and its NUL, at most maxlen.
 * A size over the bound ends the clause. */
static void gen_copy_out(Gen *g, const Expr *e, bool str)
{
	int mark = g->scratch_top, S = dcopy_scratchsize(&g->sc->opt);
	int src, ns = S, addr = d_slot(g), len = d_slot(g);
	if (str) {
		src = gen_mem(g, e->args.v[0]);
		ns = e->args.v[0]->type->size;
	} else {
		src = scratch_alloc(g, S);
	}
	gen_int(g, e->args.v[1]);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, addr);
	gen_int(g, e->args.v[2]);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, len);
	if (str) { /* len = min(strlen + 1, maxlen, the buffer) */
		int fit = label_new(g), capped = label_new(g);
		d_strlen(g, src, ns, BPF_REG_1);
		emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
		emit_jmp_imm(g, BPF_JLE, BPF_REG_1, ns, fit);
		emit(g, I_MOV64_IMM(BPF_REG_1, ns));
		label_place(g, fit);
		emit_ldx(g, BPF_DW, BPF_REG_2, R_SCR, len);
		emit_jmp_reg(g, BPF_JLE, BPF_REG_2, BPF_REG_1, capped);
		emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_1));
		label_place(g, capped);
		emit_stx(g, BPF_DW, R_SCR, BPF_REG_2, len);
	} else {
		int fits = label_new(g);
		emit_ldx(g, BPF_DW, BPF_REG_2, R_SCR, len);
		emit_jmp_imm(g, BPF_JLE, BPF_REG_2, S, fits);
		emit_goto(g, g->exit_label);
		label_place(g, fits);
		gen_int(g, e->args.v[0]);
		emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_0));
		emit_scratch_ptr(g, BPF_REG_1, src);
		emit_ldx(g, BPF_DW, BPF_REG_2, R_SCR, len);
		emit_jmp_imm(g, BPF_JGT, BPF_REG_2, S, g->exit_label);
		emit_call(g, BPF_FUNC_probe_read_kernel);
	}
	emit_ldx(g, BPF_DW, BPF_REG_1, R_SCR, addr);
	emit_scratch_ptr(g, BPF_REG_2, src);
	emit_ldx(g, BPF_DW, BPF_REG_3, R_SCR, len);
	emit_jmp_imm(g, BPF_JGT, BPF_REG_3, ns, g->exit_label);
	emit_call(g, BPF_FUNC_probe_write_user);
	dfault_call_check(g, DTRACEFLT_BADADDR, addr);
	g->scratch_top = mark;
}

static void gen_copyout(Gen *g, const Expr *e)
{
	gen_copy_out(g, e, false);
}

static void gen_copyoutstr(Gen *g, const Expr *e)
{
	gen_copy_out(g, e, true);
}

/* D's tracemem() and copyout() */
static const FuncDef mem_funcs[] = {
	{"tracemem", FK_STMT, 2, 64, dcheck_tracemem, FUNC_D, .gen_stmt = gen_tracemem},
	{"copyout", FK_STMT, 3, 3, dcheck_copyout, FUNC_D, .gen_stmt = gen_copyout},
	{"copyoutstr", FK_STMT, 3, 3, dcheck_copyoutstr, FUNC_D, .gen_stmt = gen_copyoutstr},
	{"__trace_record", FK_STMT, 1, 1, dcheck_trace_record, FUNC_D,
	 .gen_stmt = gen_trace_record},
};
BUILTINS(mem_funcs)
