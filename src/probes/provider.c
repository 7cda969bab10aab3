#include "provider.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "../util/util.h"

extern const Provider provider_begin, provider_end, provider_tracepoint,
	provider_rawtracepoint, provider_profile, provider_interval,
	provider_software, provider_kprobe, provider_kretprobe, provider_uprobe,
	provider_uretprobe, provider_usdt, provider_watchpoint,
	provider_asyncwatchpoint, provider_hardware, provider_kfunc, provider_kretfunc, provider_iter,
	provider_self;

static const Provider *const providers[] = {
	&provider_begin,    &provider_end,      &provider_tracepoint,
	&provider_rawtracepoint, &provider_profile, &provider_interval,
	&provider_software, &provider_kprobe,   &provider_kretprobe,
	&provider_uprobe,   &provider_uretprobe, &provider_usdt,
	&provider_watchpoint, &provider_asyncwatchpoint, &provider_hardware,
	&provider_kfunc, &provider_kretfunc, &provider_iter, &provider_self,
};

#define NPROVIDERS (sizeof(providers) / sizeof(providers[0]))

const Provider *provider_find(const char *name)
{
	for (size_t i = 0; i < NPROVIDERS; i++) {
		const Provider *p = providers[i];
		if (!strcmp(p->name, name))
			return p;
		for (int a = 0; a < 3 && p->aliases[a]; a++)
			if (!strcmp(p->aliases[a], name))
				return p;
	}
	return NULL;
}

bool probe_type_unknown(const char *type, const char *text, Loc loc, Error *err)
{
	StrBuf names = {0};
	for (size_t i = 0; i < NPROVIDERS; i++)
		if (!providers[i]->is_special)
			sb_printf(&names, "%s:, ", providers[i]->name);
	error_at(err, loc, "unknown probe type '%s' in '%s' (try %sBEGIN or END)", type, text, names.s);
	sb_free(&names);
	return false;
}

bool probe_expand(const char *text, Loc loc, const ProbeTarget *target, ProbeSpecList *out,
		  Error *err)
{
	out->target = target ? *target : (ProbeTarget){0};
	const char *colon = strchr(text, ':');
	char *type = colon ? xstrndup(text, (size_t)(colon - text)) : xstrdup(text);
	const Provider *p = provider_find(type);
	bool ok;
	if (!p) {
		ok = probe_type_unknown(type, text, loc, err);
	} else if (p->is_special && !p->special_parts) {
		ok = colon ? error_at(err, loc, "%s takes no arguments", p->name)
			   : p->expand(text, loc, out, err);
	} else if (!colon && (!strcmp(p->name, "kprobe") || !strcmp(p->name, "kretprobe"))) {
		ok = error_at(err, loc, "%s probe type requires 1 argument", p->name); /* bpftrace's */
	} else if (!colon) {
		ok = error_at(err, loc, "'%s' needs more parts, e.g. %s:...", text, p->name);
	} else {
		ok = p->expand(colon + 1, loc, out, err);
	}
	free(type);
	return ok;
}

ProbeSyscall probe_syscall(const ProbeSpec *p)
{
	return p->prov->syscall ? p->prov->syscall(p) : SYSCALL_NONE;
}

bool probe_skips_self(const ProbeSpec *p)
{
	return !p->prov->sched_event || !p->prov->sched_event(p);
}

ProbeSpace probe_args_space(const ProbeSpec *p)
{
	return probe_syscall(p) ? SPACE_USER : p->prov->space;
}

ProbeSpec *probe_spec_add(ProbeSpecList *l, const Provider *prov, Loc loc)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 8;
		l->v = xrealloc(l->v, sizeof(*l->v) * (size_t)l->cap);
	}
	ProbeSpec *s = &l->v[l->n++];
	memset(s, 0, sizeof(*s));
	s->prov = prov;
	s->loc = loc;
	s->sym = l->target.sym;
	return s;
}

void probe_spec_list_free(ProbeSpecList *l)
{
	for (int i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].target);
		free(l->v[i].func);
		free(l->v[i].argspec);
		free(l->v[i].kmod);
		free(l->v[i].pin);
		free(l->v[i].insn_where);
		tp_format_free(&l->v[i].tp);
		if (l->v[i].wp_setup) {
			ProbeSpecList one = {.v = l->v[i].wp_setup, .n = 1, .cap = 1};
			probe_spec_list_free(&one);
		}
	}
	free(l->v);
	free(l->dropped);
	memset(l, 0, sizeof(*l));
}

int regs_arg_offset(int n)
{
	/* struct pt_regs on x86_64: di si dx cx r8 r9 carry arguments, ax
	 * the return value. */
	static const int args[] = {112, 104, 96, 88, 72, 64};
	if (n == -1)
		return 80;
	if (n >= 0 && n < 6)
		return args[n];
	return -1;
}

bool attach_perf_cpus(uint32_t type, uint64_t config, const ProbeSpec *p, int prog_fd, int ncpu,
		      Attached *out, char *err, size_t errlen)
{
	for (int cpu = 0; cpu < ncpu; cpu++) {
		int pfd = open_perf_event(type, config, p->period, p->freq, -1, cpu, err, errlen);
		if (pfd == -ENODEV)
			continue; /* possible but offline CPU */
		if (pfd < 0 || !attach_perf_event(pfd, prog_fd, out, err, errlen))
			return false;
	}
	return true;
}

/* the interrupted registers' arguments; no return value: the event is no
 * function's return */
int perf_ctx_arg_offset(const ProbeSpec *p, int n)
{
	(void)p;
	return n < 0 ? -1 : regs_arg_offset(n);
}
