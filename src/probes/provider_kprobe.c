/* kprobe:[MODULE:]FUNCTION[+OFFSET] and kretprobe:[MODULE:]FUNCTION through
 * the kprobe PMU; wildcards match the traceable functions and share one
 * program, attached by one kprobe_multi link where the kernel has them and
 * one kprobe each otherwise.  What cannot be probed is named with the
 * reason before anything attaches (skipped with a warning under a wildcard).
 * On a kernel without kprobes (this machine's) expansion says so. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "../sym/features.h"
#include "../sym/kfuncs.h"
#include "../sym/ksyms.h"
#include "../util/phase_time.h"
#include "../util/util.h"
#include "provider.h"

/* The parts of "[MODULE:]FUNCTION[+OFFSET]". */
typedef struct KprobeTarget {
	char *module, *func;
	uint64_t offset;
	bool has_offset;
} KprobeTarget;

static bool parse_target(const char *prov, const char *rest, Loc loc, KprobeTarget *t, Error *err)
{
	memset(t, 0, sizeof(*t));
	const char *colon = strchr(rest, ':');
	if (colon && strchr(colon + 1, ':'))
		return error_at(err, loc, "%s probes are written %s:[MODULE:]FUNCTION[+OFFSET]", prov, prov);
	if (colon)
		t->module = xstrndup(rest, (size_t)(colon - rest));
	const char *f = colon ? colon + 1 : rest;
	const char *plus = strchr(f, '+');
	t->func = plus ? xstrndup(f, (size_t)(plus - f)) : xstrdup(f);
	if (plus) {
		char *end;
		errno = 0;
		t->offset = strtoull(plus + 1, &end, 0);
		if (errno || end == plus + 1 || *end)
			return error_at(err, loc, "%s:%s: the offset after '+' must be a number", prov, rest);
		t->has_offset = true;
	}
	if (!*t->func || (t->module && !*t->module))
		return error_at(err, loc, "%s probes are written %s:[MODULE:]FUNCTION[+OFFSET]", prov, prov);
	if (t->has_offset && strcmp(prov, "kprobe"))
		return error_at(err, loc, "%s cannot be placed at an offset (%s); only kprobes can",
				prov, rest);
	if (t->has_offset && has_wildcard(t->func))
		return error_at(err, loc, "%s:%s: an offset needs one function, not a wildcard", prov, rest);
	if (t->module && has_wildcard(t->module))
		return error_at(err, loc, "%s:%s: the module name cannot be a wildcard", prov, rest);
	return true;
}

static void target_free(KprobeTarget *t)
{
	free(t->module);
	free(t->func);
}

static ProbeSpec *add_spec(const char *prov, const KprobeTarget *t, const char *func, Loc loc,
			   ProbeSpecList *out)
{
	ProbeSpec *s = probe_spec_add(out, provider_find(prov), loc);
	s->func = xstrdup(func);
	s->kmod = t->module ? xstrdup(t->module) : NULL;
	s->offset = t->offset;
	StrBuf b = {0};
	/* by hand: a printf costs ~2k instructions, 20 ms for a 381-function
	 * wildcard under emulation */
	sb_puts(&b, prov);
	sb_puts(&b, ":");
	if (t->module) {
		sb_puts(&b, t->module);
		sb_puts(&b, ":");
	}
	sb_puts(&b, func);
	if (t->has_offset)
		sb_printf(&b, "+%llu", (unsigned long long)t->offset);
	s->name = b.s;
	return s;
}

static bool expand_one(const char *prov, const KprobeTarget *t, Loc loc, ProbeSpecList *out,
		       Error *err)
{
	char why[512];
	bool ret = !strcmp(prov, "kretprobe");
	if (kfunc_why_not(out->target.sym, t->module, t->func, ret, t->has_offset, why, sizeof(why))) {
		error_at(err, loc, "%s:%s%s%s cannot be probed: %s", prov,
			 t->module ? t->module : "", t->module ? ":" : "", t->func, why);
		err->missing = true; /* not in the kernel, or not traceable */
		return false;
	}
	if (t->has_offset) {
		uint64_t size = ksym_size(out->target.sym, t->func);
		if (size && t->offset >= size)
			return error_at(err, loc, "kprobe:%s+%llu: the offset is outside %s (%llu bytes)",
					t->func, (unsigned long long)t->offset, t->func,
					(unsigned long long)size);
	}
	add_spec(prov, t, t->func, loc, out);
	return true;
}

static bool expand_wildcard(const char *prov, const KprobeTarget *t, Loc loc, ProbeSpecList *out,
			    Error *err)
{
	KIndexMatch *m;
	int n = kfuncs_match(out->target.sym, t->module, t->func, &m);
	bool ret = !strcmp(prov, "kretprobe");
	int first = out->n;
	for (int i = 0; i < n; i++) {
		char why[512];
		if (kfunc_why_not_matched(&m[i], ret, why, sizeof(why))) {
			fprintf(stderr, "WARNING: %s:%s%s%s: skipping %s: %s\n", prov,
				t->module ? t->module : "", t->module ? ":" : "", t->func, m[i].name, why);
			continue;
		}
		add_spec(prov, t, m[i].name, loc, out)->kaddr = m[i].addr;
	}
	kindex_match_free(m, n);
	if (out->n == first) {
		error_at(err, loc, "%s:%s%s%s matches no function that can be probed "
			 "(sonde -l '%s:*' lists them)", prov, t->module ? t->module : "",
			 t->module ? ":" : "", t->func, prov);
		err->missing = true;
		return false;
	}
	int count = out->n - first;
	phase_time("matched the wildcard");
	bool multi = count > 1 && kernel_has_kprobe_multi();
	phase_time("checked for kprobe_multi");
	for (int i = first; i < out->n; i++) {
		out->v[i].group_idx = i - first;
		out->v[i].multi = multi;
		out->v[i].attach_type = multi ? BPF_TRACE_KPROBE_MULTI : 0;
	}
	out->v[first].group_n = count;
	return true;
}

static bool kprobe_expand_common(const char *prov, const char *rest, Loc loc, ProbeSpecList *out,
				 Error *err)
{
	if (!kernel_has_kprobes())
		return error_at(err, loc, "%s:%s: this kernel was built without CONFIG_KPROBES "
				  "(no kprobe PMU in /sys/bus/event_source/devices and no kprobe_events in "
				  "tracefs), so kprobes cannot attach here; use a tracepoint "
				  "(sonde -l 'tracepoint:*') instead", prov, rest);
	KprobeTarget t;
	bool ok = parse_target(prov, rest, loc, &t, err);
	if (ok && t.module && !kmodule_loaded(t.module))
		ok = error_at(err, loc, "%s:%s cannot be probed: module %s is not loaded "
			      "(lsmod lists those that are)", prov, rest, t.module);
	if (ok)
		ok = has_wildcard(t.func) ? expand_wildcard(prov, &t, loc, out, err)
					  : expand_one(prov, &t, loc, out, err);
	target_free(&t);
	return ok;
}

static bool kprobe_expand(const char *rest, Loc loc, ProbeSpecList *out, Error *err)
{
	return kprobe_expand_common("kprobe", rest, loc, out, err);
}

static bool kretprobe_expand(const char *rest, Loc loc, ProbeSpecList *out, Error *err)
{
	return kprobe_expand_common("kretprobe", rest, loc, out, err);
}

static int kprobe_pmu_type(void)
{
	char *s = read_file_all("/sys/bus/event_source/devices/kprobe/type", NULL);
	int t = s ? atoi(s) : -1;
	free(s);
	return t;
}

/* The kernel's refusal in words. */
static const char *open_error(int e)
{
	switch (e) {
	case EILSEQ: return "the offset is not at an instruction boundary";
	case ENOENT: return "no such function in the running kernel";
	case EINVAL: return "the kernel refused the probe point (EINVAL)";
	default: return strerror(e);
	}
}

/* One kprobe through the PMU: the function name in config1 (or, when addr
 * is not 0, its address in config2) and, for return probes, bit 0 of config
 * (its format/retprobe says "config:0"); a BPF link carries the cookie that
 * tells a group's program which function fired. */
static bool attach_single(const ProbeSpec *p, bool ret, int type, int prog_fd, uint64_t cookie,
			  uint64_t addr, Attached *out, char *err, size_t errlen)
{
	char sym[256];
	snprintf(sym, sizeof(sym), "%s%s%s", p->kmod ? p->kmod : "", p->kmod ? ":" : "", p->func);
	struct perf_event_attr attr = {
		.type = (uint32_t)type,
		.size = sizeof(attr),
		.config = ret ? 1 : 0,
		.kprobe_func = addr ? 0 : (uint64_t)(uintptr_t)sym,
		.probe_offset = addr ? addr : p->offset, /* the same field as kprobe_addr */
	};
	int pfd = (int)syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0) { /* the caller names the probe; a group's member is named here */
		snprintf(err, errlen, "%s%s%s", p->group_idx ? p->name : "", p->group_idx ? ": " : "",
			 open_error(errno));
		return false;
	}
	LIBBPF_OPTS(bpf_link_create_opts, lo, .perf_event.bpf_cookie = cookie);
	int lfd = bpf_link_create(prog_fd, pfd, BPF_PERF_EVENT, &lo);
	if (lfd < 0) {
		snprintf(err, errlen, "%s%sattaching the program: %s", p->group_idx ? p->name : "",
			 p->group_idx ? ": " : "", strerror(errno));
		close(pfd);
		return false;
	}
	attached_add(out, lfd);
	attached_add(out, pfd);
	return true;
}

/* Before Linux 6.2 the kernel finds a kprobe's function by name in a walk
 * over all of kallsyms (kallsyms_lookup_name was linear, and 6.1's stable
 * updates count same-named symbols in another walk): tens of ms of guest
 * time each under emulation, for every function of a wildcard. */
static bool kernel_name_lookup_slow(void)
{
	return !kernel_at_least(6, 2);
}

/* A wildcard's vmlinux functions by address (each spec's, from sonde's index
 * of the traceable functions, kfuncs.c), NULL where the kernel is asked by name:
 * - one kprobe each before Linux 6.2: the kernel finds each function in a
 *   walk over all of kallsyms (tens of ms of guest time each under emulation);
 *   a small group (vfsstat's vfs_read*) keeps names (as when the addresses
 *   cost a pass over kallsyms), and a name several functions share keeps 0
 *   (the kernel decides);
 * - kprobe_multi: given names, the kernel sorts them and walks all of kallsyms
 *   for them (ftrace_lookup_symbols); given addresses it skips that (6.12 under
 *   TCG: vfs_* 80 against 250 ms, tcp_* 250 against 650 ms).  All or none: one
 *   link takes either, so a shared name keeps the whole group by name. */
enum { ADDRS_MIN_GROUP = 16 };

static uint64_t *group_addrs(const ProbeSpec *p, int n)
{
	if (p->kmod || (p->multi ? n < 2 : n < ADDRS_MIN_GROUP || !kernel_name_lookup_slow()))
		return NULL;
	uint64_t *addrs = xcalloc((size_t)n, sizeof(*addrs));
	for (int i = 0; i < n; i++)
		addrs[i] = p[i].kaddr;
	for (int i = 0; p->multi && i < n; i++)
		if (!addrs[i]) {
			phase_time("looked up the functions' addresses: a name is shared, attaching by name");
			free(addrs);
			return NULL;
		}
	phase_time("looked up the functions' addresses");
	return addrs;
}

/* A group in one kprobe_multi link: addresses (or names) and cookies (the
 * index: the kernel sorts addresses and keeps each one's cookie). */
static bool attach_multi(const ProbeSpec *p, bool ret, int prog_fd, Attached *out, char *err,
			 size_t errlen)
{
	uint64_t *addrs = group_addrs(p, p->group_n);
	const char **syms = addrs ? NULL : xcalloc((size_t)p->group_n, sizeof(*syms));
	__u64 *cookies = xcalloc((size_t)p->group_n, sizeof(*cookies));
	for (int i = 0; i < p->group_n; i++) {
		if (syms)
			syms[i] = p[i].func;
		cookies[i] = (__u64)i;
	}
	LIBBPF_OPTS(bpf_link_create_opts, lo, .kprobe_multi.syms = syms,
		    .kprobe_multi.addrs = (const unsigned long *)addrs,
		    .kprobe_multi.cnt = (uint32_t)p->group_n, .kprobe_multi.cookies = cookies,
		    .kprobe_multi.flags = ret ? BPF_F_KPROBE_MULTI_RETURN : 0);
	int lfd = bpf_link_create(prog_fd, 0, BPF_TRACE_KPROBE_MULTI, &lo);
	int e = errno;
	free(addrs);
	free(syms);
	free(cookies);
	if (lfd < 0) {
		snprintf(err, errlen, "one kprobe_multi link for %d functions: %s", p->group_n,
			 strerror(e));
		return false;
	}
	attached_add(out, lfd);
	return true;
}

static bool kprobe_attach_common(const ProbeSpec *p, bool ret, int prog_fd, Attached *out,
				 char *err, size_t errlen)
{
	if (p->multi)
		return attach_multi(p, ret, prog_fd, out, err, errlen);
	int type = kprobe_pmu_type();
	if (type < 0) {
		snprintf(err, errlen, "no kprobe PMU: this kernel was built without CONFIG_KPROBES");
		return false;
	}
	int n = p->group_n > 1 ? p->group_n : 1;
	uint64_t *addrs = group_addrs(p, n);
	bool ok = true;
	for (int i = 0; i < n && ok; i++)
		ok = attach_single(&p[i], ret, type, prog_fd, (uint64_t)i, addrs ? addrs[i] : 0, out,
				   err, errlen);
	free(addrs);
	return ok;
}

static bool kprobe_attach(const ProbeSpec *p, int prog_fd, Attached *out, char *err, size_t n)
{
	return kprobe_attach_common(p, false, prog_fd, out, err, n);
}

static bool kretprobe_attach(const ProbeSpec *p, int prog_fd, Attached *out, char *err, size_t n)
{
	return kprobe_attach_common(p, true, prog_fd, out, err, n);
}

static int kprobe_arg_offset(const ProbeSpec *p, int n)
{
	(void)p;
	return regs_arg_offset(n);
}

const Provider provider_kprobe = {
	.name = "kprobe",
	.aliases = {"k"},
	.prog_type = BPF_PROG_TYPE_KPROBE,
	.expand = kprobe_expand,
	.ctx_arg_offset = kprobe_arg_offset,
	.attach = kprobe_attach,
	.space = SPACE_KERNEL,
	.ctx = CTX_REGS,
	.has_func = true,
	.stack_args = true,
	.can_override = true,
	.can_signal = true,
};

const Provider provider_kretprobe = {
	.name = "kretprobe",
	.aliases = {"kr"},
	.prog_type = BPF_PROG_TYPE_KPROBE,
	.expand = kretprobe_expand,
	.ctx_arg_offset = kprobe_arg_offset,
	.attach = kretprobe_attach,
	.space = SPACE_KERNEL,
	.ctx = CTX_REGS,
	.has_func = true,
	.can_signal = true,
};
