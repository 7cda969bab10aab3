/* kprobe:FUNC / kretprobe:FUNC through the kprobe PMU.  This machine's
 * kernel has no kprobes: the code stays, and attach explains why. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../runtime/features.h"
#include "../util/util.h"
#include "provider.h"

static bool kprobe_expand_common(const char *prov, const char *rest, Loc loc, ProbeSpecList *out,
				 Error *err)
{
	const char *func = strrchr(rest, ':') ? strrchr(rest, ':') + 1 : rest;
	if (!*func)
		return error_at(err, loc, "%s probes are written %s:FUNCTION", prov, prov);
	if (!kernel_has_kprobes())
		return error_at(err, loc, "%s:%s: this kernel was built without CONFIG_KPROBES "
				  "(no kprobe PMU in /sys/bus/event_source/devices and no kprobe_events in "
				  "tracefs), so kprobes cannot attach here; use a tracepoint "
				  "(sonde -l 'tracepoint:*') instead", prov, func);
	if (has_wildcard(func))
		return error_at(err, loc, "%s wildcards are not supported yet", prov);
	ProbeSpec *s = probe_spec_add(out, provider_find(prov), loc);
	s->func = xstrdup(func);
	StrBuf b = {0};
	sb_printf(&b, "%s:%s", prov, func);
	s->name = b.s;
	return true;
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

static bool kprobe_attach_common(const ProbeSpec *p, bool ret, int prog_fd, Attached *out,
				 char *err, size_t errlen)
{
	int type = kprobe_pmu_type();
	if (type < 0) {
		snprintf(err, errlen, "no kprobe PMU: this kernel was built without CONFIG_KPROBES");
		return false;
	}
	/* The kprobe PMU takes the function name in config1 and, for return
	 * probes, bit 0 of config (its format/retprobe says "config:0"). */
	struct perf_event_attr attr = {
		.type = (uint32_t)type,
		.size = sizeof(attr),
		.config = ret ? 1 : 0,
		.kprobe_func = (uint64_t)(uintptr_t)p->func,
		.probe_offset = 0,
	};
	int pfd = (int)syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0) {
		snprintf(err, errlen, "perf_event_open(kprobe %s): %s", p->func, strerror(errno));
		return false;
	}
	return attach_perf_event(pfd, prog_fd, out, err, errlen);
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
};

const Provider provider_kretprobe = {
	.name = "kretprobe",
	.aliases = {"kr"},
	.prog_type = BPF_PROG_TYPE_KPROBE,
	.expand = kretprobe_expand,
	.ctx_arg_offset = kprobe_arg_offset,
	.attach = kretprobe_attach,
};
