#include "gen.h"

bool emit_finish(Gen *g)
{
	if (bpf_emit_finish(&g->code))
		return true;
	return error_at(g->err, g->probe ? g->probe->loc : (Loc){0},
			"program too large: a jump is out of range (%s)",
			g->spec ? g->spec->name : "probe");
}

int stack_push(Gen *g)
{
	g->stack_used += 8;
	if (g->stack_used > g->stack_max)
		g->stack_max = g->stack_used;
	if (g->stack_used > 480)
		error_at(g->err, g->probe ? g->probe->loc : (Loc){0},
			 "expression too deeply nested for the 512-byte BPF stack");
	return -8 - g->stack_used; /* -8 holds the scratch map key */
}

void stack_pop(Gen *g)
{
	g->stack_used -= 8;
}

int scratch_alloc(Gen *g, int size)
{
	int off = g->scratch_top;
	g->scratch_top += (size + 7) & ~7;
	if (g->scratch_top > g->scratch_max)
		g->scratch_max = g->scratch_top;
	return off;
}

void emit_memzero(Gen *g, int dst_off, int n)
{
	bpf_emit_memzero(&g->code, dst_off, n);
	if (g->code.zero_size > g->sc->zero_size)
		g->sc->zero_size = g->code.zero_size;
}
