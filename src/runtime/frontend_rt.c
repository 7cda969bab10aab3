/* The front end's table of runtime hooks (frontend_rt.h) */
#include "frontend_rt.h"

const FrontendRt *frontend_rt(const OutCtx *o)
{
	static const FrontendRt none;
	return o && o->fe ? o->fe : &none;
}
