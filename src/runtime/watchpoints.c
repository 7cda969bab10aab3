/* Watchpoints while a script runs: the addresses FUNC+argN probes hand over
 * (attached here, each once per probe), unwatch(addr) (every watchpoint on
 * that address detached, as bpftrace; an address not watched is no error),
 * and letting a task that a sync watchpoint's uprobe stopped go on.
 *
 * A sync uprobe stops the task (SIGSTOP from BPF) after sending its event;
 * several such uprobes may fire on one call (two probes on one function).
 * The task is resumed only once it has stopped, after the events its stop
 * produced are all read, so that none of those watchpoints misses the
 * writes that follow the call. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "runtime.h"

static bool wp_sync(const ProbeSpec *wp)
{
	return wp->prov->watch == WATCH_SYNC;
}

static bool wp_is_watched(const Runtime *rt, uint64_t id, uint64_t addr)
{
	for (int i = 0; i < rt->watched.n; i++)
		if (rt->watched.v[i].id == id && rt->watched.v[i].addr == addr)
			return true;
	return false;
}

void watchpoint_event(Runtime *rt, uint64_t id, const EventDesc *ev, const uint8_t *data,
		      size_t size)
{
	uint64_t addr;
	if (size < 16)
		return;
	memcpy(&addr, data + 8, 8);
	if (!rt->exit_requested && !rt->ending && !wp_is_watched(rt, id, addr)) {
		char why[384];
		int first = rt->attached.n;
		if (watchpoint_attach_addr(ev->wp, addr, rt->sc->progs.v[ev->wp_prog]->fd,
					   &rt->attached, why, sizeof(why)))
			;
		else if (!strcmp(why, WATCHPOINT_NO_REGISTERS)) /* as bpftrace: said, and go on */
			output_printf_text(&rt->out, WATCHPOINT_NO_REGISTERS "\n",
					   strlen(WATCHPOINT_NO_REGISTERS) + 1);
		else
			fprintf(stderr, "sonde: cannot attach %s at 0x%llx: %s\n", ev->wp->name,
				(unsigned long long)addr, why);
		vec_push(&rt->watched,
			 ((WatchedAddr){id, addr, first, rt->attached.n - first}));
	}
	if (wp_sync(ev->wp) && ev->wp->pid > 0)
		rt->wp_stopped = ev->wp->pid;
}

void watchpoint_note_static(Runtime *rt, const ProbeSpec *p, int first)
{
	if (p->prov->watch && !p->wp_setup) /* at a fixed address */
		vec_push(&rt->watched,
			 ((WatchedAddr){(uint64_t)-1, p->offset, first, rt->attached.n - first}));
}

void watchpoint_unwatch(Runtime *rt, uint64_t addr)
{
	for (int i = 0; i < rt->watched.n; i++) {
		WatchedAddr *w = &rt->watched.v[i];
		if (w->addr != addr)
			continue;
		for (int k = w->first; k < w->first + w->n; k++) {
			if (rt->attached.fds[k] >= 0)
				close(rt->attached.fds[k]);
			rt->attached.fds[k] = -1;
		}
		w->n = 0; /* stays listed: the probe does not watch it again */
	}
}

/* Has the task stopped (state T in /proc/PID/stat)? */
static bool task_stopped(int pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return true; /* gone: nothing to wait for */
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *paren = strrchr(buf, ')');
	return !paren || paren[1] != ' ' || paren[2] == 'T' || paren[2] == 't';
}

void watchpoint_resume(Runtime *rt)
{
	int pid = rt->wp_stopped;
	if (!pid)
		return;
	/* the stop comes after the uprobes' events: wait for it (bounded),
	 * read what the other uprobes of that call sent, then resume */
	for (int i = 0; i < 200 && !task_stopped(pid); i++)
		nanosleep(&(struct timespec){0, 250000}, NULL);
	ring_buffer__consume(rt->rb);
	rt->wp_stopped = 0;
	kill(pid, SIGCONT);
}

void watchpoint_continue(Runtime *rt)
{
	for (int i = 0; i < rt->sc->events.n; i++) {
		const EventDesc *ev = rt->sc->events.v[i];
		if (ev->kind == EV_WATCHPOINT && wp_sync(ev->wp) && ev->wp->pid > 0) {
			kill(ev->wp->pid, SIGCONT);
			return;
		}
	}
}
