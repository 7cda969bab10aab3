/* D subroutines: code generation dispatched to each family's file. */
#include "../compile/codegen.h"
#include "dfunc.h"

bool dfunc_gen_int(Gen *g, const Expr *e)
{
	return dfunc_string_int(g, e) || dfunc_misc_int(g, e) || dfunc_spec_int(g, e) ||
	       dfunc_copy_int(g, e) || dfunc_num_int(g, e);
}

bool dfunc_gen_into(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	return dfunc_string_into(g, e, dst_off, dt) || dfunc_copy_into(g, e, dst_off, dt) ||
	       dfunc_inet_into(g, e, dst_off, dt) || dfunc_psargs_into(g, e, dst_off, dt) ||
	       dfunc_xlate_into(g, e, dst_off, dt) || dfunc_path_into(g, e, dst_off, dt);
}

bool dfunc_gen_stmt(Gen *g, const Expr *e)
{
	return dfunc_destr_stmt(g, e) || dfunc_spec_stmt(g, e) || dfunc_copy_stmt(g, e) ||
	       dfunc_mem_stmt(g, e);
}
