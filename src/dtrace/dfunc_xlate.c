/* D's translated struct as a value: `xlate <struct T>(x)` with no member
 * after it.  The D front end (src/dtrace/d_builtins.c) turns it into
 * __xlate_struct(EXPR, ...): one expression per member the translator
 * defines, their names in auxp (a NULL-ended array).  The value is the
 * output struct in its C layout: zeros, then each member's value stored at
 * the member's offset and width (DTrace zero-fills the members a
 * translator leaves out).  It can be traced (a hex dump, as dtrace prints
 * a struct), assigned to a variable and its members read from there. */
#include <string.h>

#include "../compile/codegen.h"
#include "dfunc.h"
#include "sema_d.h"

static const Field *field_named(Type *rec, const char *name)
{
	int n;
	const Field *f = type_fields(rec, &n);
	for (int i = 0; i < n; i++)
		if (*f[i].name && !strcmp(f[i].name, name))
			return &f[i];
	return NULL;
}

/* a member's value fits the member as dtrace's assignment rules allow:
 * integers and pointers into integers and pointers, strings into char
 * arrays (dtrace checks them where the translator is declared, sonde where
 * the whole struct is used: a member reached alone has its expression's
 * type) */
static bool member_fits(const Field *f, const Expr *v)
{
	if (f->bit_width)
		return false;
	if (f->type->kind == TY_INT) /* D: an integer is no pointer, but for a constant 0 */
		return v->type->kind == TY_INT &&
		       (type_is_ptr(f->type) == type_is_ptr(v->type) || (v->kind == E_INT && !v->ival));
	return f->type->kind == TY_STR && v->type->kind == TY_STR;
}

bool dcheck_xlate_struct(Sema *s, Expr *c)
{
	if (!c->auxp || !c->sval) /* only the D front end writes it */
		return sema_error(s, c->loc, "Unknown function: %s", c->name);
	Type *t = sema_ctype_named(s, c->sval, c->loc);
	if (!t)
		return false;
	const char **names = c->auxp;
	for (int i = 0; i < c->args.n; i++) {
		Expr *a = c->args.v[i];
		if (!sema_expr(s, a))
			return false;
		if (a->type->kind == TY_NONE && !s->strict)
			return true;
		const Field *f = field_named(t, names[i]);
		char fb[160], vb[160];
		if (!f) /* a member of an anonymous struct inside: not laid out here */
			return sema_error(s, a->loc, "xlate <%s>: member %s is not a direct member",
					  c->sval, names[i]);
		if (!member_fits(f, a))
			return sema_error(s, c->loc, "translator member %s definition uses incompatible "
					  "types: \"%s\" = \"%s\"", names[i],
					  sema_d_type_name(f->type, fb, sizeof(fb)),
					  sema_d_type_name(a->type, vb, sizeof(vb)));
	}
	c->type = t;
	return true;
}

static int width_of(int size)
{
	return size == 1 ? BPF_B : size == 2 ? BPF_H : size == 4 ? BPF_W : BPF_DW;
}

static void xlate_into(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	const char **names = e->auxp;
	emit_memzero(g, dst_off, dt->size);
	for (int i = 0; i < e->args.n; i++) {
		const Field *f = field_named(e->type, names[i]);
		if (f->type->kind == TY_STR) {
			gen_into(g, e->args.v[i], dst_off + f->offset, f->type);
			continue;
		}
		gen_int(g, e->args.v[i]);
		emit_stx(g, width_of(f->type->size), R_SCR, BPF_REG_0, dst_off + f->offset);
	}
}

/* xlate <T>(x) left for sema by the D front end (which turns each
 * xlate <T>(x).MEMBER into the translator's expression): a translated
 * struct as a whole, or a type no translator gives */
static bool dcheck_xlate(Sema *s, Expr *c)
{
	if (!sema_expr(s, c->args.v[0]))
		return false;
	if (c->aux)
		return sema_error(s, c->loc, "xlate <%s>: sonde translates a whole struct only with a "
				  "translator of the script, not a pointer to one: use members (xlate <%s>(x)%s"
				  "MEMBER)", c->sval, c->sval, strchr(c->sval, '*') ? "->" : ".");
	char buf[160];
	return sema_error(s, c->loc, "cannot translate from \"%s\" to \"%s\"",
			  sema_d_type_name(c->args.v[0]->type, buf, sizeof(buf)), c->sval);
}

/* xlate: what the D front end left of a translation (an error), and a
 * whole translated struct */
static const FuncDef xlate_funcs[] = {
	{"xlate", FK_EXPR, 1, 1, dcheck_xlate, FUNC_D},
	{"__xlate_struct", FK_EXPR, 0, 64, dcheck_xlate_struct, FUNC_D,
	 .gen_into = xlate_into},
};
BUILTINS(xlate_funcs)
