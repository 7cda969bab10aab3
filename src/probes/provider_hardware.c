/* hardware:EVENT[:COUNT]: the CPU's performance counters (PERF_TYPE_HARDWARE)
 * on every CPU, with bpftrace 0.17's event names, aliases and default
 * counts.  A machine without a hardware PMU (most VMs, this one) is told
 * in one line before anything attaches. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "../util/util.h"
#include "provider.h"

typedef struct HwEvent {
	const char *name, *alias;
	uint64_t config, default_count;
} HwEvent;

static const HwEvent hw_events[] = {
	{"cpu-cycles", "cycles", PERF_COUNT_HW_CPU_CYCLES, 1000000},
	{"instructions", NULL, PERF_COUNT_HW_INSTRUCTIONS, 1000000},
	{"cache-references", NULL, PERF_COUNT_HW_CACHE_REFERENCES, 1000000},
	{"cache-misses", NULL, PERF_COUNT_HW_CACHE_MISSES, 1000000},
	{"branch-instructions", "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 100000},
	{"branch-misses", NULL, PERF_COUNT_HW_BRANCH_MISSES, 100000},
	{"bus-cycles", NULL, PERF_COUNT_HW_BUS_CYCLES, 100000},
	{"frontend-stalls", NULL, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 1000000},
	{"backend-stalls", NULL, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 1000000},
	{"ref-cycles", NULL, PERF_COUNT_HW_REF_CPU_CYCLES, 1000000},
};

static const HwEvent *hw_find(const char *name)
{
	for (size_t i = 0; i < sizeof(hw_events) / sizeof(hw_events[0]); i++)
		if (!strcmp(hw_events[i].name, name) ||
		    (hw_events[i].alias && !strcmp(hw_events[i].alias, name)))
			return &hw_events[i];
	return NULL;
}

/* A positive count, written as digits or as bpftrace's scientific form
 * (1e6, 5e3). */
bool probe_count_parse(const char *s, uint64_t *out)
{
	char *end;
	if (*s < '1' || *s > '9')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (!errno && (*end == 'e' || *end == 'E')) {
		char *e2;
		unsigned long exp = strtoul(end + 1, &e2, 10);
		if (end[1] < '0' || end[1] > '9' || *e2 || exp > 19)
			return false;
		for (unsigned long i = 0; i < exp && !errno; i++)
			errno = v > UINT64_MAX / 10 ? ERANGE : 0, v *= 10;
		end = e2;
	}
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/* errno of opening the counter (disabled) on CPU 0, 0 if it opens. */
static int hw_open_errno(uint64_t config)
{
	struct perf_event_attr a = {.type = PERF_TYPE_HARDWARE, .size = sizeof(a),
				    .config = config, .disabled = 1};
	int fd = (int)syscall(SYS_perf_event_open, &a, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static bool hardware_expand(const char *rest, Loc loc, ProbeSpecList *out, Error *err)
{
	const char *colon = strchr(rest, ':');
	char *name = colon ? xstrndup(rest, (size_t)(colon - rest)) : xstrdup(rest);
	const HwEvent *ev = hw_find(name);
	if (!ev) {
		bool ok = error_at(err, loc, "%s is not a hardware probe (sonde -l 'hardware:*' lists "
					    "them)", name);
		free(name);
		return ok;
	}
	uint64_t count = ev->default_count;
	if (colon && colon[1] && !probe_count_parse(colon + 1, &count)) {
		free(name);
		return error_at(err, loc, "hardware event count must be a positive integer (or 1e6), "
				  "got '%s'", colon + 1);
	}
	int e = hw_open_errno(ev->config);
	if (e) {
		bool ok = error_at(err, loc, "hardware:%s: %s (perf_event_open of a hardware counter: "
				  "%s); software events and profile: still work", name,
				  e == ENOENT || e == ENODEV ? "this machine has no hardware PMU (as in "
				  "most VMs), so hardware counters cannot be read"
				  : e == EOPNOTSUPP ? "this CPU's PMU does not count this event"
				  : "the kernel refuses hardware counters", strerror(e));
		free(name);
		return ok;
	}
	ProbeSpec *s = probe_spec_add(out, provider_find("hardware"), loc);
	s->period = count;
	s->target = xstrdup(ev->name);
	StrBuf b = {0};
	/* as bpftrace names it: the event as written, the count normalized */
	if (colon && colon[1])
		sb_printf(&b, "hardware:%s:%llu", name, (unsigned long long)count);
	else
		sb_printf(&b, "hardware:%s", name);
	s->name = b.s;
	free(name);
	return true;
}

static bool hardware_attach(const ProbeSpec *p, int prog_fd, Attached *out, char *err, size_t n)
{
	return attach_perf_cpus(PERF_TYPE_HARDWARE, hw_find(p->target)->config, p, prog_fd,
				libbpf_num_possible_cpus(), out, err, n);
}

const Provider provider_hardware = {
	.name = "hardware",
	.aliases = {"h"},
	.prog_type = BPF_PROG_TYPE_PERF_EVENT,
	.expand = hardware_expand,
	.ctx_arg_offset = perf_ctx_arg_offset,
	.attach = hardware_attach,
	.ctx = CTX_PERF,
};
