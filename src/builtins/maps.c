/* The functions on whole maps and their entries: delete, clear, zero (D's
 * clear() of an aggregation too); each one's type rule and code
 * generation.  clear() and zero() are done by the runtime, on an event. */
#include "../compile/codegen.h"

/* delete(@m[k]): the keys as the map's other uses have them */
static bool check_delete(Sema *s, Expr *c)
{
	return sema_arg_map(s, c, 0, true);
}

static void gen_delete(Gen *g, const Expr *e)
{
	gen_map_delete(g, e->args.v[0]);
}

/* clear(@m), zero(@m): the whole map, without [keys] */
static bool check_whole_map(Sema *s, Expr *c)
{
	return sema_arg_map(s, c, 0, false);
}

static void gen_map_event(Gen *g, const Expr *e, EventKind kind)
{
	EventDesc *ev = event_new(g, kind, 0);
	ev->map = e->args.v[0]->map;
	gen_simple_event(g, ev);
}

static void gen_clear(Gen *g, const Expr *e)
{
	gen_map_event(g, e, EV_CLEAR);
}

static void gen_zero(Gen *g, const Expr *e)
{
	gen_map_event(g, e, EV_ZERO);
}

static const FuncDef map_funcs[] = {
	{"delete", F_NONE, FK_STMT, 1, 1, check_delete, .gen_stmt = gen_delete},
	{"clear", F_NONE, FK_STMT, 1, 1, check_whole_map, .gen_stmt = gen_clear},
	{"zero", F_NONE, FK_STMT, 1, 1, check_whole_map, .gen_stmt = gen_zero},
};
BUILTINS(map_funcs)
