/* Records to strace's lines: "[pid N] name(args) = ret <dur>". */
#include "printer_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "decode.h"
#include "fmt.h"

void printer_init(Printer *p, const TraceOpts *o, FILE *out)
{
	memset(p, 0, sizeof(*p));
	p->nr_info = nr_info_new();
	p->o = o;
	p->out = out;
	int restart = syscall_by_name("restart_syscall");
	p->restart_shown = restart >= 0 && o->sel[restart];
	struct timespec m, r;
	clock_gettime(CLOCK_MONOTONIC, &m);
	clock_gettime(CLOCK_REALTIME, &r);
	p->mono_to_real = ((int64_t)r.tv_sec - m.tv_sec) * 1000000000LL + (r.tv_nsec - m.tv_nsec);
}

static void print_signal(Printer *p, const TraceHdr *h, const uint8_t *d, size_t n);

/* signals waiting for the end of a thread's call (tid 0: all of them) */
static void flush_deferred(Printer *p, uint32_t tid, uint32_t tgid)
{
	for (int i = 0; i < p->deferred.n;) {
		Pending *pe = &p->deferred.v[i];
		const TraceHdr *h = pe->rec;
		if (tid && h->tid != tid && !(tgid && h->tgid == tgid)) {
			i++;
			continue;
		}
		print_signal(p, h, (const uint8_t *)pe->rec + sizeof(TraceHdr),
			     pe->size - sizeof(TraceHdr));
		free(pe->rec);
		memmove(pe, pe + 1, sizeof(*pe) * (size_t)(p->deferred.n - i - 1));
		p->deferred.n--;
	}
}

void printer_free(Printer *p)
{
	flush_deferred(p, 0, 0);
	printer_flush(p);
	for (int i = 0; i < p->pending.n; i++)
		free(p->pending.v[i].rec);
	vec_free(&p->pending);
	for (int i = 0; i < p->deferred.n; i++)
		free(p->deferred.v[i].rec);
	vec_free(&p->deferred);
	for (int i = 0; i < p->blocked.n; i++)
		free(p->blocked.v[i].rec);
	vec_free(&p->blocked);
	vec_free(&p->nlsocks);
	vec_free(&p->restarts);
	for (int i = 0; i < p->cwds.n; i++)
		free(p->cwds.v[i].path);
	vec_free(&p->cwds);
	free(p->start_cwd);
	free(p->nr_info);
	p->nr_info = NULL;
	for (int i = 0; i < p->fds.n; i++)
		free(p->fds.v[i].path);
	vec_free(&p->fds);
	vec_free(&p->tasks);
	sb_free(&p->line);
}


/* a forked child counts among the traced tasks from now on */
static void task_born(Printer *p, uint32_t tid)
{
	for (int i = 0; i < p->nnewborn; i++)
		if (p->newborn[i] == tid) {
			p->newborn[i] = p->newborn[--p->nnewborn];
			p->nprocs++;
			return;
		}
}

/* strace's pid prefix: with -o FILE and -f (or several -p) every line
 * starts "PID   " (the pid left-aligned in 5 columns); otherwise lines get
 * "[pid   PID] " while more than one task is traced */
static void put_pid(Printer *p, StrBuf *b, uint32_t tid)
{
	bool file = p->o->out_path && (p->o->follow || p->o->npids > 1);
	if (!file && p->nprocs <= 1)
		return;
	char t[12];
	int n = 0;
	do {
		t[n++] = (char)('0' + tid % 10);
		tid /= 10;
	} while (tid);
	char *w = fb_room(b, 20);
	if (!file) {
		memcpy(w, "[pid ", 5);
		w += 5;
		for (int k = n; k < 5; k++)
			*w++ = ' ';
	}
	for (int k = n; k--;)
		*w++ = t[k];
	if (!file)
		*w++ = ']';
	for (int k = n; file && k < 5; k++)
		*w++ = ' ';
	*w++ = ' ';
	fb_done(b, w);
}

void put_prefix(Printer *p, StrBuf *b, uint32_t tid, uint64_t ts)
{
	if (p->nnewborn)
		task_born(p, tid);
	put_pid(p, b, tid);
	if (p->o->relative) {
		uint64_t d = p->last_ts && ts > p->last_ts ? ts - p->last_ts : 0;
		sb_printf(b, "%6llu.%06llu ", (unsigned long long)(d / 1000000000),
			  (unsigned long long)(d % 1000000000 / 1000));
		p->last_ts = ts;
	} else if (p->o->tstamp) {
		int64_t real = (int64_t)ts + p->mono_to_real;
		time_t sec = (time_t)(real / 1000000000);
		long us = (long)(real % 1000000000 / 1000);
		if (p->o->tstamp >= 3) {
			sb_printf(b, "%lld.%06ld ", (long long)sec, us);
		} else {
			struct tm tm;
			char t[32];
			localtime_r(&sec, &tm);
			strftime(t, sizeof(t), "%H:%M:%S", &tm);
			if (p->o->tstamp == 2)
				sb_printf(b, "%s.%06ld ", t, us);
			else
				sb_printf(b, "%s ", t);
		}
	}
}

/* Lines collect in p->line and go out in large writes. */
#define PRINTER_FLUSH_AT (256u << 10)

void printer_flush(Printer *p)
{
	if (p->line.len)
		fwrite(p->line.s, 1, p->line.len, p->out);
	sb_reset(&p->line);
}

static void emit_line(Printer *p)
{
	fb_putc(&p->line, '\n');
	if (p->line.len >= PRINTER_FLUSH_AT)
		printer_flush(p);
}

static void count_call(Printer *p, const TraceHdr *h)
{
	TraceStat *s = &p->stats[h->nr % SYSCALL_MAX];
	s->calls++;
	s->ns += h->dur;
	if (h->ret < 0 && h->ret >= -4095)
		s->errors++;
}

/* -f: a line of task tid is coming: calls blocked in other tasks get
 * their "name(inputs <unfinished ...>" line first, as strace's */
static void unfinish_others(Printer *p, uint32_t tid)
{
	for (int i = 0; i < p->blocked.n; i++) {
		Pending *pe = &p->blocked.v[i];
		if (pe->tid == tid || pe->unfinished)
			continue;
		const TraceHdr *h = pe->rec;
		size_t avail = pe->size - sizeof(TraceHdr);
		if (h->len < avail)
			avail = h->len;
		Call c;
		init_call(p, &c, h, (const uint8_t *)pe->rec + sizeof(TraceHdr), avail);
		c.entry_only = true;
		c.part = CALL_HEAD;
		format_call(p, &p->line, &c);
		emit_line(p);
		pe->unfinished = true;
	}
}

/* the blocked entry of tid's call ends: whether its head is out */
static bool end_blocked(Printer *p, uint32_t tid, uint16_t nr)
{
	for (int i = 0; i < p->blocked.n; i++) {
		Pending *pe = &p->blocked.v[i];
		if (pe->tid != tid)
			continue;
		bool head = pe->unfinished && ((TraceHdr *)pe->rec)->nr == nr;
		free(pe->rec);
		*pe = p->blocked.v[--p->blocked.n];
		return head;
	}
	return false;
}

static bool record_block(Printer *p, const void *data, size_t size)
{
	const TraceHdr *h = data;
	if (!p->o->sel[h->nr % SYSCALL_MAX])
		return true;
	end_blocked(p, h->tid, 0);
	Pending pe = {h->tid, xmalloc(size), size, false};
	memcpy(pe.rec, data, size);
	vec_push(&p->blocked, pe);
	return true;
}

static bool is_fork(int nr)
{
	const char *n = syscall_name(nr);
	return !strcmp(n, "clone") || !strcmp(n, "clone3") || !strcmp(n, "fork") ||
	       !strcmp(n, "vfork");
}

static bool print_call(Printer *p, const TraceHdr *h, const uint8_t *data, size_t avail,
		       bool entry_only)
{
	Call c;
	init_call(p, &c, h, data, avail);
	c.entry_only = entry_only;
	if (p->blocked.n && end_blocked(p, h->tid, h->nr) && !entry_only)
		c.part = CALL_TAIL;
	if ((int)h->tid != p->main_pid)
		p->nonmain_seen = true;
	if (p->o->count_and_print || (p->o->count && !p->live))
		count_call(p, h);
	if (p->o->count && !p->o->count_and_print)
		return true;
	if (p->blocked.n)
		unfinish_others(p, h->tid);
	format_call(p, &p->line, &c);
	track_fds(p, &c); /* after: close(3</path>) */
	emit_line(p);
	restart_note(p, h); /* after: restart_syscall's own line names the call before */
	if (p->nnewborn && h->ret > 0 && c.part != CALL_HEAD && is_fork(h->nr))
		task_born(p, (uint32_t)h->ret);
	return true;
}

/* REC_FORK (-f): a child to count, at once unless its parent's clone line
 * is to be printed */
static void record_fork(Printer *p, const TraceHdr *h)
{
	bool shown = false;
	for (int nr = 0; nr < SYSCALL_MAX; nr++)
		if (p->o->sel[nr] && is_fork(nr))
			shown = true;
	if (shown && p->nnewborn < (int)(sizeof(p->newborn) / sizeof(p->newborn[0])))
		p->newborn[p->nnewborn++] = h->aux;
	else
		p->nprocs++;
}

static bool want_result(const Printer *p, const TraceHdr *h)
{
	/* kernel-side filters, applied again for record files */
	if (!p->o->sel[h->nr % SYSCALL_MAX])
		return false;
	if (p->o->only_ok && h->ret < 0)
		return false;
	if (p->o->only_fail && h->ret >= 0)
		return false;
	if (p->o->min_dur_ns && h->dur < p->o->min_dur_ns)
		return false;
	return true;
}

static void print_event(Printer *p, const TraceHdr *h, const uint8_t *d, size_t n)
{
	if (h->nr >= p->nevents)
		return;
	TraceEvent *e = &p->events[h->nr];
	if (p->blocked.n)
		unfinish_others(p, h->tid);
	put_prefix(p, &p->line, h->tid, h->ts);
	sb_printf(&p->line, "%s:%s(", e->cat, e->name);
	for (int i = 0; i < e->fmt.nfields; i++) {
		const TpField *f = &e->fmt.fields[i];
		if (i)
			sb_puts(&p->line, ", ");
		sb_printf(&p->line, "%s=", f->name);
		if (f->offset + f->size > (int)n) {
			sb_puts(&p->line, "?");
			continue;
		}
		const uint8_t *fp = d + f->offset;
		if (f->is_data_loc) {
			uint32_t loc;
			memcpy(&loc, fp, 4);
			size_t off = loc & 0xffff, len = loc >> 16;
			if (off + len <= n)
				dec_cstr(&p->line, d + off, len, 4096);
			else
				sb_puts(&p->line, "?");
		} else if (f->is_str) {
			dec_cstr(&p->line, fp, (size_t)f->size, 4096);
		} else if (f->size <= 8 && !f->array_len) {
			uint64_t v = 0;
			memcpy(&v, fp, (size_t)f->size);
			if (f->is_signed) {
				int sh = 64 - 8 * f->size;
				sb_printf(&p->line, "%lld", (long long)((int64_t)(v << sh) >> sh));
			} else if (f->is_ptr)
				sb_printf(&p->line, "%#llx", (unsigned long long)v);
			else
				sb_printf(&p->line, "%llu", (unsigned long long)v);
		} else {
			sb_puts(&p->line, "...");
		}
	}
	sb_putc(&p->line, ')');
	emit_line(p);
}

static void print_signal(Printer *p, const TraceHdr *h, const uint8_t *d, size_t n)
{
	if (p->blocked.n)
		unfinish_others(p, h->tid);
	put_prefix(p, &p->line, h->tid, h->ts);
	fb_lit(&p->line, "--- ");
	dec_signal(&p->line, h->ret);
	fb_lit(&p->line, " ");
	if (n >= SIGINFO_LEN) {
		dec_siginfo(&p->line, (int)h->ret, d, n);
	} else if (h->nr != SIG_DELIVERED) {
		/* sent without siginfo: SEND_SIG_NOINFO (a user's kill), or
		 * SEND_SIG_PRIV (the kernel) */
		uint8_t si[SIGINFO_LEN] = {0};
		int32_t v = (int32_t)h->ret;
		memcpy(si, &v, 4);
		v = h->args[2] ? 0x80 : 0;
		memcpy(si + 8, &v, 4);
		if (!h->args[2]) {
			v = (int32_t)h->args[1];
			memcpy(si + 16, &v, 4);
			v = (int32_t)h->args[3];
			memcpy(si + 20, &v, 4);
		}
		dec_siginfo(&p->line, (int)h->ret, si, sizeof(si));
	} else {
		/* a record file of version 1: si_code only */
		const char *n = dec_signame((int)h->ret);
		sb_printf(&p->line, "{si_signo=%s, si_code=%d}", n ? n : "?", (int)h->aux);
	}
	fb_lit(&p->line, " ---");
	emit_line(p);
}

static bool printer_record1(Printer *p, const void *data, size_t size);

static bool is_execve(int nr)
{
	const char *n = syscall_name(nr);
	return !strcmp(n, "execve") || !strcmp(n, "execveat");
}

bool printer_before_exec(Printer *p, const TraceHdr *h)
{
	if (!p->await_exec || h->tgid != p->await_exec || h->type == REC_PROC_EXIT)
		return false;
	bool call = h->type == REC_SYSCALL || h->type == REC_ENTER || h->type == REC_BLOCK;
	if (h->type != REC_EXEC && !(call && is_execve(h->nr)))
		return true;
	p->await_exec = 0;
	return h->type == REC_EXEC;
}

bool printer_record(Printer *p, const void *data, size_t size)
{
	bool ok = printer_record1(p, data, size);
	if (p->deferred.n && size >= sizeof(TraceHdr)) {
		const TraceHdr *h = data;
		if (h->type == REC_SYSCALL || h->type == REC_EXIT)
			flush_deferred(p, h->tid, 0);
	}
	return ok;
}

/* an entry waits for its exit unless the call never returns */
static bool record_enter(Printer *p, const TraceHdr *h, const void *data, size_t size,
			 const uint8_t *d, size_t avail)
{
	if (!p->o->sel[h->nr % SYSCALL_MAX])
		return true;
	if (h->nr < SYSCALL_MAX && p->nr_info[h->nr].special == SP_EXIT)
		return print_call(p, h, d, avail, true);
	for (int i = 0; i < p->pending.n; i++)
		if (p->pending.v[i].tid == h->tid) {
			free(p->pending.v[i].rec);
			p->pending.v[i] = p->pending.v[--p->pending.n];
			break;
		}
	Pending pe = {h->tid, xmalloc(size), size};
	memcpy(pe.rec, data, size);
	vec_push(&p->pending, pe);
	return true;
}

/* an exit completes the pending entry of the same call */
static bool record_exit(Printer *p, const TraceHdr *h)
{
	for (int i = 0; i < p->pending.n; i++) {
		Pending *pe = &p->pending.v[i];
		TraceHdr *eh = pe->rec;
		if (eh->nr != h->nr)
			continue;
		/* execve from a thread other than the leader changes the tid */
		if (pe->tid != h->tid && eh->tgid != h->tgid)
			continue;
		eh->ret = h->ret;
		eh->dur = h->dur;
		bool ok = true;
		if (want_result(p, eh)) {
			size_t av = pe->size - sizeof(TraceHdr);
			if (eh->len < av)
				av = eh->len;
			ok = print_call(p, eh, (uint8_t *)pe->rec + sizeof(TraceHdr), av, false);
		}
		free(pe->rec);
		*pe = p->pending.v[--p->pending.n];
		return ok;
	}
	return true;
}

/* "+++ exited with N +++" (or killed by) for task who, unless quiet; one
 * task fewer traced */
static void exit_line(Printer *p, uint32_t who, const TraceHdr *h, bool quiet)
{
	int st = (int)h->ret;
	if (!quiet) {
		if (p->blocked.n)
			unfinish_others(p, who);
		put_prefix(p, &p->line, who, h->ts);
		if (!h->aux)
			sb_puts(&p->line, "+++ exited +++");
		else if (WIFSIGNALED(st))
			sb_printf(&p->line, "+++ killed by %s%s +++",
				  dec_signame(WTERMSIG(st)) ? dec_signame(WTERMSIG(st)) : "?",
				  WCOREDUMP(st) ? " (core dumped)" : "");
		else
			sb_printf(&p->line, "+++ exited with %d +++", WEXITSTATUS(st));
		emit_line(p);
	}
	if (p->nprocs > 0)
		p->nprocs--;
}

/* a call that never returned (its task was killed): tasks whose id (tid,
 * or tgid for a whole process) is id */
static void drop_blocked(Printer *p, uint32_t id, bool by_tgid)
{
	for (int i = 0; i < p->blocked.n;) {
		const TraceHdr *b = (const TraceHdr *)p->blocked.v[i].rec;
		if ((by_tgid ? b->tgid : b->tid) != id) {
			i++;
			continue;
		}
		free(p->blocked.v[i].rec);
		p->blocked.v[i] = p->blocked.v[--p->blocked.n];
	}
}

/* REC_PROC_EXIT: nr 1 is a thread of a process that goes on (shown with
 * -f, as strace shows each task it follows) */
static bool record_proc_exit(Printer *p, const TraceHdr *h, bool quiet)
{
	if (h->nr == 1) {
		drop_blocked(p, h->tid, false);
		if (p->nnewborn)
			task_born(p, h->tid);
		exit_line(p, h->tid, h, quiet || !p->o->follow);
		return true;
	}
	if (p->deferred.n)
		flush_deferred(p, h->tid, h->tgid);
	if ((int)h->tgid == p->main_pid) {
		p->main_exited = true;
		p->exit_status = (int)h->ret;
	}
	drop_blocked(p, h->tgid, true);
	exit_line(p, h->tgid, h, quiet);
	return true;
}

/* a delivered signal whose action stops the thread: a stop signal with its
 * default action (args[0], the handler, SIG_DFL) */
static bool stops(const TraceHdr *h)
{
	int sig = (int)h->ret;
	return (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU) &&
	       h->args[0] == (uint64_t)(uintptr_t)SIG_DFL;
}

/* strace's line for the group stop that follows */
static void stopped_line(Printer *p, const TraceHdr *h)
{
	put_prefix(p, &p->line, h->tid, h->ts);
	fb_lit(&p->line, "--- stopped by ");
	dec_signal(&p->line, h->ret);
	fb_lit(&p->line, " ---");
	emit_line(p);
}

static bool record_signal(Printer *p, const TraceHdr *h, const void *data, const uint8_t *d,
			  size_t avail, bool quiet)
{
	if (quiet || p->o->no_syscalls)
		return true;
	/* SIGKILL is never shown, as strace (ptrace) never sees it taken; that
	 * includes the SIGKILL the kernel turns a fatal signal into without
	 * ptrace: "+++ killed by SIG... +++" names the real one. */
	if (h->nr == SIG_DELIVERED && h->ret == SIGKILL)
		return true;
	if (h->nr == SIG_IGNORED_IN_CALL) {
		Pending pe = {h->tid, xmalloc(sizeof(TraceHdr) + avail), sizeof(TraceHdr) + avail};
		memcpy(pe.rec, data, pe.size);
		vec_push(&p->deferred, pe);
		return true;
	}
	print_signal(p, h, d, avail);
	if (h->nr == SIG_DELIVERED && stops(h))
		stopped_line(p, h);
	return true;
}

static bool printer_record1(Printer *p, const void *data, size_t size)
{
	if (size < sizeof(TraceHdr))
		return false;
	const TraceHdr *h = data;
	const uint8_t *d = (const uint8_t *)data + sizeof(TraceHdr);
	size_t avail = size - sizeof(TraceHdr);
	if (h->len < avail)
		avail = h->len;
	bool quiet = p->o->count && !p->o->count_and_print;
	if (p->await_exec && printer_before_exec(p, h))
		return true;
	switch (h->type) {
	case REC_SYSCALL:
		if (!want_result(p, h)) {
			if (p->blocked.n)
				end_blocked(p, h->tid, h->nr);
			if (p->o->fd_paths || p->nr_info[h->nr % SYSCALL_MAX].special == SP_SOCKET) {
				Call c;
				init_call(p, &c, h, d, avail);
				track_fds(p, &c);
			}
			return true;
		}
		return print_call(p, h, d, avail, false);
	case REC_ENTER:
		return record_enter(p, h, data, size, d, avail);
	case REC_EXIT:
		return record_exit(p, h);
	case REC_PROC_EXIT:
		printer_track_task(p, h);
		return record_proc_exit(p, h, quiet);
	case REC_SIGNAL:
		return record_signal(p, h, data, d, avail, quiet);
	case REC_BLOCK:
		return record_block(p, data, size);
	case REC_FORK:
		printer_track_task(p, h);
		record_fork(p, h);
		return true;
	case REC_EVENT:
		if (!quiet)
			print_event(p, h, d, avail);
		return true;
	case REC_EXEC:
		return true;
	}
	return false;
}
