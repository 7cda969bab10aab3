/* BEGIN and END: raw-tracepoint programs that sonde runs itself through
 * BPF_PROG_TEST_RUN, before the other probes start and after they stop. */
#include <string.h>

#include "../util/util.h"
#include "provider.h"

static bool special_expand(const char *rest, Loc loc, ProbeSpecList *out, Error *err)
{
	(void)err;
	const Provider *p = provider_find(rest);
	ProbeSpec *s = probe_spec_add(out, p, loc);
	s->name = xstrdup(rest);
	return true;
}

static int no_args(const ProbeSpec *p, int n)
{
	(void)p;
	(void)n;
	return -1;
}

const Provider provider_begin = {
	.name = "BEGIN",
	.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT,
	.expand = special_expand,
	.ctx_arg_offset = no_args,
	.is_special = true,
};

const Provider provider_end = {
	.name = "END",
	.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT,
	.expand = special_expand,
	.ctx_arg_offset = no_args,
	.is_special = true,
};
