/* The front end's table of runtime hooks (frontend_rt.h) */
#include "frontend.h"
#include "frontend_rt.h"

const FrontendRt *frontend_rt(const OutCtx *o)
{
	static const FrontendRt none;
	return o && o->fe ? o->fe : &none;
}

void frontend_use(const Frontend *f, Options *opt, RunOpts *run)
{
	opt->dialect = f->dialect;
	opt->sema = f->sema;
	opt->codegen = f->codegen;
	opt->target.rules = f->probes;
	if (run)
		run->fe = f->rt;
}
