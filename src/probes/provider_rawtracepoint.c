/* rawtracepoint:NAME: the tracepoint's raw arguments as arg0.., without the
 * format-file copy that tracepoint: programs get. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>

#include "../util/util.h"
#include "provider.h"

struct rtp_expand {
	ProbeSpecList *out;
	Loc loc;
	const char *last;
};

static void rtp_add(ProbeSpecList *out, const char *name, Loc loc)
{
	ProbeSpec *s = probe_spec_add(out, provider_find("rawtracepoint"), loc);
	s->func = xstrdup(name);
	StrBuf b = {0};
	sb_printf(&b, "rawtracepoint:%s", name);
	s->name = b.s;
}

static void rtp_found(const char *cat, const char *name, void *arg)
{
	(void)cat;
	struct rtp_expand *x = arg;
	for (int i = 0; i < x->out->n; i++)
		if (!strcmp(x->out->v[i].func, name))
			return;
	rtp_add(x->out, name, x->loc);
}

static bool rtp_expand(const char *rest, Loc loc, ProbeSpecList *out, Error *err)
{
	const char *name = strrchr(rest, ':') ? strrchr(rest, ':') + 1 : rest;
	if (!*name)
		return error_at(err, loc, "rawtracepoint probes are written rawtracepoint:NAME");
	if (!has_wildcard(name)) {
		rtp_add(out, name, loc);
		return true;
	}
	ProbeSpecList found = {0};
	struct rtp_expand x = {&found, loc, NULL};
	tracefs_foreach("*", name, rtp_found, &x);
	if (!found.n) {
		free(found.v);
		return error_at(err, loc, "no tracepoint matches 'rawtracepoint:%s'", rest);
	}
	for (int i = 0; i < found.n; i++)
		rtp_add(out, found.v[i].func, loc);
	probe_spec_list_free(&found);
	return true;
}

static int rtp_arg_offset(const ProbeSpec *p, int n)
{
	(void)p;
	return n >= 0 && n < 12 ? n * 8 : -1;
}

static bool rtp_attach(const ProbeSpec *p, int prog_fd, Attached *out, char *err, size_t errlen)
{
	int fd = bpf_raw_tracepoint_open(p->func, prog_fd);
	if (fd < 0) {
		snprintf(err, errlen, "%s", fd == -ENOENT ? "no such raw tracepoint in this kernel"
							: strerror(-fd));
		return false;
	}
	attached_add(out, fd);
	return true;
}

const Provider provider_rawtracepoint = {
	.name = "rawtracepoint",
	.aliases = {"rt"},
	.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT,
	.expand = rtp_expand,
	.ctx_arg_offset = rtp_arg_offset,
	.attach = rtp_attach,
	.space = SPACE_KERNEL,
	.can_signal = true,
};
