/* Calls whose arguments the call's own logic lays out (clone, futex, fcntl)
 * and what strace adds after their return value (fcntl's flags, poll's revents). */
#include "printer_int.h"

#include <fcntl.h>
#include <string.h>
#include <linux/sched.h>

#include "decode.h"
#include "fmt.h"

/* strace's clone: child_stack, flags, tid pointers as used */
void put_clone_args(StrBuf *b, const Call *c)
{
	sb_puts(b, "child_stack=");
	dec_ptr(b, c->args[1]);
	sb_puts(b, ", flags=");
	dec_clone_flags(b, c->args[0]);
	if (c->args[0] & (CLONE_PARENT_SETTID | CLONE_PIDFD))
		sb_printf(b, ", parent_tid=%#llx", (unsigned long long)c->args[2]);
	if (c->args[0] & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID))
		sb_printf(b, ", child_tidptr=%#llx", (unsigned long long)c->args[3]);
	if (c->args[0] & CLONE_SETTLS)
		sb_printf(b, ", tls=%#llx", (unsigned long long)c->args[4]);
}

/* futex(uaddr, op, val[, ...]): the rest as the op uses it */
void put_futex_args(StrBuf *b, const Call *c)
{
	dec_ptr(b, c->args[0]);
	sb_puts(b, ", ");
	int show = dec_futex_op(b, c->args[1]);
	sb_puts(b, ", ");
	fb_i64(b, (int32_t)c->args[2]);
	bool timeout = show == FUTEX_SHOW_WAIT || show == FUTEX_SHOW_WAIT_BITSET;
	if (timeout) {
		sb_puts(b, ", ");
		put_in_struct(b, c, 3, c->capok[3] && c->cap[3]);
	} else if (show == FUTEX_SHOW_REQUEUE || show == FUTEX_SHOW_ALL) {
		sb_puts(b, ", ");
		fb_u64(b, (uint32_t)c->args[3]);
		sb_puts(b, ", ");
		dec_ptr(b, c->args[4]);
	}
	if (show == FUTEX_SHOW_WAIT_BITSET || show == FUTEX_SHOW_WAKE_BITSET) {
		sb_puts(b, ", ");
		if ((uint32_t)c->args[5] == 0xffffffffu)
			sb_puts(b, "FUTEX_BITSET_MATCH_ANY");
		else
			fb_hex(b, (uint32_t)c->args[5]);
	} else if (show == FUTEX_SHOW_ALL) {
		sb_puts(b, ", ");
		fb_hex(b, (uint32_t)c->args[5]);
	}
}

/* fcntl(fd, cmd[, arg]): the argument as the command takes it */
void put_fcntl_args(Printer *p, StrBuf *b, const Call *c)
{
	put_fd(p, b, c->h->tgid, (int32_t)c->args[0]);
	sb_puts(b, ", ");
	dec_fcntl_cmd(b, c->args[1]);
	switch (c->args[1]) {
	case F_GETFD: case F_GETFL: case F_GETOWN: case F_GETSIG: case F_GETLEASE:
	case F_GETPIPE_SZ: case F_GET_SEALS:
		return;
	case F_SETFD:
		sb_puts(b, c->args[2] == FD_CLOEXEC ? ", FD_CLOEXEC" : ", 0");
		if (c->args[2] > 1)
			sb_printf(b, "|%#llx", (unsigned long long)c->args[2]);
		return;
	case F_SETFL:
		sb_puts(b, ", ");
		dec_open_flags(b, c->args[2]);
		return;
	default:
		sb_puts(b, ", ");
		fb_i64(b, (int32_t)c->args[2]);
		return;
	}
}

/* what strace adds after a successful return: fcntl's flags, poll's revents */
void put_special_ret(StrBuf *b, const Call *c)
{
	const TraceHdr *h = c->h;
	if (c->special == SP_FCNTL && c->args[1] == F_GETFL) {
		sb_printf(b, " (flags ");
		dec_open_flags(b, (uint64_t)h->ret);
		sb_putc(b, ')');
	} else if (c->special == SP_FCNTL && c->args[1] == F_GETFD && h->ret) {
		sb_puts(b, " (flags FD_CLOEXEC)");
	} else if (c->special == SP_POLL && h->ret > 0 &&
		   c->capok[0] && c->cap[0]) {
		sb_puts(b, " (");
		put_pollfds(b, c, 0, true);
		sb_putc(b, ')');
	}
}
