/* rawtracepoint[:MODULE]:NAME: the tracepoint's raw arguments as arg0..,
 * without the format-file copy that tracepoint: programs get.  Under
 * ProbeRules.rawtp_btf (bpftrace 0.26), where the kernel has the
 * tracepoint's BTF (btf_trace_NAME) and loads tp_btf programs, the probe is
 * a tp_btf program (BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP): the same
 * context of u64 arguments, typed, so args.NAME reads them and a pointer
 * among them is one the verifier trusts (socket_cookie, skboutput). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>

#include "../sym/btf_funcs.h"
#include "../sym/features.h"
#include "../util/util.h"
#include "provider.h"

extern const Provider provider_rawtracepoint_btf;

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

static void rtp_btf_add(const BtfFunc *f, void *arg)
{
	struct rtp_expand *x = arg;
	const DwarfFunc *params = btf_rawtp_params(f);
	int obj_fd = btf_obj_fd(x->out->target.sym, f->btf);
	if (!params || obj_fd < 0)
		return;
	ProbeSpec *s = probe_spec_add(x->out, &provider_rawtracepoint_btf, x->loc);
	s->func = xstrdup(f->name);
	s->btf_id = (uint32_t)f->id;
	s->btf_obj_fd = obj_fd;
	s->dwarf = params;
	s->attach_type = BPF_TRACE_RAW_TP;
	StrBuf b = {0};
	sb_printf(&b, "rawtracepoint:%s:%s", f->module, f->name);
	s->name = b.s;
}

/* Under rawtp_btf: the tracepoints with BTF the name matches, in
 * the module (or any, vmlinux first); false (nothing added) when the
 * kernel has no BTF or does not load tp_btf programs */
static bool rtp_expand_btf(const char *module, const char *name, Loc loc, ProbeSpecList *out)
{
	const ProbeRules *r = out->target.rules;
	if (!r || !r->rawtp_btf || kernel_tp_btf_errno())
		return false;
	int before = out->n;
	struct rtp_expand x = {out, loc, NULL};
	btf_rawtp_foreach(out->target.sym, module, name, rtp_btf_add, &x);
	if (!has_wildcard(name) && out->n > before + 1)
		out->n = before + 1; /* the first: vmlinux's before a module's */
	return out->n > before;
}

static bool rtp_expand(const char *rest, Loc loc, ProbeSpecList *out, Error *err)
{
	const char *name = strrchr(rest, ':') ? strrchr(rest, ':') + 1 : rest;
	if (!*name)
		return error_at(err, loc, "rawtracepoint probes are written rawtracepoint:NAME");
	char *module = name > rest ? xstrndup(rest, (size_t)(name - 1 - rest)) : xstrdup("*");
	bool btf = rtp_expand_btf(module, name, loc, out);
	bool named = strcmp(module, "*") && out->target.rules && out->target.rules->rawtp_btf;
	bool missing = !btf && named && !kernel_tp_btf_errno();
	if (missing) {
		error_at(err, loc, "rawtracepoint:%s: no tracepoint '%s' in the BTF of '%s' (a module "
			 "must be loaded: sonde -l 'rawtracepoint:*' lists them)", rest, name, module);
		err->missing = true;
	}
	free(module);
	if (btf || missing)
		return btf;
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

/* tp_btf: argN for the tracepoint's arguments, none past them */
static int rtp_btf_arg_offset(const ProbeSpec *p, int n)
{
	return n >= 0 && n < p->dwarf->nparams ? n * 8 : -1;
}

static bool rtp_btf_attach(const ProbeSpec *p, int prog_fd, Attached *out, char *err, size_t errlen)
{
	int fd = bpf_raw_tracepoint_open(NULL, prog_fd);
	if (fd < 0) {
		snprintf(err, errlen, "attaching a tp_btf program to %s: %s", p->func, strerror(-fd));
		return false;
	}
	attached_add(out, fd);
	return true;
}

/* the scheduler's events (tracepoint:sched:*'s): sched_switch, ... */
static bool rtp_sched_event(const ProbeSpec *p)
{
	return p->func && !strncmp(p->func, "sched_", 6);
}

/* what rtp_expand_btf's probes are: not in provider.c's table, found
 * through the table's rawtracepoint */

const Provider provider_rawtracepoint_btf = {
	.name = "rawtracepoint",
	.aliases = {"rt"},
	.prog_type = BPF_PROG_TYPE_TRACING,
	.expand = rtp_expand,
	.ctx_arg_offset = rtp_btf_arg_offset,
	.attach = rtp_btf_attach,
	.space = SPACE_KERNEL,
	.args = ARGS_PARAMS,
	.sched_event = rtp_sched_event,
	.can_signal = true,
};

const Provider provider_rawtracepoint = {
	.name = "rawtracepoint",
	.aliases = {"rt"},
	.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT,
	.expand = rtp_expand,
	.ctx_arg_offset = rtp_arg_offset,
	.attach = rtp_attach,
	.space = SPACE_KERNEL,
	.sched_event = rtp_sched_event,
	.can_signal = true,
};
