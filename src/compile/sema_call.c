/* Functions: one table row per function with its argument count and a
 * check that types the call. */
#include <string.h>

#include "sema.h"
#include "sema_hooks.h"
#include "builtin.h"

/* The result types of the functions whose type the function alone
 * decides: the checks set them, and so does bt_kept_type for a call whose
 * argument failed (bpftrace types it all the same). */
bool sema_arg_int(Sema *s, Expr *call, int i)
{
	Expr *a = call->args.v[i];
	if (!sema_expr(s, a))
		return false;
	if (a->type->kind == TY_NONE && !s->strict)
		return true;
	if (a->type->kind != TY_INT)
		return sema_error(s, a->loc, "%s() argument %d must be an integer", call->name, i + 1);
	return true;
}

bool sema_arg_literal_int(Sema *s, Expr *call, int i, int64_t *out)
{
	Expr *a = call->args.v[i];
	sema_posparam_fold(s, a);
	bool neg = a->kind == E_UNOP && a->op == OP_NEG && a->a->kind == E_INT;
	if (a->kind != E_INT && !neg)
		return sema_error(s, a->loc, "%s() argument %d must be an integer literal", call->name,
				  i + 1);
	*out = neg ? -(int64_t)a->a->ival : (int64_t)a->ival;
	return true;
}

/* str($N) where a literal is wanted (kaddr(str($1)), cgroupid(str($2))):
 * the parameter's text, as bpftrace folds it ("" past the last one) */
static void fold_str_param(Sema *s, Expr *a)
{
	if (a->kind != E_CALL || strcmp(a->name, "str") || a->args.n != 1 ||
	    a->args.v[0]->kind != E_POSPARAM)
		return;
	const Options *o = &s->sc->opt;
	int64_t n = a->args.v[0]->ival;
	const char *p = n >= 1 && n <= o->nparams ? o->params[n - 1] : "";
	a->kind = E_STR;
	a->slen = strlen(p);
	a->sval = arena_strndup(&s->sc->arena, p, a->slen);
	a->args.n = 0;
}

bool sema_arg_literal_str(Sema *s, Expr *call, int i)
{
	Expr *a = call->args.v[i];
	fold_str_param(s, a);
	if (a->kind != E_STR && sema_hooks(s)->not_literal)
		return sema_hooks(s)->not_literal(s, call, a, "string");
	if (a->kind != E_STR)
		return sema_error(s, a->loc, "%s() argument %d must be a string literal", call->name,
				  i + 1);
	return true;
}

bool sema_arg_map(Sema *s, Expr *call, int i, bool keys_allowed)
{
	Expr *a = call->args.v[i];
	const SemaHooks *h = sema_hooks(s);
	if (a->kind != E_MAP && h->not_map)
		return h->not_map(s, call, false);
	if (a->kind != E_MAP)
		return sema_error(s, a->loc, "%s() expects a map, like %s(@name)", call->name,
				  call->name);
	if (!keys_allowed && a->args.n && h->not_map)
		return h->not_map(s, call, true);
	if (!keys_allowed && a->args.n)
		return sema_error(s, a->loc, "%s() takes a whole map, without [keys]", call->name);
	a->map = script_map(s->sc, a->name, a->loc);
	/* delete(@m[k]): the keys as the map's other uses have them (bpftrace
	 * refuses delete(@m) of a map with keys, and keys of another shape) */
	if (keys_allowed && h->map_arg_keys && !sema_map_key(s, a))
		return false;
	for (int k = 0; k < a->args.n; k++)
		if (!sema_expr(s, a->args.v[k]))
			return false;
	if (!a->map->val && s->strict && a->map->failed)
		return true; /* its assignment's error is reported, in its place */
	if (!a->map->val && s->strict)
		return sema_error_late(s, a->loc, "Undefined map: %s\nhint: it is never assigned a "
				       "value", a->map->print_name);
	return true;
}


/* an operand of kind k, with bpftrace's message otherwise */
bool sema_arg_kind(Sema *s, Expr *call, int i, TypeKind k)
{
	Expr *a = call->args.v[i];
	if (!sema_expr(s, a))
		return false;
	if (a->type->kind == TY_NONE && !s->strict)
		return true;
	if (a->type->kind != k)
		return sema_error_late(s, a->loc, "%s() only supports %s arguments (%s provided)", call->name,
				  k == TY_STR ? "string" : "integer", bpf_kind(a->type));
	return true;
}

/* Registers reg() names: x86-64 struct pt_regs in field order, 8 bytes
 * each.  The context of kprobe/uprobe programs is a pt_regs, and that of
 * perf-event programs (profile, interval, software, watchpoint) starts
 * with one. */
static const char *const pt_regs_fields[] = {
	"r15", "r14", "r13", "r12", "bp", "bx", "r11", "r10", "r9",    "r8", "ax",
	"cx",  "dx",  "si",  "di",  "orig_ax", "ip", "cs", "flags", "sp", "ss",
};

int pt_regs_offset(const char *reg)
{
	for (size_t i = 0; i < sizeof(pt_regs_fields) / sizeof(pt_regs_fields[0]); i++)
		if (!strcmp(pt_regs_fields[i], reg))
			return (int)i * 8;
	return -1;
}

/* reg() or uaddr() in a probe that has no use for it: bpftrace 0.17 says
 * so after the argument's own errors and then checks the argument as well
 * (reg($u) in BEGIN: $u, the probe type, the literal); false to stop */
bool sema_bt_wrong_probe(Sema *s, Expr *c)
{
	if (s->all && c->args.v[0]->kind != E_STR)
		(void)sema_expr(s, c->args.v[0]);
	sema_error(s, c->loc, "%s can not be used with \"%s\" probes", c->name, s->spec->prov->name);
	return s->all;
}

/* an aggregation's integer operand, with bpftrace 0.17's message at the call
 * ("sum() only supports integer arguments (string provided)"; a pointer is
 * refused too) */
bool sema_agg_int_arg(Sema *s, Expr *c, int i)
{
	Expr *a = c->args.v[i];
	if (!sema_expr(s, a))
		return false;
	if (a->type->kind == TY_NONE && !s->strict)
		return true;
	if (a->type->kind != TY_INT || a->type->pointee)
		return sema_error_late(s, c->loc, "%s() only supports integer arguments (%s provided)", c->name,
				  bpf_kind(a->type));
	return true;
}

bool sema_int_operand(Sema *s, Expr *c, int i)
{
	return sema_hooks(s)->int_args_at_call ? sema_agg_int_arg(s, c, i) : sema_arg_int(s, c, i);
}

/* bpftrace's words: "no arguments", "one argument", "4 arguments" */
static const char *n_arguments(int n)
{
	static char buf[32];
	if (n <= 1)
		return n ? "one argument" : "no arguments";
	snprintf(buf, sizeof(buf), "%d arguments", n);
	return buf;
}


/* the type bpftrace gives a call whose argument it refused: str() still
 * makes a string, ksym() a ksym...; kptr(), uptr() and bswap() the
 * argument's, "none" for none */
static void bt_kept_type(Sema *s, Expr *c, const Expr *a)
{
	if (c->func->kept_type)
		c->type = c->func->kept_type(s);
	else
		c->none = a->none;
}

/* an argument whose own check failed but that has bpftrace's type all the
 * same (str(ksym($u)): a ksym) */
static bool kept_type(const Expr *a)
{
	return a->kind == E_CALL && a->type && a->type->kind != TY_NONE;
}

static bool bt_arg_check(Sema *s, Expr *c)
{
	const BtArgCheck *k = c->func->bt_arg;
	if (!k || !c->args.n || !sema_hooks(s)->arg_kind_first)
		return true;
	Expr *a = c->args.v[k->last ? c->args.n - 1 : 0];
	if (a->kind == E_POSPARAM) /* str($1): the parameter's text */
		return true;
	bool ok = sema_expr(s, a);
	bool typed = k->typed && kept_type(a);
	if (!ok && (!s->all || (!a->none && !typed)))
		return false;
	const char *kind = "none";
	if (!a->none) {
		const Type *t = a->type;
		bool ptr = type_is_ptr(t);
		bool taken = t->kind == TY_NONE || (t->kind == TY_INT && (!ptr || k->ptrs));
		if (taken || (ok && !k->ints))
			return ok;
		kind = ok ? bpf_kind(t) : bpf_tn(t);
	}
	bt_kept_type(s, c, a);
	return sema_error(s, c->loc, k->msg, c->name, kind);
}

/* bpftrace looks at a call's arguments before counting them */
static bool arity_error(Sema *s, Expr *e, const FuncDef *f)
{
	for (int i = 0; s->all && sema_hooks(s)->args_before_arity && i < e->args.n; i++)
		if (e->args.v[i]->kind != E_MAP)
			sema_expr(s, e->args.v[i]);
	if (f->min_args == f->max_args)
		return sema_error(s, e->loc, "%s() requires %s (%d provided)", f->name,
				  n_arguments(f->min_args), e->args.n);
	if (e->args.n < f->min_args)
		return sema_error(s, e->loc, "%s() requires at least %s (%d provided)", f->name,
				  n_arguments(f->min_args), e->args.n);
	return sema_error(s, e->loc, "%s() takes up to %s (%d provided)", f->name,
			  n_arguments(f->max_args), e->args.n);
}

bool sema_call(Sema *s, Expr *e, CallCtx ctx)
{
	const FuncDef *f = func_find_in(e->name, s->sc->opt.dialect, sema_hooks(s)->func_sets);
	if (!f && !e->args.n && sema_hooks(s)->vars_as_calls && sema_builtin_known(s, e)) {
		e->kind = E_BUILTIN; /* comm(): the variable comm */
		e->none = !sema_builtin(s, e);
		return !e->none;
	}
	if (!f)
		return sema_error_pre(s, e->loc, "Unknown function: %s", e->name);
	e->func = f;
	if (e->args.n < f->min_args || e->args.n > f->max_args)
		return sema_hooks(s)->arity_error ? sema_hooks(s)->arity_error(s, e, f) : arity_error(s, e, f);
	if (f->kind == FK_STMT && ctx != CALL_STMT)
		return sema_error(s, e->loc, "%s() does not return a value", f->name);
	if (f->kind == FK_VAR && ctx != CALL_VAR)
		return sema_error(s, e->loc, "%s() should be assigned to a variable", f->name);
	if (f->kind == FK_AGG && ctx != CALL_AGG)
		return sema_error(s, e->loc, "%s() should be directly assigned to a map\nhint: @name = "
				  "%s(...)", f->name, f->name);
	e->type = ty_simple(s, TY_NONE, 0);
	const SemaHooks *h = sema_hooks(s);
	if (h->call_order && !h->call_order(s, e, f))
		return false;
	return bt_arg_check(s, e) && f->check(s, e);
}
