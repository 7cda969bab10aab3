/* D's aggregating functions (quantize, lquantize, llquantize, stddev) and
 * the aggregation actions (printa, trunc, normalize, denormalize, setopt),
 * and D's stack(), ustack(), jstack(): their argument rules and DTrace's
 * messages for misuse, and their rows (FUNC_D: D's only). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "codegen_d.h"
#include "../builtins/builtins.h"
#include "../python/pystack.h"
#include "printf_fmt_d.h"
#include "sema_d.h"

/* An integer constant argument (a literal, possibly negated). */
static bool const_arg(const Expr *a, int64_t *out)
{
	if (a->kind == E_INT) {
		*out = (int64_t)a->ival;
		return true;
	}
	if (a->kind == E_UNOP && a->op == OP_NEG && a->a->kind == E_INT) {
		*out = -(int64_t)a->a->ival;
		return true;
	}
	return false;
}

static bool value_arg(Sema *s, Expr *c, int i)
{
	Expr *a = c->args.v[i];
	if (!sema_expr(s, a))
		return false;
	if (a->type->kind == TY_NONE && !s->strict)
		return true;
	if (a->type->kind != TY_INT)
		return sema_error(s, a->loc, "%s( ) argument #%d must be of scalar type", c->name, i + 1);
	return true;
}

/* The optional increment after `first` fixed arguments: c->aux is its
 * index (0: none, count 1). */
static bool incr_arg(Sema *s, Expr *c, int first)
{
	c->aux = 0;
	if (c->args.n <= first)
		return true;
	Expr *a = c->args.v[first];
	if (!sema_expr(s, a))
		return false;
	if (a->type->kind != TY_INT && (a->type->kind != TY_NONE || s->strict))
		return sema_error(s, a->loc, "%s( ) increment value (argument #%d) must be of scalar "
				  "type", c->name, first + 1);
	c->aux = first;
	return true;
}

static Type *signed_agg_type(Sema *s, TypeKind k, int size)
{
	Type *t = ty_simple(s, k, size);
	t->is_signed = true; /* DTrace compares and prints aggregations signed */
	return t;
}

static bool sema_d_quantize(Sema *s, Expr *c)
{
	if (!value_arg(s, c, 0) || !incr_arg(s, c, 1))
		return false;
	c->type = signed_agg_type(s, TY_QUANTIZE, QUANT_BUCKETS * 8);
	return true;
}

static bool sema_d_stddev(Sema *s, Expr *c)
{
	if (!value_arg(s, c, 0))
		return false;
	c->type = signed_agg_type(s, TY_STDDEV, 32);
	return true;
}

/* DTrace's (Oracle's dt_cc.c) rules and words, argument numbers counted
 * after the value. */
static bool sema_d_lquantize(Sema *s, Expr *c)
{
	if (!value_arg(s, c, 0))
		return false;
	int64_t base, limit, step = 1;
	Expr *const *a = c->args.v;
	if (!const_arg(a[1], &base))
		return sema_error(s, a[1]->loc, "lquantize( ) argument #1 must be an integer constant");
	if (base < INT32_MIN || base > INT32_MAX)
		return sema_error(s, a[1]->loc, "lquantize( ) argument #1 must be a 32-bit quantity");
	if (!const_arg(a[2], &limit))
		return sema_error(s, a[2]->loc, "lquantize( ) argument #2 must be an integer constant");
	if (limit < INT32_MIN || limit > INT32_MAX)
		return sema_error(s, a[2]->loc, "lquantize( ) argument #2 must be a 32-bit quantity");
	if (limit < base)
		return sema_error(s, c->loc, "lquantize( ) base (argument #1) must be less than limit "
				  "(argument #2)");
	if (c->args.n > 3) {
		if (!const_arg(a[3], &step) || step <= 0)
			return sema_error(s, a[3]->loc, "lquantize( ) argument #3 must be a non-zero "
					  "positive integer constant");
		if (step > UINT16_MAX)
			return sema_error(s, a[3]->loc, "lquantize( ) argument #3 must be a 16-bit "
					  "quantity");
	}
	int64_t levels = (limit - base) / step;
	if (levels == 0)
		return sema_error(s, c->loc, "lquantize( ) step (argument #3) too large: must have at "
				  "least one quantization level");
	if (levels > UINT16_MAX)
		return sema_error(s, c->loc, "lquantize( ) step (argument #3) too small: number of "
				  "quantization levels must be a 16-bit quantity");
	if (!incr_arg(s, c, 4))
		return false;
	Type *t = signed_agg_type(s, TY_LHIST, (int)(levels + 2) * 8);
	t->lh_min = base;
	t->lh_step = step;
	t->lh_max = base + levels * step;
	c->type = t;
	return true;
}

static bool llq_const(Sema *s, Expr *c, int i, int64_t *v)
{
	Expr *a = c->args.v[i];
	if (!const_arg(a, v))
		return sema_error(s, a->loc, "llquantize( ) argument #%d must be an integer constant",
				  i);
	if (*v < 0 || *v > UINT16_MAX)
		return sema_error(s, a->loc, i == 1 ? "llquantize( ) argument #1 must be an unsigned "
				  "16-bit quantity greater than or equal to 2"
				  : "llquantize( ) argument #%d must be an unsigned 16-bit quantity", i);
	return true;
}

static bool llq_steps_ok(Sema *s, Expr *c, int64_t factor, int64_t low, int64_t steps)
{
	Loc l = c->args.v[1]->loc;
	if (steps < factor && factor % steps)
		return sema_error(s, l, "llquantize() argument #4 (steps) must evenly divide argument "
				  "#1 (factor) when steps<factor");
	if (steps <= factor)
		return true;
	if (steps % factor)
		return sema_error(s, l, "llquantize() argument #4 (steps) must be a multiple of "
				  "argument #1 (factor) when steps>factor");
	if (low == 0 && (factor * factor) % steps)
		return sema_error(s, l, "llquantize() argument #4 (steps) must evenly divide the "
				  "square of argument #1 (factor) when steps>factor and lmag==0");
	if (low > 0 && llquant_pow((uint64_t)factor, (int)low + 1) % (uint64_t)steps)
		return sema_error(s, l, "llquantize() argument #4 (steps) must evenly divide "
				  "pow(argument #1 (factor), lmag (argument #2) + 1) when steps>factor "
				  "and lmag==0");
	return true;
}

static bool sema_d_llquantize(Sema *s, Expr *c)
{
	if (!value_arg(s, c, 0))
		return false;
	int64_t factor, low, high, steps;
	if (!llq_const(s, c, 1, &factor))
		return false;
	if (factor < 2)
		return sema_error(s, c->args.v[1]->loc, "llquantize( ) argument #1 must be an unsigned "
				  "16-bit quantity greater than or equal to 2");
	if (!llq_const(s, c, 2, &low) || !llq_const(s, c, 3, &high))
		return false;
	if (high < low)
		return sema_error(s, c->args.v[3]->loc, "llquantize( ) argument #3 (high magnitude) "
				  "must be at least argument #2 (low magnitude)");
	if (!llquant_pow((uint64_t)factor, (int)high + 1))
		return sema_error(s, c->args.v[3]->loc, "llquantize( ) argument #3 (high magnitude) "
				  "will cause overflow of 64 bits");
	if (!llq_const(s, c, 4, &steps))
		return false;
	if (steps == 0)
		return sema_error(s, c->args.v[4]->loc, "llquantize( ) argument #4 must be a non-zero "
				  "positive integer constant");
	if (!llq_steps_ok(s, c, factor, low, steps) || !incr_arg(s, c, 5))
		return false;
	Type *t = signed_agg_type(s, TY_LLQUANTIZE, 0);
	t->llq_factor = (int)factor;
	t->llq_low = (int)low;
	t->llq_high = (int)high;
	t->llq_steps = (int)steps;
	t->size = llquant_buckets(t) * 8;
	if (t->size > 32768)
		return sema_error(s, c->loc, "llquantize( ): %d buckets are too many (at most 4096)",
				  llquant_buckets(t));
	c->type = t;
	return true;
}

/* The words DTrace uses when an aggregation gets a second, different
 * lquantize()/llquantize() shape; NULL when the two agree. */
bool sema_d_agg_mismatch(Sema *s, const Type *old, const Type *t, Loc loc)
{
	if (old->kind == TY_LHIST && t->kind == TY_LHIST) {
		if (old->lh_min != t->lh_min)
			return sema_error(s, loc, "lquantize( ) base (argument #1) doesn't match previous "
					  "declaration: expected %d, found %d", (int)old->lh_min,
					  (int)t->lh_min);
		if (old->lh_max != t->lh_max)
			return sema_error(s, loc, "lquantize( ) limit (argument #2) doesn't match "
					  "previous declaration: expected %d, found %d", (int)old->lh_max,
					  (int)t->lh_max);
		if (old->lh_step != t->lh_step)
			return sema_error(s, loc, "lquantize( ) step (argument #3) doesn't match previous "
					  "declaration: expected %d, found %d", (int)old->lh_step,
					  (int)t->lh_step);
		return true;
	}
	if (old->kind != TY_LLQUANTIZE || t->kind != TY_LLQUANTIZE)
		return true;
	static const char *const what[] = {"factor (argument #1)", "lmag (argument #2)",
					   "hmag (argument #3)", "steps (argument #4)"};
	int o[] = {old->llq_factor, old->llq_low, old->llq_high, old->llq_steps};
	int n[] = {t->llq_factor, t->llq_low, t->llq_high, t->llq_steps};
	for (int i = 0; i < 4; i++)
		if (o[i] != n[i])
			return sema_error(s, loc, "llquantize() %s doesn't match previous declaration: "
					  "expected %d, found %d", what[i], o[i], n[i]);
	return true;
}

/* The aggregation argument i of an aggregation action, as DTrace names it. */
static bool agg_arg(Sema *s, Expr *c, int i)
{
	Expr *a = c->args.v[i];
	if (a->kind != E_MAP || a->args.n)
		return sema_error(s, a->loc, "%s( ) argument #%d is incompatible with prototype:\n"
				  "\tprototype: aggregation\n\t argument: %s", c->name, i + 1,
				  a->kind == E_MAP ? "aggregation element" : a->kind == E_INT ? "int"
				  : a->kind == E_STR ? "string" : "expression");
	a->map = script_map(s->sc, a->name, a->loc);
	if (!a->map->val && s->strict)
		return sema_error(s, a->loc, "%s( ) argument #%d: undefined aggregation %s", c->name,
				  i + 1, a->map->print_name);
	if (a->map->val && !type_is_agg(a->map->val))
		return sema_error(s, a->loc, "%s( ) argument #%d must be an aggregation", c->name,
				  i + 1);
	return true;
}

static int nkeys_of(const Type *k)
{
	return !k ? 0 : k->kind == TY_TUPLE ? k->nelem : 1;
}

static const Type *key_elem(const Type *k, int i)
{
	return k->kind == TY_TUPLE ? k->elem[i] : k;
}

/* printa's format: each conversion with '@' ("%@d") prints the value of
 * the next aggregation, the others the keys in order.  The '@' is taken
 * out, the rest parsed as printf's and the '@' pieces marked agg_value;
 * f->aux2 is 1 + the first value's conversion index (0: none). */
static bool printa_format(Sema *s, Expr *f, int naggs, const Type *keys)
{
	if (f->auxp)
		return true;
	char *text = arena_alloc(&s->sc->arena, f->slen + 1);
	bool *is_value = arena_alloc(&s->sc->arena, f->slen + 1);
	size_t n = 0;
	int conv = -1, value = -1, nvalues = 0;
	bool in_conv = false;
	for (size_t i = 0; i < f->slen; i++) {
		char ch = f->sval[i];
		if (!in_conv && ch == '%' && i + 1 < f->slen && f->sval[i + 1] == '%') {
			text[n++] = ch;
			text[n++] = f->sval[++i];
			continue;
		}
		if (!in_conv && ch == '%') {
			in_conv = true;
			conv++;
		} else if (in_conv && ch == '@') {
			if (value < 0)
				value = conv;
			nvalues += !is_value[conv];
			is_value[conv] = true;
			continue;
		} else if (in_conv && isalpha((unsigned char)ch) && !strchr("hlLqjzt", ch)) {
			in_conv = false;
		}
		text[n++] = ch;
	}
	if (nvalues > naggs)
		return sema_error(s, f->loc, "printa( ) format: %d %%@ conversions for %d "
				  "aggregation%s", nvalues, naggs, naggs == 1 ? "" : "s");
	Fmt *fmt = arena_alloc(&s->sc->arena, sizeof(Fmt));
	char msg[256];
	if (!fmt_parse_d(text, n, fmt, msg, sizeof(msg)))
		return sema_error(s, f->loc, "%s", msg);
	/* values are 64-bit (dtrace's %@u of -1 is 18446744073709551615), keys
	   at their types' sizes, as D's printf converts */
	static const Type i64 = {.kind = TY_INT, .size = 8, .bits = 64, .is_signed = true};
	for (int i = 0, k = 0, key = 0; i < fmt->npieces; i++) {
		FmtPiece *p = &fmt->pieces[i];
		if (p->conv == FC_LITERAL)
			continue;
		p->agg_value = is_value[k];
		bool val = is_value[k++] || k - 1 == value;
		if (!val && key < nkeys_of(keys))
			d_widen_conv(p, key_elem(keys, key));
		key += !val;
		if (val)
			d_widen_conv(p, &i64);
	}
	script_keep_fmt(s->sc, fmt);
	f->auxp = fmt;
	f->aux2 = value + 1;
	return true;
}

static const char *d_type_name(const Type *t)
{
	return t->kind == TY_STR ? "string" : t->kind == TY_KSTACK || t->kind == TY_USTACK ? "stack"
	       : t->kind == TY_INT ? (t->is_signed ? "int64_t" : "uint64_t") : "record";
}

/* Joined aggregations must have the same keys, in DTrace's words */
static bool same_keys(Sema *s, Expr *c, int first, int i)
{
	const MapInfo *a = c->args.v[first]->map, *b = c->args.v[i]->map;
	if (!a->val || !b->val)
		return true;
	const char *an = a->print_name + 1, *bn = b->print_name + 1;
	int na = nkeys_of(a->key), nb = nkeys_of(b->key);
	if (na != nb)
		return sema_error(s, c->args.v[i]->loc, "printa( ): @%s and @%s do not have matching "
				  "key signatures: @%s has %d key%s, @%s has %d key%s", an, bn, an, na,
				  na == 1 ? "" : "s", bn, nb, nb == 1 ? "" : "s");
	for (int k = 0; k < na; k++) {
		const Type *x = key_elem(a->key, k), *y = key_elem(b->key, k);
		if (x->kind == y->kind && (x->kind != TY_INT || x->is_signed == y->is_signed))
			continue;
		return sema_error(s, c->args.v[i]->loc, "printa( ): @%s[ ] key #%d is incompatible "
				  "with @%s:\n%9s key #%d: %s\n%9s key #%d: %s", bn, k + 1, an, an, k + 1,
				  d_type_name(x), bn, k + 1, d_type_name(y));
	}
	return true;
}

/* printa(@a), printa(fmt, @a[, @b ...]), printa(@a, @b ...): several
 * aggregations are joined on their keys, one row per key */
static bool sema_d_printa(Sema *s, Expr *c)
{
	int first = c->args.v[0]->kind == E_STR ? 1 : 0;
	if (first >= c->args.n)
		return sema_error(s, c->loc, "printa( ) prototype mismatch: %d arg passed, at least 2 "
				  "expected", c->args.n);
	for (int i = first; i < c->args.n; i++)
		if (!agg_arg(s, c, i) || !same_keys(s, c, first, i))
			return false;
	return !first || printa_format(s, c->args.v[0], c->args.n - 1, c->args.v[first]->map->key);
}

static bool int_arg(Sema *s, Expr *c, int i)
{
	Expr *a = c->args.v[i];
	/* an aggregation has no value in a clause */
	const MapInfo *m = a->kind == E_MAP ? script_map(s->sc, a->name, a->loc) : NULL;
	bool agg = m && m->val && type_is_agg(m->val);
	if (!agg && !sema_expr(s, a))
		return false;
	if (agg || (a->type->kind != TY_INT && (a->type->kind != TY_NONE || s->strict)))
		return sema_error(s, a->loc, "%s( ) argument #%d must be of scalar type", c->name, i + 1);
	return true;
}

/* trunc(@a[, n]), normalize(@a, n), denormalize(@a) */
static bool sema_d_trunc(Sema *s, Expr *c)
{
	return agg_arg(s, c, 0) && (c->args.n < 2 || int_arg(s, c, 1));
}

static bool sema_d_normalize(Sema *s, Expr *c)
{
	return sema_d_trunc(s, c);
}

/* The options setopt() may change while tracing: those of printing. */
static const char *const runtime_opts[] = {"aggsortkey", "aggsortkeypos", "aggsortpos",
					   "aggsortrev", NULL};

static bool sema_d_setopt(Sema *s, Expr *c)
{
	for (int i = 0; i < c->args.n; i++)
		if (c->args.v[i]->kind != E_STR)
			return sema_error(s, c->args.v[i]->loc, "setopt( ) argument #%d must be a string "
					  "constant", i + 1);
	for (int i = 0; runtime_opts[i]; i++)
		if (!strcmp(runtime_opts[i], c->args.v[0]->sval))
			return true;
	return sema_error(s, c->args.v[0]->loc, "setopt( ): option \"%s\" cannot be set while "
			  "tracing (sonde: only aggsortkey, aggsortkeypos, aggsortpos and aggsortrev)",
			  c->args.v[0]->sval);
}

/* -x NAME=N / #pragma D option NAME=N: the last value given, or def */
static int64_t d_opt_int(const Options *o, const char *name, int64_t def)
{
	size_t n = strlen(name);
	for (int i = 0; i < o->nd_opts; i++)
		if (!strncmp(o->d_opts[i], name, n) && o->d_opts[i][n] == '=')
			def = strtoll(o->d_opts[i] + n + 1, NULL, 0);
	return def;
}

/* Argument i of stack()/ustack()/jstack(): a constant, positive for the
 * frame count (argument #1), non-negative for strsize */
static bool d_stack_arg(Sema *s, Expr *c, int i, int64_t *v)
{
	Expr *a = c->args.v[i];
	if (!const_arg(a, v) || (i == 0 && *v <= 0) || *v < 0)
		return sema_error(s, a->loc, "%s( ) argument #%d must be a %spositive integral "
				  "constant expression", c->name, i + 1, i ? "" : "non-zero ");
	return true;
}

/* jstack([n[, strsize]]): the user stack and the Python frames of a
 * CPython 3.11 process, n (the jstackframes option, DTrace's 50) of each;
 * strsize (jstackstrsize, 512) cuts each Python frame's line. */
static bool sema_d_jstack(Sema *s, Expr *c)
{
	int64_t depth = d_opt_int(&s->sc->opt, "jstackframes", 50);
	int64_t strsize = d_opt_int(&s->sc->opt, "jstackstrsize", 512);
	if ((c->args.n > 0 && !d_stack_arg(s, c, 0, &depth)) ||
	    (c->args.n > 1 && !d_stack_arg(s, c, 1, &strsize)))
		return false;
	if (depth < 1 || depth > 127)
		return sema_error(s, c->loc, "jstack( ): %lld frames asked (%s): sonde's stacks hold 1 "
				  "to 127 frames", (long long)depth, c->args.n ? "argument #1"
				  : "jstackframes");
	if (!sema_pystack_type(s, c, (int)depth, (int)(strsize > 4096 ? 4096 : strsize)))
		return false;
	c->type->stack_native = true;
	c->type->size += 16;
	s->sc->uses_ustack = true;
	return true;
}


/* stack([n]), ustack([n[, strsize]]): frames of the kernel or user stack,
 * n by default the stackframes / ustackframes option (DTrace's 20).
 * strsize (ustack helpers' strings) is accepted: Linux has no helpers. */
static bool sema_d_stack(Sema *s, Expr *c)
{
	bool user = c->name[0] == 'u';
	const char *opt = user ? "ustackframes" : "stackframes";
	int64_t depth = d_opt_int(&s->sc->opt, opt, 20), v;
	for (int i = 0; i < c->args.n; i++) {
		if (!d_stack_arg(s, c, i, &v))
			return false;
		if (i == 0)
			depth = v;
	}
	if (depth < 1 || depth > 127)
		return sema_error(s, c->loc, "%s( ): %lld frames asked (%s): sonde's stacks hold 1 "
				  "to 127 frames", c->name, (long long)depth, c->args.n ? "argument #1"
				  : opt);
	c->type = ty_simple(s, user ? TY_USTACK : TY_KSTACK, user ? 16 : 8);
	c->type->stack_depth = (int)depth;
	s->sc->uses_kstack |= !user;
	s->sc->uses_ustack |= user;
	return true;
}

static const FuncDef agg_funcs[] = {
	/* the aggregations' updates are the type's (CodegenHooks.agg_update) */
	{"quantize", FK_AGG, 1, 2, sema_d_quantize, FUNC_D},
	{"lquantize", FK_AGG, 3, 5, sema_d_lquantize, FUNC_D},
	{"llquantize", FK_AGG, 5, 6, sema_d_llquantize, FUNC_D},
	{"stddev", FK_AGG, 1, 1, sema_d_stddev, FUNC_D},
	{"printa", FK_STMT, 1, 64, sema_d_printa, FUNC_D, .gen_stmt = dgen_printa},
	{"trunc", FK_STMT, 1, 2, sema_d_trunc, FUNC_D, .gen_stmt = dgen_trunc},
	{"normalize", FK_STMT, 2, 2, sema_d_normalize, FUNC_D, .gen_stmt = dgen_normalize},
	{"denormalize", FK_STMT, 1, 1, sema_d_normalize, FUNC_D, .gen_stmt = dgen_normalize},
	{"setopt", FK_STMT, 1, 2, sema_d_setopt, FUNC_D, .gen_stmt = dgen_setopt},
	/* kstack()'s and ustack()'s values (builtins/stacks.c) */
	{"stack", FK_EXPR, 0, 1, sema_d_stack, FUNC_D, .gen_into = builtin_gen_stack_into},
	{"ustack", FK_EXPR, 0, 2, sema_d_stack, FUNC_D, .gen_into = builtin_gen_stack_into},
	/* the walk of the Python frames is python/'s */
	{"jstack", FK_EXPR, 0, 2, sema_d_jstack, FUNC_D, .gen_into = py_gen_jstack_into},
};
BUILTINS(agg_funcs)

