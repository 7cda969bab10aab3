/* restart_syscall: the call it resumes.  A call a signal interrupts with
 * ERESTART_RESTARTBLOCK (a sleep, a futex wait, poll) is resumed by
 * restart_syscall once the thread runs again; strace names the call it
 * resumes as the thread's last call it showed: "restart_syscall(<...
 * resuming interrupted clock_nanosleep ...>)", or "system call" when it
 * showed none (the interrupted call not traced). */
#include "printer_int.h"

#include <string.h>

/* a call of h's thread is shown: noted while restart_syscall is traced */
void restart_note(Printer *p, const TraceHdr *h)
{
	if (!p->restart_shown)
		return;
	for (int i = 0; i < p->restarts.n; i++)
		if (p->restarts.v[i].tid == h->tid) {
			p->restarts.v[i].nr = h->nr;
			return;
		}
	TidCall t = {h->tid, h->nr};
	vec_push(&p->restarts, t);
}

/* restart_syscall's argument as strace shows it */
void put_restart_args(Printer *p, StrBuf *b, uint32_t tid)
{
	const char *name = "system call";
	for (int i = 0; i < p->restarts.n; i++)
		if (p->restarts.v[i].tid == tid)
			name = syscall_name(p->restarts.v[i].nr);
	sb_printf(b, "<... resuming interrupted %s ...>", name);
}
