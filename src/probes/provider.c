#include "provider.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <linux/perf_event.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "../util/util.h"

extern const Provider provider_begin, provider_end, provider_tracepoint,
	provider_rawtracepoint, provider_profile, provider_interval,
	provider_software, provider_kprobe, provider_kretprobe, provider_uprobe,
	provider_uretprobe, provider_usdt, provider_watchpoint,
	provider_asyncwatchpoint, provider_hardware, provider_kfunc, provider_kretfunc, provider_iter;

static const Provider *const providers[] = {
	&provider_begin,    &provider_end,      &provider_tracepoint,
	&provider_rawtracepoint, &provider_profile, &provider_interval,
	&provider_software, &provider_kprobe,   &provider_kretprobe,
	&provider_uprobe,   &provider_uretprobe, &provider_usdt,
	&provider_watchpoint, &provider_asyncwatchpoint, &provider_hardware,
	&provider_kfunc, &provider_kretfunc, &provider_iter,
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

bool probe_expand(const char *text, Loc loc, const ProbeTarget *target, ProbeSpecList *out,
		  Error *err)
{
	out->target = target ? *target : (ProbeTarget){0};
	const char *colon = strchr(text, ':');
	char *type = colon ? xstrndup(text, (size_t)(colon - text)) : xstrdup(text);
	const Provider *p = provider_find(type);
	bool ok;
	if (!p) {
		StrBuf names = {0};
		for (size_t i = 0; i < NPROVIDERS; i++)
			if (!providers[i]->is_special)
				sb_printf(&names, "%s:, ", providers[i]->name);
		ok = error_at(err, loc, "unknown probe type '%s' in '%s' (try %sBEGIN or END)", type, text,
			      names.s);
		sb_free(&names);
	} else if (p->is_special) {
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

void attached_add(Attached *a, int fd)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 8;
		a->fds = xrealloc(a->fds, sizeof(int) * (size_t)a->cap);
	}
	a->fds[a->n++] = fd;
}

struct close_job {
	const int *fds;
	int n, stride, start;
};

static void *close_some(void *arg)
{
	const struct close_job *j = arg;
	for (int i = j->start; i < j->n; i += j->stride)
		close(j->fds[i]);
	return NULL;
}

/* Closing a tracepoint's perf event waits for an RCU grace period (about
 * 70 ms on this kernel): closing in parallel lets the waits overlap, so
 * 200 probes detach in a fraction of a second instead of 15 s. */
void attached_close(Attached *a)
{
	enum { MAX_THREADS = 64 };
	int nt = a->n < MAX_THREADS ? a->n : MAX_THREADS;
	pthread_t th[MAX_THREADS];
	struct close_job jobs[MAX_THREADS];
	int started = 0;
	for (int t = 1; t < nt; t++) {
		jobs[t] = (struct close_job){a->fds, a->n, nt, t};
		if (pthread_create(&th[t], NULL, close_some, &jobs[t]) != 0)
			break;
		started = t;
	}
	/* this thread takes slot 0, and any slot whose thread did not start */
	for (int t = 0; t < nt; t++) {
		if (t == 0 || t > started) {
			jobs[t] = (struct close_job){a->fds, a->n, nt, t};
			close_some(&jobs[t]);
		}
	}
	for (int t = 1; t <= started; t++)
		pthread_join(th[t], NULL);
	free(a->fds);
	memset(a, 0, sizeof(*a));
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

int open_perf_event(uint32_t type, uint64_t config, uint64_t period, bool freq,
		    int pid, int cpu, char *err, size_t errlen)
{
	struct perf_event_attr attr = {
		.type = type,
		.size = sizeof(attr),
		.config = config,
		.sample_period = period,
		.freq = freq,
		.wakeup_events = 1,
	};
	int fd = (int)syscall(SYS_perf_event_open, &attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen, "perf_event_open: %s", strerror(e));
		return -e;
	}
	return fd;
}

bool attach_perf_event(int pfd, int prog_fd, Attached *out, char *err, size_t errlen)
{
	/* A BPF link dies with its fd, so even SIGKILL leaves nothing behind. */
	int lfd = bpf_link_create(prog_fd, pfd, BPF_PERF_EVENT, NULL);
	if (lfd < 0) {
		if (ioctl(pfd, PERF_EVENT_IOC_SET_BPF, prog_fd) < 0) {
			snprintf(err, errlen, "attaching to perf event: %s", strerror(errno));
			close(pfd);
			return false;
		}
	} else {
		attached_add(out, lfd);
	}
	attached_add(out, pfd);
	if (ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
		snprintf(err, errlen, "enabling perf event: %s", strerror(errno));
		return false;
	}
	return true;
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

int perf_ctx_arg_offset(const ProbeSpec *p, int n)
{
	(void)p;
	return regs_arg_offset(n);
}

/* Detach once the output is complete.  Closing a tracepoint's perf event
 * waits for kernel RCU grace periods (about 70 ms each here), and whoever
 * drops the last reference pays.  So a child inherits the probes, waits
 * until this process has exited (EOF on a pipe whose write end only we
 * hold), then closes them; our own references go cheaply at exit.  The
 * child keeps no terminal, pipe or output file open (out_fd), so readers
 * see EOF at once.  If anything fails, detach here. */
void attached_close_after_exit(Attached *a, int out_fd)
{
	int p[2];
	if (!a->n)
		return;
	fflush(NULL);
	pid_t pid = pipe2(p, O_CLOEXEC) == 0 ? fork() : -1;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		for (int fd = 0; fd < 3; fd++)
			dup2(null, fd);
		if (out_fd > 2)
			close(out_fd);
		close(p[1]);
		char b;
		while (read(p[0], &b, 1) > 0)
			;
		attached_close(a);
		_exit(0);
	}
	if (pid < 0) {
		attached_close(a);
		return;
	}
	close(p[0]); /* p[1] stays open until we exit */
	free(a->fds);
	memset(a, 0, sizeof(*a));
}
