/* BEGIN and END: raw-tracepoint programs that sonde runs itself through
 * BPF_PROG_TEST_RUN, before the other probes start and after they stop.
 * D's dtrace:::ERROR: programs tail-called by a program that faults
 * (dtrace/codegen_fault_d.c), of that program's type. */
#include <ctype.h>
#include <string.h>

#include "../util/util.h"
#include "provider.h"

extern const Provider provider_self;

static bool special_expand(const char *rest, Loc loc, ProbeSpecList *out, Error *err)
{
	(void)err;
	const Provider *p = provider_find(rest);
	ProbeSpec *s = probe_spec_add(out, p, loc);
	s->name = xstrdup(rest);
	if (out->target.rules && out->target.rules->lower_special)
		for (char *c = s->name; *c; c++)
			*c = (char)tolower((unsigned char)*c);
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
	.is_special = SPECIAL_BEGIN,
};

const Provider provider_end = {
	.name = "END",
	.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT,
	.expand = special_expand,
	.ctx_arg_offset = no_args,
	.is_special = SPECIAL_END,
};

/* self:signal:SIGUSR1, the one self probe bpftrace 0.26 has */
static bool self_expand(const char *rest, Loc loc, ProbeSpecList *out, Error *err)
{
	if (strcmp(rest, "signal:SIGUSR1"))
		return error_at(err, loc, "self:%s: the self probe is self:signal:SIGUSR1 (bpftrace 0.26 "
				"has no other)", rest);
	ProbeSpec *s = probe_spec_add(out, &provider_self, loc);
	s->name = xstrdup("self:signal:SIGUSR1");
	s->target = xstrdup("signal");
	s->func = xstrdup("SIGUSR1");
	return true;
}

const Provider provider_self = {
	.name = "self",
	.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT,
	.expand = self_expand,
	.ctx_arg_offset = no_args,
	.is_special = SPECIAL_SIGNAL,
	.special_parts = true,
};

/* ERROR's argN are the fault's record (codegen_fault_d.c), arg0..arg9 */
static int error_args(const ProbeSpec *p, int n)
{
	(void)p;
	return n >= 0 && n <= 9 ? 8 * n : -1;
}

#define ERROR_PROVIDER(type) \
	{ .name = "ERROR", .prog_type = type, .expand = NULL, \
	  .ctx_arg_offset = error_args, .is_special = SPECIAL_ERROR }

static const Provider error_providers[] = {
	ERROR_PROVIDER(BPF_PROG_TYPE_RAW_TRACEPOINT), ERROR_PROVIDER(BPF_PROG_TYPE_TRACEPOINT),
	ERROR_PROVIDER(BPF_PROG_TYPE_PERF_EVENT),     ERROR_PROVIDER(BPF_PROG_TYPE_KPROBE),
};

const Provider *provider_error(enum bpf_prog_type type)
{
	for (size_t i = 0; i < sizeof(error_providers) / sizeof(error_providers[0]); i++)
		if (error_providers[i].prog_type == type)
			return &error_providers[i];
	return NULL;
}
