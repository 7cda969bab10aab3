/* tracepoint:CATEGORY:NAME (wildcards in both parts), attached through a
 * perf event per CPU; `args` fields come from the tracepoint's format. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "../util/util.h"
#include "provider.h"
#include "uprobe_event.h"

struct tp_expand {
	ProbeSpecList *out;
	Loc loc;
	Error *err;
	bool ok;
};

/* a uprobe event: a uprobe (its program type is the only one the kernel
 * takes there) at the event's place, its fields computed from the fetch
 * arguments (sema_uevent_field) */
static ProbeSpec *uevent_spec(ProbeSpecList *out, const Uevent *u, Loc loc)
{
	ProbeSpec *s = probe_spec_add(out, provider_find(u->ret ? "uretprobe" : "uprobe"), loc);
	s->offset = u->offset;
	s->pid = out->target.filter_pid > 0 ? out->target.filter_pid : -1;
	s->uevent = u;
	return s;
}

static bool tp_add(ProbeSpecList *out, const char *cat, const char *name, Loc loc, Error *err)
{
	const Uevent *u = uevent_find(out->target.sym, cat, name);
	ProbeSpec *s = u ? uevent_spec(out, u, loc) : probe_spec_add(out, provider_find("tracepoint"), loc);
	s->target = xstrdup(u ? u->path : cat);
	s->func = xstrdup(name);
	StrBuf b = {0};
	sb_printf(&b, "tracepoint:%s:%s", cat, name);
	s->name = b.s;
	char msg[256];
	if (!tracefs_read_format(cat, name, &s->tp, msg, sizeof(msg))) {
		error_at(err, loc, "%s", msg);
		err->missing = true; /* no such tracepoint */
		return false;
	}
	return true;
}

static void tp_found(const char *cat, const char *name, void *arg)
{
	struct tp_expand *x = arg;
	if (x->ok)
		x->ok = tp_add(x->out, cat, name, x->loc, x->err);
}

static bool tp_expand(const char *rest, Loc loc, ProbeSpecList *out, Error *err)
{
	const char *colon = strchr(rest, ':');
	if (!colon || strchr(colon + 1, ':') || colon == rest || !colon[1])
		return error_at(err, loc, "tracepoint probe type requires 2 arguments\n"
				  "hint: tracepoint:CATEGORY:NAME, got 'tracepoint:%s'", rest);
	if (!tracefs_dir() && tracefs_denied())
		return error_at(err, loc, "cannot read the tracepoints in %s: permission denied "
				  "(sonde needs root)", tracefs_denied());
	if (!tracefs_dir())
		return error_at(err, loc, "tracefs is not mounted and could not be mounted");
	char *cat = xstrndup(rest, (size_t)(colon - rest));
	const char *name = colon + 1;
	bool ok;
	if (!has_wildcard(cat) && !has_wildcard(name)) {
		ok = tp_add(out, cat, name, loc, err);
	} else {
		struct tp_expand x = {out, loc, err, true};
		int n = tracefs_foreach(cat, name, tp_found, &x);
		ok = x.ok;
		if (ok && n == 0) {
			ok = error_at(err, loc, "no tracepoint matches 'tracepoint:%s'", rest);
			err->missing = true;
		}
	}
	free(cat);
	return ok;
}

static int tp_arg_offset(const ProbeSpec *p, int n)
{
	(void)p;
	(void)n;
	return -1;
}

/* a dynamic event of uprobe_events ("p:GROUP/EVENT ...") */
static bool is_uprobe_event(const char *group, const char *event)
{
	const char *dir = tracefs_dir();
	char path[512], pat[256];
	if (!dir)
		return false;
	snprintf(path, sizeof(path), "%s/uprobe_events", dir);
	snprintf(pat, sizeof(pat), ":%s/%s ", group, event);
	char *text = read_file_all(path, NULL);
	bool found = text && strstr(text, pat);
	free(text);
	return found;
}

static bool tp_attach(const ProbeSpec *p, int prog_fd, Attached *out, char *err, size_t errlen)
{
	/* A tracepoint runs its BPF programs on every CPU whichever perf event
	 * carried them, so one event (on CPU 0) is enough; a second would be
	 * refused with EEXIST. */
	int pfd = open_perf_event(PERF_TYPE_TRACEPOINT, (uint64_t)p->tp.id, 1, false, -1, 0, err,
				  errlen);
	if (pfd >= 0 && attach_perf_event(pfd, prog_fd, out, err, errlen))
		return true;
	if (is_uprobe_event(p->target, p->func)) {
		size_t n = strlen(err);
		snprintf(err + n, errlen - n,
			 " (%s:%s is a uprobe event, from sonde probe -a or perf probe: the kernel attaches"
			 " only kprobe-type programs to it; probe its function with uprobe:BINARY:FUNCTION)",
			 p->target, p->func);
	}
	return false;
}

/* syscalls:sys_enter_NAME and syscalls:sys_exit_NAME */
static ProbeSyscall tp_syscall(const ProbeSpec *p)
{
	if (!p->target || strcmp(p->target, "syscalls") || !p->func)
		return SYSCALL_NONE;
	if (!strncmp(p->func, "sys_enter_", 10))
		return SYSCALL_ENTRY;
	return !strncmp(p->func, "sys_exit_", 9) ? SYSCALL_EXIT : SYSCALL_NONE;
}

/* sched:*: switches, wake-ups, migrations, forks and exits of tasks */
static bool tp_sched_event(const ProbeSpec *p)
{
	return p->target && !strcmp(p->target, "sched");
}

const Provider provider_tracepoint = {
	.name = "tracepoint",
	.aliases = {"t"},
	.prog_type = BPF_PROG_TYPE_TRACEPOINT,
	.expand = tp_expand,
	.ctx_arg_offset = tp_arg_offset,
	.attach = tp_attach,
	.space = SPACE_KERNEL,
	.args = ARGS_FIELDS,
	.syscall = tp_syscall,
	.sched_event = tp_sched_event,
	.can_signal = true,
};
