/* One call's line in strace's format: its name, its arguments (each by
 * printer_args.c, or the call's own decoder), its return value. */
#include "printer_int.h"

#include <fcntl.h>
#include <string.h>

#include "calldec.h"
#include "decode.h"
#include "decode_tables.h"
#include "fmt.h"
#include "sigs.h"

NrInfo *nr_info_new(void)
{
	NrInfo *nr_info = xcalloc(SYSCALL_MAX, sizeof(NrInfo));
	for (int nr = 0; nr < SYSCALL_MAX; nr++) {
		NrInfo *i = &nr_info[nr];
		if (!syscall_table_name(nr))
			continue;
		const char *n = syscall_table_name(nr);
		i->name = n;
		i->namelen = (uint16_t)strlen(n);
		i->sig = sig_of(nr);
		i->nsig = (uint8_t)strlen(i->sig);
		/* a slot past the call's arguments carries sonde's own value
		 * (rt_sigreturn's restored mask): all of it */
		const SyscallInfo *row = syscall_row(nr);
		i->wide = (uint8_t)((row->wide | 0x3f << row->nargs) & 0x3f);
		for (int k = 0; k < 6; k++)
			i->tab[k] = arg_table(n, k);
		i->retfd = (uint8_t)ret_fd_kind(n);
		i->dec = call_dec(n);
		i->entry_slot = (int8_t)sig_entry_slot(i->sig);
		i->hexret = !strcmp(n, "mmap") || !strcmp(n, "brk") || !strcmp(n, "mremap") ||
			    !strcmp(n, "shmat");
		i->special = !strcmp(n, "clone") ? SP_CLONE
			     : !strcmp(n, "fcntl") ? SP_FCNTL
			     : !strcmp(n, "poll") || !strcmp(n, "ppoll") ? SP_POLL
			     : !strcmp(n, "openat") ? SP_OPENAT
			     : !strcmp(n, "open") || !strcmp(n, "creat") ? SP_OPEN
			     : !strcmp(n, "close") ? SP_CLOSE
			     : !strcmp(n, "exit_group") || !strcmp(n, "exit") ? SP_EXIT
			     : !strcmp(n, "dup") || !strcmp(n, "dup2") || !strcmp(n, "dup3") ? SP_DUP
			     : !strcmp(n, "futex")					 ? SP_FUTEX
			     : !strcmp(n, "chdir")					 ? SP_CHDIR
			     : !strcmp(n, "fchdir")					 ? SP_FCHDIR
			     : !strcmp(n, "socket")					 ? SP_SOCKET
			     : !strcmp(n, "sendto")					 ? SP_SENDTO
			     : !strcmp(n, "restart_syscall")				 ? SP_RESTART
								      : SP_NONE;
	}
	return nr_info;
}

/* arguments strace prints at the entry of a call that blocks (the rest
 * after "<... name resumed>"); all of them when absent */
static int entry_args(const char *name)
{
	static const struct { const char *n; int k; } t[] = {
		{"wait4", 1}, {"waitid", 2}, {"read", 1}, {"epoll_wait", 1}, {"epoll_pwait", 1},
		{"nanosleep", 1}, {"clock_nanosleep", 3}, {"accept", 1}, {"accept4", 1},
		{"recvfrom", 1}, {"recvmsg", 1}};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(name, t[i].n))
			return t[i].k;
	return 6;
}

/* a call decoder's fds, shown as the printer shows them (-y) */
typedef struct FdCtx {
	Printer *p;
	uint32_t tgid;
} FdCtx;

static void view_put_fd(void *ctx, StrBuf *b, int fd)
{
	FdCtx *f = ctx;
	put_fd(f->p, b, f->tgid, fd);
}

/* what a call decoder (calldec.h) sees of the call */
static void call_view(Printer *p, const Call *c, CallView *v, FdCtx *f)
{
	f->p = p;
	f->tgid = c->h->tgid;
	v->put_fd = view_put_fd;
	v->fd_ctx = f;
	memcpy(v->a, c->args, sizeof(v->a));
	v->ret = c->h->ret;
	v->has_ret = has_ret(c);
	for (int i = 0; i < 6; i++) {
		v->cap[i] = c->capok[i] ? c->cap[i] : NULL;
		v->caplen[i] = c->caplen[i];
	}
	v->strsize = (size_t)p->o->strsize;
}

static void put_args(Printer *p, StrBuf *b, const Call *c)
{
	if (c->dec) {
		/* an interrupted call shows it all in its first half */
		CallView v;
		FdCtx f;
		call_view(p, c, &v, &f);
		if (c->part != CALL_TAIL)
			c->dec->args(b, &v);
		return;
	}
	if (c->special == SP_CLONE) {
		put_clone_args(b, c);
		return;
	}
	if (c->special == SP_FUTEX) {
		put_futex_args(b, c);
		return;
	}
	if (c->special == SP_FCNTL) {
		put_fcntl_args(p, b, c);
		return;
	}
	if (c->special == SP_RESTART) {
		if (c->part != CALL_TAIL)
			put_restart_args(p, b, c->h->tid);
		return;
	}
	int n = (int)c->nsig, from = 0;
	if (c->part != CALL_WHOLE) {
		int k = entry_args(c->name);
		if (k > n)
			k = n;
		if (c->part == CALL_HEAD)
			n = k;
		else
			from = k;
	}
	bool first = true;
	for (int i = from; i < n; i++) {
		if (arg_omitted(c, i))
			continue;
		if (!first)
			fb_lit(b, ", ");
		put_arg(p, b, c, i);
		first = false;
	}
	if (c->part == CALL_HEAD && n < (int)c->nsig)
		fb_lit(b, ", ");
}

/* Like strace: after ")", pad with spaces so "=" lands at column 40 of
 * the line (prefixes included); longer lines keep one space. */
static void put_eq(StrBuf *b, size_t start)
{
	size_t col = b->len - start + 1;
	size_t pad = col < 40 ? 40 - col : 0;
	char *w = fb_room(b, pad + 2);
	*w++ = ' ';
	memset(w, ' ', pad);
	w += pad;
	*w++ = '=';
	*w++ = ' ';
	fb_done(b, w);
}

static void put_ret(Printer *p, StrBuf *b, Call *c, size_t start)
{
	const TraceHdr *h = c->h;
	put_eq(b, start);
	if (c->entry_only) {
		sb_putc(b, '?');
		return;
	}
	if (h->ret < 0 && h->ret >= -4095) {
		dec_errno_ret(b, h->ret);
		return;
	}
	if (c->hexret) {
		fb_hex(b, (uint64_t)h->ret);
		return;
	}
	if (c->dec && c->dec->ret) {
		CallView v;
		FdCtx f;
		call_view(p, c, &v, &f);
		if (c->dec->ret(b, &v))
			return;
	}
	fb_i64(b, h->ret);
	if (c->special == SP_NONE && !c->retfd)
		return;
	put_special_ret(b, c);
	if (p->o->fd_paths && h->ret >= 0 && (c->special == SP_OPENAT || c->special == SP_OPEN)) {
		int pi = c->special == SP_OPENAT ? 1 : 0;
		if (c->capok[pi] && c->cap[pi])
			put_opened_name(p, b, c);
	} else if (p->o->fd_paths && h->ret >= 0 &&
		   (c->retfd || c->special == SP_DUP ||
		    (c->special == SP_FCNTL && (c->args[1] == F_DUPFD || c->args[1] == F_DUPFD_CLOEXEC)))) {
		put_ret_fd_name(p, b, c);
	}
}

static void split_caps(Call *c, const uint8_t *data, size_t avail)
{
	size_t off = 0;
	for (int i = 0; i < 6; i++) {
		uint16_t n = c->h->cap[i];
		c->capok[i] = n != CAP_FAILED && n > 0 && off + n <= avail;
		c->cap[i] = c->capok[i] ? data + off : NULL;
		c->caplen[i] = c->capok[i] ? n : 0;
		if (c->capok[i])
			off += n;
	}
}

void format_call(Printer *p, StrBuf *b, Call *c)
{
	size_t start = b->len;
	put_prefix(p, b, c->h->tid, c->h->ts);
	if (c->part == CALL_TAIL) {
		sb_printf(b, "<... %s resumed>", c->name);
	} else {
		char *w = fb_room(b, c->namelen + 1);
		memcpy(w, c->name, c->namelen);
		w[c->namelen] = '(';
		fb_done(b, w + c->namelen + 1);
	}
	put_args(p, b, c);
	if (c->part == CALL_HEAD) {
		fb_lit(b, " <unfinished ...>");
		return;
	}
	sb_putc(b, ')');
	put_ret(p, b, c, start);
	if (p->o->show_time && !c->entry_only)
		sb_printf(b, " <%llu.%06llu>", (unsigned long long)(c->h->dur / 1000000000),
			  (unsigned long long)(c->h->dur % 1000000000 / 1000));
}

void init_call(const Printer *p, Call *c, const TraceHdr *h, const uint8_t *data, size_t avail)
{
	/* every field is set here or by split_caps: a memset of the whole
	 * struct showed in the reader's profile (once per line) */
	c->h = h;
	c->special = SP_NONE;
	c->hexret = c->entry_only = false;
	c->part = CALL_WHOLE;
	c->fd_named = false;
	if (h->nr < SYSCALL_MAX && p->nr_info[h->nr].name) {
		const NrInfo *i = &p->nr_info[h->nr];
		c->name = i->name;
		c->namelen = i->namelen;
		c->sig = i->sig;
		c->nsig = i->nsig;
		c->special = i->special;
		c->hexret = i->hexret;
		c->wide = i->wide;
		c->tab = i->tab;
		c->dec = i->dec;
		c->entry_slot = i->entry_slot;
		c->retfd = i->retfd;
	} else {
		c->retfd = RETFD_NONE;
		c->wide = 0x3f;
		c->tab = NULL;
		c->dec = NULL;
		c->entry_slot = -1;
		c->name = syscall_name(h->nr);
		c->namelen = strlen(c->name);
		c->sig = sig_of(h->nr);
		c->nsig = strlen(c->sig);
	}
	for (int k = 0; k < 6; k++)
		c->args[k] = c->wide >> k & 1 ? h->args[k] : (uint32_t)h->args[k];
	split_caps(c, data, avail);
}

void printer_format_call(Printer *p, StrBuf *b, const TraceHdr *h, const uint8_t *data)
{
	Call c;
	size_t avail = 0;
	for (int i = 0; i < 6; i++)
		if (h->cap[i] != CAP_FAILED)
			avail += h->cap[i];
	init_call(p, &c, h, data, avail);
	format_call(p, b, &c);
}
