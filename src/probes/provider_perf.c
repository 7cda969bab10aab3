/* Perf software events: profile:UNIT:N (every CPU), interval:UNIT:N (one
 * CPU) and software:EVENT[:COUNT].  The program context is
 * bpf_perf_event_data, whose first member is pt_regs. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "../util/util.h"
#include "provider.h"

typedef struct SoftEvent {
	const char *name, *alias;
	uint64_t config, default_period;
} SoftEvent;

static const SoftEvent soft_events[] = {
	{"cpu-clock", "cpu", PERF_COUNT_SW_CPU_CLOCK, 1000000},
	{"task-clock", NULL, PERF_COUNT_SW_TASK_CLOCK, 1000000},
	{"page-faults", "faults", PERF_COUNT_SW_PAGE_FAULTS, 100},
	{"context-switches", "cs", PERF_COUNT_SW_CONTEXT_SWITCHES, 1000},
	{"cpu-migrations", NULL, PERF_COUNT_SW_CPU_MIGRATIONS, 1},
	{"minor-faults", NULL, PERF_COUNT_SW_PAGE_FAULTS_MIN, 100},
	{"major-faults", NULL, PERF_COUNT_SW_PAGE_FAULTS_MAJ, 1},
	{"alignment-faults", NULL, PERF_COUNT_SW_ALIGNMENT_FAULTS, 1},
	{"emulation-faults", NULL, PERF_COUNT_SW_EMULATION_FAULTS, 1},
	{"dummy", NULL, PERF_COUNT_SW_DUMMY, 1},
	{"bpf-output", NULL, PERF_COUNT_SW_BPF_OUTPUT, 1},
};

static bool parse_count(const char *s, uint64_t *out)
{
	char *end;
	if (!*s || *s == '-')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v == 0)
		return false;
	*out = v;
	return true;
}

/* "UNIT:N" -> period in ns, or a frequency for hz */
static bool parse_rate(const char *prov, const char *rest, Loc loc, ProbeSpec *s, Error *err)
{
	static const struct {
		const char *unit;
		uint64_t ns;
	} units[] = {{"s", 1000000000ull}, {"ms", 1000000}, {"us", 1000}, {"hz", 0}};
	const char *colon = strchr(rest, ':');
	uint64_t n;
	if (!colon || !parse_count(colon + 1, &n))
		return error_at(err, loc, "%s probes are written %s:UNIT:N with UNIT one of s, ms, "
				  "us, hz and N a positive integer, got '%s:%s'", prov, prov, prov, rest);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strncmp(rest, units[i].unit, (size_t)(colon - rest)) ||
		    strlen(units[i].unit) != (size_t)(colon - rest))
			continue;
		s->freq = units[i].ns == 0;
		s->period = s->freq ? n : n * units[i].ns;
		StrBuf b = {0};
		sb_printf(&b, "%s:%s", prov, rest);
		s->name = b.s;
		return true;
	}
	return error_at(err, loc, "unknown time unit in '%s:%s' (use s, ms, us or hz)", prov, rest);
}

static bool profile_expand(const char *rest, Loc loc, ProbeSpecList *out, Error *err)
{
	return parse_rate("profile", rest, loc, probe_spec_add(out, provider_find("profile"), loc), err);
}

static bool interval_expand(const char *rest, Loc loc, ProbeSpecList *out, Error *err)
{
	return parse_rate("interval", rest, loc, probe_spec_add(out, provider_find("interval"), loc), err);
}

static const SoftEvent *soft_find(const char *name)
{
	for (size_t i = 0; i < sizeof(soft_events) / sizeof(soft_events[0]); i++)
		if (!strcmp(soft_events[i].name, name) ||
		    (soft_events[i].alias && !strcmp(soft_events[i].alias, name)))
			return &soft_events[i];
	return NULL;
}

static bool software_expand(const char *rest, Loc loc, ProbeSpecList *out, Error *err)
{
	const char *colon = strchr(rest, ':');
	char *name = colon ? xstrndup(rest, (size_t)(colon - rest)) : xstrdup(rest);
	const SoftEvent *ev = soft_find(name);
	uint64_t period = ev ? ev->default_period : 0;
	bool ok = true;
	if (!ev)
		ok = error_at(err, loc, "unknown software event in 'software:%s' (see sonde -l 'software:*')", rest);
	else if (colon && colon[1] && !probe_count_parse(colon + 1, &period))
		ok = error_at(err, loc, "software event count must be a positive integer (or 1e6), got '%s'",
			      colon + 1);
	if (ok) { /* named as written (an alias stays one), the count in digits, as bpftrace */
		ProbeSpec *s = probe_spec_add(out, provider_find("software"), loc);
		s->period = period;
		s->target = xstrdup(ev->name);
		StrBuf b = {0};
		sb_printf(&b, "software:%s:%llu", name, (unsigned long long)period);
		s->name = b.s;
	}
	free(name);
	return ok;
}

static bool profile_attach(const ProbeSpec *p, int prog_fd, Attached *out, char *err, size_t n)
{
	return attach_perf_cpus(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, p, prog_fd,
				libbpf_num_possible_cpus(), out, err, n);
}

static bool interval_attach(const ProbeSpec *p, int prog_fd, Attached *out, char *err, size_t n)
{
	/* one CPU's clock: the probe fires once per period, not once per CPU */
	return attach_perf_cpus(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, p, prog_fd, 1, out, err, n);
}

static bool software_attach(const ProbeSpec *p, int prog_fd, Attached *out, char *err, size_t n)
{
	return attach_perf_cpus(PERF_TYPE_SOFTWARE, soft_find(p->target)->config, p, prog_fd,
				libbpf_num_possible_cpus(), out, err, n);
}


const Provider provider_profile = {
	.name = "profile",
	.aliases = {"p"},
	.prog_type = BPF_PROG_TYPE_PERF_EVENT,
	.expand = profile_expand,
	.ctx_arg_offset = perf_ctx_arg_offset,
	.attach = profile_attach,
	.one_prog = true,
	.ctx = CTX_PERF,
	.can_signal = true,
};

const Provider provider_interval = {
	.name = "interval",
	.aliases = {"i"},
	.prog_type = BPF_PROG_TYPE_PERF_EVENT,
	.expand = interval_expand,
	.ctx_arg_offset = perf_ctx_arg_offset,
	.attach = interval_attach,
	.one_prog = true,
	.ctx = CTX_PERF,
};

const Provider provider_software = {
	.name = "software",
	.aliases = {"s"},
	.prog_type = BPF_PROG_TYPE_PERF_EVENT,
	.expand = software_expand,
	.ctx_arg_offset = perf_ctx_arg_offset,
	.attach = software_attach,
	.ctx = CTX_PERF,
};
