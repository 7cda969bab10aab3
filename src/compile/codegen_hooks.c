/* The front end's table of code generation hooks (codegen_hooks.h), and
 * the checks that are the front end's or nothing */
#include "codegen.h"

const CodegenHooks *codegen_hooks(const Script *sc)
{
	static const CodegenHooks none;
	return sc->opt.codegen ? sc->opt.codegen : &none;
}

void cg_divisor_check(Gen *g, int reg)
{
	if (codegen_hooks(g->sc)->divisor_check)
		codegen_hooks(g->sc)->divisor_check(g, reg);
}

int cg_fault_label(Gen *g, int kind, int addr_slot)
{
	if (codegen_hooks(g->sc)->fault_label)
		return codegen_hooks(g->sc)->fault_label(g, kind, addr_slot);
	return g->exit_label;
}

void cg_read_call(Gen *g, int helper)
{
	if (codegen_hooks(g->sc)->read_call)
		codegen_hooks(g->sc)->read_call(g, helper);
	else
		emit_call(g, helper);
}
