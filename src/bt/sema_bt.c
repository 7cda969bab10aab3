/* The bpftrace dialect's rules and words in semantic analysis, which the
 * core asks for through bt_sema_hooks (compile/sema_hooks.h): map keys and
 * values of another type, undefined variables, "none" values, casts,
 * ++/--, op=, aggregations as operands, in bpftrace 0.17's words, places
 * and passes.  Its operator and condition checks are sema_ops_bt.c's. */
#include "../compile/builtin.h"
#include "../compile/sema_hooks.h"
#include "sema_bt.h"

/* bpftrace's name of a map key's part: an integer is a uint64 there */
static void key_part_name(StrBuf *b, const Type *t)
{
	sb_puts(b, t->kind == TY_INT && !t->pointee ? "unsigned int64" : bpf_tn(t));
}

/* bpftrace's words for keys of another shape than the map's */
static bool bt_key_mismatch(Sema *s, const Expr *e)
{
	const Type *want = e->map->key;
	StrBuf got = {0}, exp = {0};
	for (int i = 0; i < e->args.n; i++) {
		if (i)
			sb_puts(&got, ", ");
		key_part_name(&got, e->args.v[i]->type);
	}
	for (int i = 0; want && i < (want->kind == TY_TUPLE ? want->nelem : 1); i++) {
		if (i)
			sb_puts(&exp, ", ");
		key_part_name(&exp, want->kind == TY_TUPLE ? want->elem[i] : want);
	}
	sema_error_late(s, e->loc, "Argument mismatch for %s: trying to access with arguments: [%s] "
			"when map expects arguments: [%s]", e->map->print_name, got.s ? got.s : "",
			exp.s ? exp.s : "");
	sb_free(&got);
	sb_free(&exp);
	return false;
}

/* a map given a value its type cannot take */
static bool bt_map_mismatch(Sema *s, const MapInfo *m, const Type *t, Loc loc)
{
	if (m->val->kind == TY_TUPLE && t->kind == TY_TUPLE)
		return sema_error_late(s, loc, "Type mismatch for %s: trying to assign value of type "
				       "'%s' when map already contains a value of type '%s", m->print_name,
				       tn(t), tn(m->val));
	/* bpftrace 0.17's words, its missing closing quote included */
	return sema_error(s, loc, "Type mismatch for %s: trying to assign value of type '%s' "
			  "when map already contains a value of type '%s", m->print_name,
			  bpf_tn(t), bpf_tn(m->val));
}

/* a variable given a value its type cannot take: bpftrace's words and
 * place (the '=') */
static bool bt_var_mismatch(Sema *s, const Stmt *st, const Type *held, const Type *val)
{
	return sema_error(s, st->op_loc, "Type mismatch for $%s: trying to assign value of type "
			  "'%s' when variable already contains a value of type '%s'", st->target->name,
			  bpf_tn(val), bpf_tn(held));
}

static bool bt_var_undefined(Sema *s, Expr *e)
{
	return sema_error(s, e->loc, "Undefined or undeclared variable: $%s", e->name);
}

/* The aggregation a map read holds (@c after @c = count()) where it is no
 * number (0.26 reads count() etc. as one), or NULL */
static Type *agg_read(Sema *s, Expr *e)
{
	if (e->kind != E_MAP)
		return NULL;
	e->map = script_map(s->sc, e->name, e->loc);
	return sema_map_agg_value(s, e) ? e->map->val : NULL;
}

/* bpftrace: an aggregation read as an operand is of its type there
 * ("Type mismatch for '+': comparing 'count' with 'int64'"); sonde's words
 * where bpftrace takes it.  True when neither operand is one. */
static bool bt_agg_operands(Sema *s, Expr *e)
{
	Type *l = agg_read(s, e->a), *r = agg_read(s, e->b);
	if (!l && !r)
		return true;
	Expr *other = l && r ? NULL : l ? e->b : e->a;
	if (other && !sema_expr(s, other))
		return false;
	Expr *agg = l ? e->a : e->b;
	e->a->type = l ? l : e->a->type;
	e->b->type = r ? r : e->b->type;
	if (!sema_bt_binop_types(s, e))
		return false;
	return sema_error_late(s, agg->loc, "%s holds %s, which can only be printed (print(%s))",
			       agg->map->print_name, tn(agg->map->val), agg->map->print_name);
}

/* bpftrace: the condition and both arms, then its checks of them */
static bool bt_ternary(Sema *s, Expr *e)
{
	bool ok = sema_expr(s, e->a);
	if (!(ok || s->all) || !sema_exprs2(s, e->b, e->c) || !ok)
		return false;
	return sema_bt_ternary(s, e);
}

/* bpftrace: a cast of a "none" value (an undefined variable) is an error,
 * to an integer twice; to an integer, a value of another kind than an
 * integer, a pointer or a record is refused (its first pass) */
static bool bt_cast_value(Sema *s, Expr *e, bool to_int)
{
	if (!sema_expr(s, e->a)) {
		if (!e->a->none || !s->all)
			return false;
		sema_error(s, e->loc, "Cannot cast from \"none\" type");
		return !to_int || sema_error(s, e->loc, "Casts are not supported for type: \"none\"");
	}
	const Type *t = e->a->type;
	if (!to_int || t->kind == TY_INT || t->kind == TY_RECORD || t->kind == TY_NONE ||
	    t->kind == TY_CTX)
		return true;
	return sema_error(s, e->loc, "Casts are not supported for type: \"%s\"", bpf_tn(t));
}

/* bpftrace: ++ and -- of a variable or map holding an integer or pointer */
static bool bt_incdec(Sema *s, Expr *e, const Type *t)
{
	Expr probe = *e;
	Expr held = *e->a;
	held.type = (Type *)t;
	probe.a = &held;
	return sema_bt_unop(s, &probe, e->op == OP_ADD ? "++" : "--");
}

/* bpftrace: `x op= v` is `x = x op v`: v an integer, and x a variable or map
 * that takes the integer x op v makes */
static bool bt_compound(Sema *s, Stmt *st, const Type *cur)
{
	Expr *t = st->target, *v = st->expr;
	if (!sema_expr(s, v))
		return false;
	if (cur->kind == TY_INT && v->type->kind != TY_INT && v->type->kind != TY_NONE)
		return sema_error_late(s, t->loc, "Type mismatch for '%s': comparing '%s' with '%s'",
				       op_str(st->op), bpf_tn(cur), bpf_tn(v->type));
	if (cur->kind == TY_INT || cur->kind == TY_NONE)
		return true;
	bool both_signed = v->type->kind == TY_INT && v->type->is_signed && cur->is_signed;
	/* the map message lacks its closing quote in bpftrace 0.17 too */
	return sema_error(s, t->loc, "Type mismatch for %s%s: trying to assign value of type '%s' "
			  "when %s already contains a value of type '%s%s", t->kind == E_VAR ? "$" : "",
			  t->kind == E_VAR ? t->name : t->map ? t->map->print_name : t->name,
			  both_signed ? "int64" : "unsigned int64",
			  t->kind == E_VAR ? "variable" : "map", bpf_tn(cur), t->kind == E_VAR ? "'" : "");
}

/* a variable or map assigned a "none" value (*comm, $undefined, @never):
 * one that already has a type is a type mismatch (bpftrace's first pass),
 * a new one undefined and the value no value (its final pass) */
static void bt_assign_none(Sema *s, const Stmt *st, const Type *had)
{
	const Expr *t = st->target;
	bool map = t->kind == E_MAP;
	const char *name = map ? t->map->print_name : t->name;
	if (had) /* bpftrace 0.17's words, for a map its missing closing quote included */
		sema_error(s, map ? t->loc : st->op_loc, "Type mismatch for %s%s: trying to assign "
			   "value of type 'none' when %s already contains a value of type '%s%s",
			   map ? "" : "$", name, map ? "map" : "variable", bpf_tn(had), map ? "" : "'");
	else
		sema_error_late(s, map ? t->loc : st->op_loc, "Undefined %s: %s%s",
				map ? "map" : "variable", map ? "" : "$", name);
	if (!had)
		sema_error_late(s, st->expr->loc, "Invalid expression for assignment: none");
}

/* *x of a value that is not a pointer: bpftrace types *comm "none" */
static bool bt_deref_nonptr(Sema *s, Expr *e)
{
	e->none = s->all;
	return sema_bt_unop(s, e, "dereference");
}

static const char *const bt_stack_actions[] = {"jstack", NULL};

/* the rules both generations share */
#define BT_SEMA_HOOKS \
	.every_error = true, \
	.check_once = true, \
	.none_values = true, \
	.addrspace_warn = true, \
	.stack_actions = bt_stack_actions, \
	.stack_print = "print", \
	.var_undefined = bt_var_undefined, \
	.key_mismatch = bt_key_mismatch, \
	.map_mismatch = bt_map_mismatch, \
	.var_mismatch = bt_var_mismatch, \
	.assign_none = bt_assign_none, \
	.cond = sema_bt_cond, \
	.binop_operands = bt_agg_operands, \
	.binop_ptr = sema_bt_binop_ptr, \
	.binop_types = sema_bt_binop_types, \
	.unop = sema_bt_unop, \
	.deref_nonptr = bt_deref_nonptr, \
	.ternary = bt_ternary, \
	.cast = bt_cast_value, \
	.incdec = bt_incdec, \
	.compound = bt_compound, \
	.args_before_arity = true, \
	.arg_kind_first = true, \
	.not_literal = sema_bt_not_literal, \
	.not_map = sema_bt_not_map, \
	.map_arg_keys = true, \
	.int_args_at_call = true, \
	.typed_despite_error = true, \
	.str_needs_address = true, \
	.ntop_sized_bytes = true, \
	.print_arg = sema_bt_print_arg, \
	.print_value_args = sema_bt_print_value_args,

const SemaHooks bt_sema_hooks = {
	BT_SEMA_HOOKS
};

const char *const bt_stack_modes_026[] = {"bpftrace", "perf", "raw", "build_id", NULL};

/* bpftrace 0.26.1: 0.17's rules, the bool type, strings as positional
 * parameters, its standard library's functions, builtin variables that are
 * also X() and __builtin_X, `.` reading through pointers (`->` its
 * alias), print() of a pointer, and count/sum/avg/min/max maps read as
 * values */
const SemaHooks bt_sema_hooks_026 = {
	BT_SEMA_HOOKS
	.bools = true,
	.posparam_strings = true,
	.dot_derefs = true,
	.addr_of_vars = true,
	.block_scoping = true,
	.ternary_buffers = true,
	.enum_names = true,
	.func_sets = FSET_BT_STDLIB,
	.vars_as_calls = true,
	.no_sarg = true,
	.args_values = true,
	.bare_type_names = true,
	.print_pointers = true,
	.agg_values = true,
	.stack_modes = bt_stack_modes_026,
};
