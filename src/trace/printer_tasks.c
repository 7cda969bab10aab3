/* The tasks sonde trace follows, and strace's messages about them:
 * "Process N attached" (each -p process, "with K threads" under -f; each
 * child or thread -f follows) and "Process N detached" for each task still
 * followed when sonde is interrupted.  strace keeps its tasks in a table
 * whose first free slot a new one takes, and detaches in that order: so
 * does this list (0 marks a free slot). */
#include "printer_int.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>

/* "sonde trace: MSG" on stderr; in order with the trace when that goes to
 * stderr too (buffered with its lines) */
static void note(Printer *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (p->out == stderr) {
		sb_puts(&p->line, "sonde trace: ");
		sb_vprintf(&p->line, fmt, ap);
		sb_putc(&p->line, '\n');
	} else {
		fputs("sonde trace: ", stderr);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	}
	va_end(ap);
}

static int task_slot(const Printer *p, uint32_t tid)
{
	for (int i = 0; i < p->tasks.n; i++)
		if (p->tasks.v[i] == tid)
			return i;
	return -1;
}

/* tid is followed from now on: whether it was not already */
static bool task_add(Printer *p, uint32_t tid)
{
	if (!tid || task_slot(p, tid) >= 0)
		return false;
	int free_slot = task_slot(p, 0);
	if (free_slot >= 0)
		p->tasks.v[free_slot] = tid;
	else
		vec_push(&p->tasks, tid);
	return true;
}

static void task_drop(Printer *p, uint32_t tid)
{
	int i = task_slot(p, tid);
	if (i >= 0)
		p->tasks.v[i] = 0;
}

/* -f: the other threads of process pid, as /proc lists them */
static int add_threads(Printer *p, int pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		char *end;
		long tid = strtol(e->d_name, &end, 10);
		if (*end || tid <= 0 || tid == pid)
			continue;
		n += task_add(p, (uint32_t)tid);
	}
	closedir(d);
	return n;
}

void printer_attach_pids(Printer *p, const int *pids, int npids)
{
	for (int i = 0; i < npids; i++) {
		task_add(p, (uint32_t)pids[i]);
		int threads = p->o->follow ? add_threads(p, pids[i]) : 0;
		if (!p->attach_msgs)
			continue;
		if (threads)
			note(p, "Process %d attached with %d threads", pids[i], threads + 1);
		else
			note(p, "Process %d attached", pids[i]);
	}
}

void printer_command_started(Printer *p, int pid)
{
	char cwd[PATH_MAX];
	if (p->o->fd_paths && getcwd(cwd, sizeof(cwd))) {
		p->start_cwd = xstrdup(cwd);
		cwd_inherit(p, 0, (uint32_t)pid);
	}
	task_add(p, (uint32_t)pid);
}

void printer_track_task(Printer *p, const TraceHdr *h)
{
	if (h->type == REC_FORK) {
		if (p->o->fd_paths)
			cwd_inherit(p, h->tgid, h->aux);
		if (task_add(p, h->aux) && p->attach_msgs)
			note(p, "Process %u attached", h->aux);
	} else if (h->type == REC_PROC_EXIT) {
		task_drop(p, h->tid);
		if (h->nr == 0)
			task_drop(p, h->tgid);
	}
}

void printer_detach_all(Printer *p)
{
	for (int i = 0; i < p->tasks.n; i++) {
		uint32_t tid = p->tasks.v[i];
		if (!tid || (kill((pid_t)tid, 0) < 0 && errno == ESRCH))
			continue;
		if (p->attach_msgs)
			note(p, "Process %u detached", tid);
		p->tasks.v[i] = 0;
	}
}
