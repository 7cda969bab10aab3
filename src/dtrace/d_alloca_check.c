/* dtrace's D_ALLOCA_INCOMPAT: a variable holds either alloca() memory or
 * other pointers, never both, over the whole script (dtrace-utils flags
 * the identifier the first time it is assigned one or the other, in clause
 * order, and refuses the other kind later, even after `a = NULL`).  An
 * alloca pointer is an alloca() call, a cast of one, one plus or minus an
 * integer, or a variable flagged alloca; integers (NULL) and copyin()'s
 * scratch memory are neither.  A
 * ternary with one branch of each kind cannot be assigned to a variable.
 * dtrace names the clause's line for the first error (it is found while
 * the clause is cooked), the statement's for the ternary.
 *
 * Runs after sema (the expressions are typed), on the rewritten program:
 * globals and self->x are E_MAP without keys, this->x an E_VAR. */
#include <string.h>

#include "../lang/types.h"
#include "../util/strindex.h"
#include "dtrace.h"

enum { K_NONE, K_ALLOCA, K_OTHER, K_MIXED };

typedef struct Check {
	StrIndex kinds; /* variable name -> K_ALLOCA or K_OTHER */
	const Probe *probe;
	Error *err;
} Check;

/* the variable an expression names, or NULL */
static const char *var_name(const Expr *e)
{
	if (e->kind == E_VAR || (e->kind == E_MAP && !e->args.n && e->name[0] != '@'))
		return e->name;
	return NULL;
}

static int kind_of(Check *c, const Expr *e)
{
	if (!e)
		return K_NONE;
	const char *v = var_name(e);
	int k = K_NONE;
	if (e->kind == E_CALL && !strcmp(e->name, "alloca"))
		return K_ALLOCA;
	if (e->kind == E_CALL && !strcmp(e->name, "copyin"))
		return K_NONE; /* scratch memory too: not refused either way */
	if (e->kind == E_CAST)
		k = kind_of(c, e->a);
	else if (e->kind == E_BINOP && (e->op == OP_ADD || e->op == OP_SUB)) {
		int l = kind_of(c, e->a), r = kind_of(c, e->b);
		k = l == K_ALLOCA || r == K_ALLOCA ? K_ALLOCA : K_NONE;
	} else if (e->kind == E_TERNARY) {
		int l = kind_of(c, e->b), r = kind_of(c, e->c);
		if ((l == K_ALLOCA && r == K_OTHER) || (l == K_OTHER && r == K_ALLOCA))
			return K_MIXED;
		k = l != K_NONE ? l : r;
	} else if (v) {
		const int *had = str_index_find(&c->kinds, v);
		if (had && *had == K_ALLOCA)
			return K_ALLOCA;
	}
	if (k == K_NONE && e->type && type_is_ptr(e->type))
		k = K_OTHER;
	return k;
}

/* the identifier as dtrace names it: `a`, this->a and self->a are all `a` */
static const char *ident(const char *name)
{
	const char *arrow = strstr(name, "->");
	if (arrow)
		return arrow + 2;
	return name[0] == '`' ? name + 1 : name;
}

static bool check_assign(Check *c, const Stmt *s)
{
	const char *v = s->op == OP_NONE ? var_name(s->target) : NULL;
	if (!v)
		return true;
	int k = kind_of(c, s->expr);
	if (k == K_MIXED)
		return error_at(c->err, s->loc, "ternary conditional with alloca and non-alloca "
				"branches cannot be assigned to a variable");
	if (k == K_NONE)
		return true;
	const int *had = str_index_find(&c->kinds, v);
	if (had && *had != k)
		return error_at(c->err, c->probe->loc, "%s: cannot reuse the same identifier for "
				"both alloca and non-alloca allocations", ident(v));
	str_index_put(&c->kinds, v, k);
	return true;
}

static bool check_stmts(Check *c, const StmtList *l)
{
	for (int i = 0; i < l->n; i++) {
		const Stmt *s = l->v[i];
		if (s->kind == S_ASSIGN && !check_assign(c, s))
			return false;
		if (!check_stmts(c, &s->body) || !check_stmts(c, &s->els))
			return false;
	}
	return true;
}

bool d_alloca_check(const Program *p, Error *err)
{
	Check c = {.err = err};
	bool ok = true;
	for (int i = 0; ok && i < p->nprobes; i++) {
		c.probe = p->probes[i];
		ok = check_stmts(&c, &c.probe->body);
	}
	str_index_free(&c.kinds);
	return ok;
}
