/* The traced process's CPython, found before the compile: only when the
 * program walks Python stacks (opening the interpreter's ELF costs), by
 * the command line that knows the target, so that sema reads a result
 * (Options.py) and opens no file. */
#include <stdlib.h>

#include "../sym/pylayout.h"
#include "pystack.h"

static bool stmts_walk(const StmtList *l);

static bool expr_walks(const Expr *e)
{
	if (!e)
		return false;
	if (py_expr_walks_stack(e) || stmts_walk(&e->block) || expr_walks(e->a) || expr_walks(e->b) ||
	    expr_walks(e->c))
		return true;
	for (int i = 0; i < e->args.n; i++)
		if (expr_walks(e->args.v[i]))
			return true;
	return false;
}

static bool stmts_walk(const StmtList *l)
{
	for (int i = 0; i < l->n; i++) {
		const Stmt *st = l->v[i];
		if (expr_walks(st->target) || expr_walks(st->expr) || stmts_walk(&st->body) ||
		    stmts_walk(&st->els))
			return true;
	}
	return false;
}

static bool program_walks(const Program *p)
{
	for (int i = 0; i < p->nprobes; i++)
		if (expr_walks(p->probes[i]->pred) || stmts_walk(&p->probes[i]->body))
			return true;
	return false;
}

PyTarget *py_target_find(const Program *ast, const ProbeTarget *target)
{
	if (!ast || !program_walks(ast))
		return NULL;
	PyTarget *t = xcalloc(1, sizeof(*t));
	t->ok = pylayout_find(target->sym, target->maps_pid, target->cmd, &t->layout, t->err, sizeof(t->err));
	return t;
}

void py_target_free(PyTarget *t)
{
	if (t)
		pylayout_free(&t->layout);
	free(t);
}
