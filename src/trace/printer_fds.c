/* -y: the names of fds, followed through open, dup and close, or read from
 * /proc/PID/fd while live; record files keep them (CHUNK_FDNAME). */
#include "printer_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "fmt.h"

static FdName *fd_find(Printer *p, uint32_t tgid, int fd)
{
	for (int i = 0; i < p->fds.n; i++)
		if (p->fds.v[i].tgid == tgid && p->fds.v[i].fd == fd)
			return &p->fds.v[i];
	return NULL;
}

static void fd_set_name(Printer *p, uint32_t tgid, int fd, const char *path)
{
	FdName *f = fd_find(p, tgid, fd);
	if (f) {
		free(f->path);
		f->path = xstrdup(path);
		return;
	}
	FdName n = {tgid, fd, xstrdup(path)};
	vec_push(&p->fds, n);
}

static void fd_drop(Printer *p, uint32_t tgid, int fd)
{
	FdName *f = fd_find(p, tgid, fd);
	if (f) {
		free(f->path);
		*f = p->fds.v[--p->fds.n];
	}
}

void put_fd(Printer *p, StrBuf *b, uint32_t tgid, int64_t v)
{
	int fd = (int)v;
	fb_i64(b, fd);
	if (!p->o->fd_paths || fd < 0)
		return;
	FdName *f = fd_find(p, tgid, fd);
	char buf[PATH_MAX];
	const char *name = f ? f->path : NULL;
	if (!name && p->live) {
		char link[64];
		snprintf(link, sizeof(link), "/proc/%u/fd/%d", tgid, fd);
		ssize_t n = readlink(link, buf, sizeof(buf) - 1);
		if (n > 0) {
			buf[n] = 0;
			name = buf;
			fd_set_name(p, tgid, fd, buf);
		}
	}
	if (name)
		sb_printf(b, "<%s>", name);
}

void track_fds(Printer *p, const Call *c)
{
	const TraceHdr *h = c->h;
	if (c->entry_only || h->ret < 0 || c->special == SP_NONE)
		return;
	if (c->special == SP_CLOSE)
		fd_drop(p, h->tgid, (int)h->args[0]);
	else if (c->special == SP_OPENAT && c->capok[1])
		fd_set_name(p, h->tgid, (int)h->ret, (const char *)c->cap[1]);
	else if (c->special == SP_OPEN && c->capok[0])
		fd_set_name(p, h->tgid, (int)h->ret, (const char *)c->cap[0]);
	else if (c->special == SP_DUP ||
		 (c->special == SP_FCNTL && (c->args[1] == F_DUPFD || c->args[1] == F_DUPFD_CLOEXEC))) {
		/* the new fd names what the old one does */
		FdName *f = fd_find(p, h->tgid, (int)h->args[0]);
		if (f && (int)h->ret != (int)h->args[0]) {
			char *path = xstrdup(f->path);
			fd_set_name(p, h->tgid, (int)h->ret, path);
			free(path);
		} else if (!f) {
			fd_drop(p, h->tgid, (int)h->ret);
		}
	}
}

void printer_set_fd_name(Printer *p, uint32_t tgid, int fd, const char *path)
{
	fd_set_name(p, tgid, fd, path);
}

void printer_learn_fds(Printer *p, const void *data, size_t size,
		       void (*cb)(void *ctx, uint32_t tgid, int fd, const char *path), void *ctx)
{
	if (size < sizeof(TraceHdr))
		return;
	const TraceHdr *h = data;
	if (h->type != REC_SYSCALL && h->type != REC_ENTER)
		return;
	Call c;
	size_t avail = size - sizeof(TraceHdr);
	if (h->len < avail)
		avail = h->len;
	init_call(&c, h, (const uint8_t *)data + sizeof(TraceHdr), avail);
	/* a call that failed with EBADF had a closed fd: what /proc shows
	 * now was opened after it (fcntl(8, F_DUPFD) = -1 EBADF, then
	 * dup2(7, 8): it named fd 8 as 7's file for the fcntl and the dup2) */
	size_t nfd = h->type == REC_SYSCALL && h->ret == -EBADF ? 0 : c.nsig;
	for (size_t i = 0; i < nfd && i < 6; i++) {
		int fd = (int)h->args[i];
		if ((c.sig[i] != 'f' && c.sig[i] != 'A') || fd < 0 || fd_find(p, h->tgid, fd))
			continue;
		/* dup2/dup3's new fd: /proc names it after the call, the
		 * file it was made a copy of, not what it was before */
		if (c.special == SP_DUP && i == 1)
			continue;
		char link[64], buf[PATH_MAX];
		snprintf(link, sizeof(link), "/proc/%u/fd/%d", h->tgid, fd);
		ssize_t n = readlink(link, buf, sizeof(buf) - 1);
		if (n <= 0)
			continue;
		buf[n] = 0;
		fd_set_name(p, h->tgid, fd, buf);
		cb(ctx, h->tgid, fd, buf);
	}
	if (h->type == REC_SYSCALL)
		track_fds(p, &c);
}
