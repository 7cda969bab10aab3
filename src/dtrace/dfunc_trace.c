/* D's basic actions: trace(x), which records a value as dtrace(1) prints
 * it (a printf with dtrace's widths, a string or a struct as tracemem()
 * records them), and exit(N), which carries dtrace's exit status. */
#include <string.h>

#include "codegen_d.h"
#include "dfunc.h"

/* D's trace(x): becomes printf with the format dtrace(1) prints x with:
 * bare under -q, else integers right-aligned by their size and sign as
 * dtrace-utils 2.0 prints them (" %19d" for a signed 8-byte value, " %20u"
 * unsigned, " %10d" for 4 bytes, " %5d" for 2, " %3d" for 1; DTrace v1's
 * widths were " %16d", " %8d") and strings left-aligned in 33 columns. */
static const char *int_format(int bits, bool sgn, bool quiet)
{
	static const char *const f[2][2][4] = {
		{{" %3u", " %5u", " %10u", " %20llu"}, {" %3d", " %5d", " %10d", " %19lld"}},
		{{"%u", "%u", "%u", "%llu"}, {"%d", "%d", "%d", "%lld"}},
	};
	int i = bits <= 8 ? 0 : bits <= 16 ? 1 : bits <= 32 ? 2 : 3;
	return f[quiet][sgn][i];
}

static char *int_cast(int bits, bool sgn)
{
	static char *const c[2][4] = {{"uint8", "uint16", "uint32", "uint64"},
					    {"int8", "int16", "int32", "int64"}};
	return c[sgn][bits <= 8 ? 0 : bits <= 16 ? 1 : bits <= 32 ? 2 : 3];
}

static bool dcheck_trace(Sema *s, Expr *c)
{
	Expr *a = c->args.v[0];
	if (!sema_expr(s, a))
		return false;
	if (a->type->kind == TY_NONE)
		return s->strict ? sema_error(s, a->loc, "trace() of a value without a type") : true;
	if (a->type->kind == TY_RECORD) { /* a struct: its bytes, as tracemem() dumps them */
		c->name = "__trace_record";
		c->func = func_find("__trace_record");
		return true;
	}
	bool q = s->sc->opt.d_quiet, str = a->type->kind == TY_STR || a->type->kind == TY_INET;
	if (a->type->kind == TY_STR) {
		dsema_trace_string(s, c);
		return true;
	}
	int bits = a->type->kind == TY_INT && !a->type->pointee ? a->type->bits : 64;
	TypeKind k = a->type->kind;
	bool stack = k == TY_KSTACK || k == TY_USTACK || k == TY_PYSTACK; /* frames: own lines */
	/* sym() and the others: "  %-50s" quiet or not (dt_print_sym) */
	bool sym = (k == TY_KSYM || k == TY_USYM) && a->type->dsym;
	bool sgn = a->type->kind == TY_INT && a->type->is_signed && !a->type->pointee;
	const char *f = stack ? "%s" : sym ? "  %-50s" : str ? (q ? "%s" : "  %-33s")
		      : int_format(bits, sgn, q);
	Arena *ar = &s->sc->ast->arena;
	if (a->type->kind == TY_INT) { /* the record's size and sign, as dtrace reads it back */
		Expr *cast = arena_alloc(ar, sizeof(Expr));
		cast->kind = E_CAST;
		cast->loc = a->loc;
		cast->name = int_cast(bits, sgn);
		cast->a = a;
		a = cast;
	}
	Expr *fe = arena_alloc(ar, sizeof(Expr));
	fe->kind = E_STR;
	fe->loc = c->loc;
	fe->sval = arena_strdup(ar, f);
	fe->slen = strlen(f);
	Expr **v = arena_alloc(ar, 2 * sizeof(Expr *));
	v[0] = fe;
	v[1] = a;
	c->args.v = v;
	c->args.n = 2;
	c->name = "printf";
	c->func = func_find("printf");
	return sema_check_format(s, c, 1);
}

/* exit(N): N is dtrace's exit status */
static bool dcheck_exit(Sema *s, Expr *c)
{
	return sema_arg_int(s, c, 0);
}

/* exit(N): the control word says exit, no traced probe's clause starts
 * after this one (draining), and the event carries the status; the clause
 * goes on: what it traces after exit() still prints */
static void gen_exit_status(Gen *g, const Expr *e)
{
	emit_ld_map_value(g, BPF_REG_1, R_CONTROL, 0);
	emit(g, I_ST(BPF_DW, BPF_REG_1, 0, 1));
	emit(g, I_ST(BPF_DW, BPF_REG_1, D_CTL_STATE, D_STATE_DRAINING));
	gen_args_event(g, EV_EXIT, e, 0);
}

/* trace() is rewritten by its check into printf, tracemem or
 * __trace_record, whose rows generate its code */
static const FuncDef trace_funcs[] = {
	{"trace", FK_STMT, 1, 1, dcheck_trace, FUNC_D},
	{"exit", FK_STMT, 1, 1, dcheck_exit, FUNC_D, .gen_stmt = gen_exit_status},
};
BUILTINS(trace_funcs)
