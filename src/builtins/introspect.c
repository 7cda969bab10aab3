/* What a program knows when it is compiled, as bpftrace 0.26 asks it: the
 * probe's type (probetype), whether -c started a child (has_cpid), the
 * type of an expression (is_integer, is_unsigned_integer, is_ptr, is_str,
 * is_array, is_literal, typeinfo, whose operand is not run), and a value
 * known while compiling (comptime EXPR); each one's type rule and code
 * generation. */
#include <string.h>

#include "../compile/codegen.h"
#include "../compile/sema_hooks.h"
#include "../compile/sema_int.h"

#define PROBETYPE_SIZE 16

/* bpftrace 0.26's name of the probe's type: begin/end are "special",
 * a provider may name its type otherwise (Provider.type_name) */
static const char *probetype_name(const Provider *p)
{
	if (p->is_special)
		return "special";
	return p->type_name ? p->type_name : p->name;
}

static void gen_probetype(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	(void)e;
	const char *name = probetype_name(g->spec->prov);
	int n = (int)strlen(name) < dt->size ? (int)strlen(name) : dt->size - 1;
	emit_store_bytes(g, dst_off, name, n);
	emit_memzero(g, dst_off + n, dt->size - n);
}

static void gen_has_cpid(Gen *g, const Expr *e)
{
	(void)e;
	emit(g, I_MOV64_IMM(BPF_REG_0, g->sc->opt.cpid != 0));
}

static const BuiltinDef introspect_vars[] = {
	/* no check: typed by their columns */
	{"probetype", B_FAMILY, TY_STR, PROBETYPE_SIZE, false, .gen_into = gen_probetype,
	 .sets = FSET_BT_STDLIB},
	{"has_cpid", B_FAMILY, TY_INT, 64, false, .gen_int = gen_has_cpid, .truth = true,
	 .sets = FSET_BT_STDLIB},
};
BUILTIN_VARS(introspect_vars)

/* --- is_*(expr): answered from the operand's type, in aux ------------- */

static bool is_integer(const Expr *a)
{
	return a->type->kind == TY_INT && !a->type->pointee;
}

static bool is_unsigned_integer(const Expr *a)
{
	return is_integer(a) && !a->type->is_signed;
}

static bool is_ptr(const Expr *a)
{
	return a->type->kind == TY_INT && a->type->pointee;
}

static bool is_str(const Expr *a)
{
	return a->type->kind == TY_STR;
}

static bool is_array(const Expr *a)
{
	return a->type->kind == TY_ARRAY;
}

static bool is_literal(const Expr *a)
{
	return a->kind == E_INT || a->kind == E_STR;
}

static bool check_is(Sema *s, Expr *c, bool (*test)(const Expr *))
{
	if (!sema_expr(s, c->args.v[0]))
		return false;
	c->aux = test(c->args.v[0]);
	c->type = sema_truth_type(s);
	return true;
}

static bool check_is_integer(Sema *s, Expr *c)
{
	return check_is(s, c, is_integer);
}

static bool check_is_unsigned_integer(Sema *s, Expr *c)
{
	return check_is(s, c, is_unsigned_integer);
}

static bool check_is_ptr(Sema *s, Expr *c)
{
	return check_is(s, c, is_ptr);
}

static bool check_is_str(Sema *s, Expr *c)
{
	return check_is(s, c, is_str);
}

static bool check_is_array(Sema *s, Expr *c)
{
	return check_is(s, c, is_array);
}

static bool check_is_literal(Sema *s, Expr *c)
{
	return check_is(s, c, is_literal);
}

static void gen_is(Gen *g, const Expr *e)
{
	emit(g, I_MOV64_IMM(BPF_REG_0, e->aux));
}

/* --- comptime EXPR: EXPR's value, known while compiling, in aux ------- */

static bool check_comptime(Sema *s, Expr *c)
{
	Expr *x = c->args.v[0];
	int64_t v = 0;
	if (!sema_comptime_value(s, x, &v))
		return false;
	c->aux = (int)v;
	if (c->aux != v) /* aux holds an int: a wider value is not folded */
		return sema_error(s, x->loc, "comptime: %lld does not fit in 32 bits", (long long)v);
	c->type = x->type;
	return true;
}

/* --- typeinfo(EXPR): the record (btf_id, base_ty, full_ty) of EXPR's
 * type, as bpftrace 0.26 folds it into a literal; sema_const_int reads
 * its fields, so `if comptime (typeinfo($a).full_ty == "uint64")` is
 * known ------------------------------------------------------------- */

static Expr *str_literal(Sema *s, Loc loc, const char *text)
{
	Expr *e = expr_new(s->sc->ast, E_STR, loc);
	e->slen = strlen(text);
	e->sval = arena_alloc(&s->sc->ast->arena, e->slen + 1);
	memcpy(e->sval, text, e->slen + 1);
	return e;
}

static bool check_typeinfo(Sema *s, Expr *c)
{
	static char *names[] = {"btf_id", "base_ty", "full_ty"};
	Expr *x = c->args.v[0];
	if (!sema_expr(s, x))
		return false;
	StrBuf full = {0};
	sema_type_text(x->type, &full);
	Expr *r = expr_new(s->sc->ast, E_TUPLE, c->loc);
	r->names = names;
	r->args.v = arena_alloc(&s->sc->ast->arena, 3 * sizeof(Expr *));
	r->args.n = 3;
	r->args.v[0] = expr_new(s->sc->ast, E_INT, c->loc); /* no BTF id: 0 */
	r->args.v[1] = str_literal(s, c->loc, sema_type_base(x->type));
	r->args.v[2] = str_literal(s, c->loc, full.s ? full.s : "");
	sb_free(&full);
	if (!sema_expr(s, r))
		return false;
	*c = *r; /* the call is now the literal */
	return true;
}

static const FuncDef introspect_funcs[] = {
	{"is_integer", FK_EXPR, 1, 1, check_is_integer, .gen_int = gen_is, .known = true,
	 .sets = FSET_BT_STDLIB},
	{"is_unsigned_integer", FK_EXPR, 1, 1, check_is_unsigned_integer, .gen_int = gen_is,
	 .known = true, .sets = FSET_BT_STDLIB},
	{"is_ptr", FK_EXPR, 1, 1, check_is_ptr, .gen_int = gen_is, .known = true,
	 .sets = FSET_BT_STDLIB},
	{"is_str", FK_EXPR, 1, 1, check_is_str, .gen_int = gen_is, .known = true,
	 .sets = FSET_BT_STDLIB},
	{"is_array", FK_EXPR, 1, 1, check_is_array, .gen_int = gen_is, .known = true,
	 .sets = FSET_BT_STDLIB},
	{"is_literal", FK_EXPR, 1, 1, check_is_literal, .gen_int = gen_is, .known = true,
	 .sets = FSET_BT_STDLIB},
	{"comptime", FK_EXPR, 1, 1, check_comptime, .gen_int = gen_is, .known = true,
	 .sets = FSET_BT_STDLIB},
	{"typeinfo", FK_EXPR, 1, 1, check_typeinfo, .sets = FSET_BT_STDLIB},
};
BUILTINS(introspect_funcs)
