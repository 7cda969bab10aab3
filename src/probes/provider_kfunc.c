/* kfunc:FUNC / kretfunc:FUNC, also named fentry/fexit (f, fr): BPF
 * trampolines.  BPF_PROG_TYPE_TRACING programs loaded against the
 * function's BTF id; the context is an array of u64, one per parameter,
 * then (kretfunc) the return value, so args->NAME and retval are plain
 * loads at 8 * index.  Where the kernel refuses trampolines (this
 * development machine: EPERM loading any tracing program) the probe is one
 * error line before anything attaches. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>

#include "../sym/features.h"
#include "../util/util.h"
#include "../lang/ctypes.h"
#include "../sym/btf_funcs.h"
#include "provider.h"

typedef struct KfuncExpand {
	const char *prov;
	Loc loc;
	ProbeSpecList *out;
	int n;
} KfuncExpand;

static void kfunc_add(const BtfFunc *f, void *arg)
{
	KfuncExpand *k = arg;
	const DwarfFunc *params = btf_func_params(f, NULL);
	int obj_fd = btf_obj_fd(k->out->target.sym, f->btf);
	if (!params || obj_fd < 0)
		return;
	ProbeSpec *s = probe_spec_add(k->out, provider_find(k->prov), k->loc);
	s->func = xstrdup(f->name);
	s->btf_id = (uint32_t)f->id;
	s->btf_obj_fd = obj_fd;
	s->dwarf = params;
	s->attach_type = strcmp(k->prov, "kfunc") ? BPF_TRACE_FEXIT : BPF_TRACE_FENTRY;
	StrBuf b = {0};
	sb_printf(&b, "%s:%s:%s", k->prov, f->module, f->name);
	s->name = b.s;
	k->n++;
}

/* The functions named func (a glob) in the modules module names (a glob;
 * "*" when the probe names none: vmlinux first, then the modules). */
static bool kfunc_expand_in(const char *prov, const char *rest, const char *module,
			    const char *func, Loc loc, ProbeSpecList *out, Error *err)
{
	int e = kernel_fentry_errno();
	if (e == ENOENT)
		return error_at(err, loc, "%s:%s: this kernel has no BTF (/sys/kernel/btf/vmlinux), "
				"which kfunc/kretfunc need", prov, rest);
	if (e)
		return error_at(err, loc, "%s:%s: this kernel does not allow kfunc/kretfunc (fentry/fexit): "
				"%s; use a tracepoint (sonde -l 'tracepoint:*') instead", prov, rest,
				tracing_why(e));
	if (!has_wildcard(module) && !btf_module(out->target.sym, module))
		return error_at(err, loc, "%s:%s:%s: module '%s' is not loaded or has no BTF "
				"(/sys/kernel/btf/%s)", prov, module, func, module, module);
	KfuncExpand k = {prov, loc, out, 0};
	if (!has_wildcard(func)) {
		btf_funcs_find(out->target.sym, module, func, kfunc_add, &k);
		if (!k.n) {
			error_at(err, loc, "%s:%s: no function '%s' in the kernel's BTF (sonde -l "
				 "'kfunc:*' lists them)", prov, func, func);
			err->missing = true;
		}
		return k.n > 0;
	}
	btf_funcs_foreach(out->target.sym, module, func, kfunc_add, &k);
	if (!k.n) {
		error_at(err, loc, "no kernel function matches '%s:%s:%s'", prov, module, func);
		err->missing = true;
	}
	return k.n > 0;
}

static bool kfunc_expand_common(const char *prov, const char *rest, Loc loc, ProbeSpecList *out,
				Error *err)
{
	const char *colon = strchr(rest, ':');
	const char *func = colon ? colon + 1 : rest;
	if (!*func || strchr(func, ':') || colon == rest)
		return error_at(err, loc, "%s probes are written %s:FUNCTION or %s:MODULE:FUNCTION",
				prov, prov, prov);
	char *module = colon ? xstrndup(rest, (size_t)(colon - rest)) : xstrdup("*");
	bool ok = kfunc_expand_in(prov, rest, module, func, loc, out, err);
	free(module);
	return ok;
}

static bool kfunc_expand(const char *rest, Loc loc, ProbeSpecList *out, Error *err)
{
	return kfunc_expand_common("kfunc", rest, loc, out, err);
}

static bool kretfunc_expand(const char *rest, Loc loc, ProbeSpecList *out, Error *err)
{
	return kfunc_expand_common("kretfunc", rest, loc, out, err);
}

/* argN at 8 * N; retval (kretfunc only) after the parameters */
static int kfunc_arg_offset(const ProbeSpec *p, int n)
{
	int np = p->dwarf ? p->dwarf->nparams : 0;
	if (n == -1)
		return p->attach_type == BPF_TRACE_FEXIT ? 8 * np : -1;
	return n >= 0 && n < np ? 8 * n : -1;
}

static bool kfunc_attach(const ProbeSpec *p, int prog_fd, Attached *out, char *err, size_t errlen)
{
	int lfd = bpf_link_create(prog_fd, 0, p->attach_type, NULL);
	if (lfd < 0) {
		snprintf(err, errlen, "attaching a BPF trampoline to %s: %s%s", p->func, strerror(errno),
			 errno == EBUSY || errno == EINVAL ? " (the function is not traceable: inlined, "
			 "notrace, or not in available_filter_functions)" : "");
		return false;
	}
	attached_add(out, lfd);
	return true;
}

const Provider provider_kfunc = {
	.name = "kfunc",
	.type_name = "fentry",
	.aliases = {"f", "fentry"},
	.prog_type = BPF_PROG_TYPE_TRACING,
	.expand = kfunc_expand,
	.ctx_arg_offset = kfunc_arg_offset,
	.attach = kfunc_attach,
	.space = SPACE_KERNEL,
	.args = ARGS_PARAMS,
	.can_signal = true,
};

const Provider provider_kretfunc = {
	.name = "kretfunc",
	.type_name = "fexit",
	.aliases = {"fr", "fexit"},
	.prog_type = BPF_PROG_TYPE_TRACING,
	.expand = kretfunc_expand,
	.ctx_arg_offset = kfunc_arg_offset,
	.attach = kfunc_attach,
	.space = SPACE_KERNEL,
	.args = ARGS_PARAMS,
	.can_signal = true,
};
