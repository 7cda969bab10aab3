/* -y: the names of fds, followed through open, dup and close, or read from
 * /proc/PID/fd while live; record files keep them (CHUNK_FDNAME). */
#include "printer_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

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

static void nlsock_drop(Printer *p, uint32_t tgid, int fd)
{
	for (int i = 0; i < p->nlsocks.n; i++)
		if (p->nlsocks.v[i].tgid == tgid && p->nlsocks.v[i].fd == fd) {
			p->nlsocks.v[i] = p->nlsocks.v[--p->nlsocks.n];
			return;
		}
}

/* live: the socket's inode from /proc/PID/fd, its protocol from the
 * process's /proc/PID/net/netlink (columns: sk Eth Pid ... Inode) */
static int proc_netlink_proto(uint32_t tgid, int fd)
{
	char path[64], buf[PATH_MAX];
	snprintf(path, sizeof(path), "/proc/%u/fd/%d", tgid, fd);
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);
	unsigned long ino;
	if (n <= 0 || (buf[n] = 0, sscanf(buf, "socket:[%lu]", &ino) != 1))
		return -1;
	snprintf(path, sizeof(path), "/proc/%u/net/netlink", tgid);
	FILE *f = fopen(path, "r");
	int proto = -1;
	char line[256];
	while (f && proto < 0 && fgets(line, sizeof(line), f)) {
		unsigned long sk, inode;
		int eth;
		if (sscanf(line, "%lx %d %*s %*s %*s %*s %*s %*s %*s %lu", &sk, &eth, &inode) == 3 &&
		    inode == ino)
			proto = eth;
	}
	if (f)
		fclose(f);
	return proto;
}

int fd_netlink_proto(Printer *p, uint32_t tgid, int fd)
{
	for (int i = 0; i < p->nlsocks.n; i++)
		if (p->nlsocks.v[i].tgid == tgid && p->nlsocks.v[i].fd == fd)
			return p->nlsocks.v[i].proto;
	return p->live ? proc_netlink_proto(tgid, fd) : -1;
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

/* "/a/./b/../c" as "/a/c", in place (what the kernel would name it,
 * symbolic links aside) */
static void path_clean(char *s)
{
	char *w = s;
	for (const char *r = s; *r;) {
		while (*r == '/')
			r++;
		const char *e = strchrnul(r, '/');
		size_t n = (size_t)(e - r);
		if (n == 1 && r[0] == '.') {
		} else if (n == 2 && r[0] == '.' && r[1] == '.') {
			while (w > s && *--w != '/')
				;
		} else if (n) {
			*w++ = '/';
			memmove(w, r, n);
			w += n;
		}
		r = e;
	}
	if (w == s)
		*w++ = '/';
	*w = 0;
}

static const char *base_name(const char *path, size_t *len)
{
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	const char *b = path + n;
	while (b > path && b[-1] != '/')
		b--;
	*len = (size_t)(path + n - b);
	return b;
}

/* -y: a process's working directory: as chdir and fchdir set it; else
 * /proc/PID/cwd while live; else the one of the command sonde started */
static const char *cwd_of(Printer *p, uint32_t tgid)
{
	for (int i = 0; i < p->cwds.n; i++)
		if (p->cwds.v[i].tgid == tgid)
			return p->cwds.v[i].path;
	char link[64], buf[PATH_MAX];
	snprintf(link, sizeof(link), "/proc/%u/cwd", tgid);
	ssize_t n = p->live ? readlink(link, buf, sizeof(buf) - 1) : -1;
	if (n <= 0)
		return p->start_cwd;
	buf[n] = 0;
	FdName c = {tgid, -1, xstrdup(buf)};
	vec_push(&p->cwds, c);
	return c.path;
}

static void set_cwd(Printer *p, uint32_t tgid, const char *path)
{
	char *copy = xstrdup(path);
	for (int i = 0; i < p->cwds.n; i++)
		if (p->cwds.v[i].tgid == tgid) {
			free(p->cwds.v[i].path);
			p->cwds.v[i].path = copy;
			return;
		}
	FdName c = {tgid, -1, copy};
	vec_push(&p->cwds, c);
}

void cwd_inherit(Printer *p, uint32_t parent, uint32_t child)
{
	const char *cwd = parent ? cwd_of(p, parent) : p->start_cwd;
	if (cwd)
		set_cwd(p, child, cwd);
}

void put_dirfd_cwd(Printer *p, StrBuf *b, uint32_t tgid)
{
	sb_puts(b, "AT_FDCWD");
	const char *cwd = p->o->fd_paths ? cwd_of(p, tgid) : NULL;
	if (cwd)
		sb_printf(b, "<%s>", cwd);
}

/* dir/rel into out (rel already in out), cleaned; unchanged if too long */
static void path_join(char *out, size_t outlen, const char *dir)
{
	size_t dl = strlen(dir), rl = strlen(out);
	if (dl + 1 + rl + 1 > outlen)
		return;
	memmove(out + dl + 1, out, rl + 1);
	memcpy(out, dir, dl);
	out[dl] = '/';
	path_clean(out);
}

/* The file an open call returned, as strace's -y names it: the absolute
 * path.  Live, /proc/PID/fd/N says (when it still names a file of that
 * name: the fd may be closed or reused by now); else the path opened,
 * after its directory (the dirfd's name, or the process's cwd). */
static void opened_name(Printer *p, const Call *c, char *out, size_t outlen)
{
	const TraceHdr *h = c->h;
	int pi = c->special == SP_OPENAT ? 1 : 0;
	const char *path = (const char *)c->cap[pi];
	char link[64], buf[PATH_MAX];
	size_t bl, pl;
	snprintf(out, outlen, "%.*s", (int)strnlen(path, c->caplen[pi]), path);
	if (p->live) {
		snprintf(link, sizeof(link), "/proc/%u/fd/%d", h->tgid, (int)h->ret);
		ssize_t n = readlink(link, buf, sizeof(buf) - 1);
		if (n > 0) {
			buf[n] = 0;
			const char *b1 = base_name(buf, &bl), *b2 = base_name(out, &pl);
			if (bl == pl && !memcmp(b1, b2, bl)) {
				snprintf(out, outlen, "%s", buf);
				return;
			}
		}
	}
	if (!out[0])
		return;
	const char *dir = NULL;
	int dirfd = pi ? (int)c->args[0] : AT_FDCWD;
	if (out[0] == '/') {
		path_clean(out);
	} else if (dirfd != AT_FDCWD) {
		FdName *f = fd_find(p, h->tgid, dirfd);
		dir = f ? f->path : NULL;
	} else {
		dir = cwd_of(p, h->tgid);
	}
	if (dir && dir[0] == '/')
		path_join(out, outlen, dir);
	/* the kernel names the file, symbolic links resolved (/lib/x.so is
	 * /usr/lib/x.so) */
	char *real = p->live && out[0] == '/' ? realpath(out, NULL) : NULL;
	if (real && strlen(real) < outlen)
		strcpy(out, real);
	free(real);
}

void put_opened_name(Printer *p, StrBuf *b, Call *c)
{
	char name[PATH_MAX];
	opened_name(p, c, name, sizeof(name));
	sb_printf(b, "<%s>", name);
	fd_set_name(p, c->h->tgid, (int)c->h->ret, name);
	c->fd_named = true;
}

/* calls that return a new fd: the anonymous inodes by the call that
 * makes them (what /proc names them), the rest from /proc while live */
static const struct {
	const char *call, *anon;
} fd_makers[] = {
	{"pidfd_open", "anon_inode:[pidfd]"}, {"inotify_init", "anon_inode:inotify"},
	{"inotify_init1", "anon_inode:inotify"}, {"eventfd", "anon_inode:[eventfd]"},
	{"eventfd2", "anon_inode:[eventfd]"}, {"epoll_create", "anon_inode:[eventpoll]"},
	{"epoll_create1", "anon_inode:[eventpoll]"}, {"signalfd", "anon_inode:[signalfd]"},
	{"signalfd4", "anon_inode:[signalfd]"}, {"timerfd_create", "anon_inode:[timerfd]"},
	{"userfaultfd", "anon_inode:[userfaultfd]"}, {"perf_event_open", "anon_inode:[perf_event]"},
	{"io_uring_setup", "anon_inode:[io_uring]"}, {"fanotify_init", "anon_inode:[fanotify]"},
	{"socket", NULL}, {"accept", NULL}, {"accept4", NULL}, {"memfd_create", NULL},
	{"open_tree", NULL}, {"fsopen", NULL}, {"fsmount", NULL}, {"fspick", NULL},
	{"pidfd_getfd", NULL}, {"mq_open", NULL}, {"openat2", NULL}, {"open_by_handle_at", NULL},
};

int ret_fd_kind(const char *call)
{
	for (size_t i = 0; i < sizeof(fd_makers) / sizeof(fd_makers[0]); i++)
		if (!strcmp(call, fd_makers[i].call))
			return fd_makers[i].anon ? RETFD_ANON : RETFD_PROC;
	return RETFD_NONE;
}

static const char *anon_name(const char *call)
{
	for (size_t i = 0; i < sizeof(fd_makers) / sizeof(fd_makers[0]); i++)
		if (!strcmp(call, fd_makers[i].call))
			return fd_makers[i].anon;
	return NULL;
}

static bool is_dup(const Call *c)
{
	return c->special == SP_DUP ||
	       (c->special == SP_FCNTL && (c->args[1] == F_DUPFD || c->args[1] == F_DUPFD_CLOEXEC));
}

/* the name of the fd a call returned, NULL if none is known; remembered
 * for the calls that follow */
static const char *ret_fd_name(Printer *p, const Call *c)
{
	const TraceHdr *h = c->h;
	int fd = (int)h->ret;
	const char *name = NULL;
	char buf[PATH_MAX];
	if (is_dup(c)) {
		FdName *f = fd_find(p, h->tgid, (int)c->args[0]);
		if (!f) /* put_fd found none: the copy has none either */
			return NULL;
		if (fd == (int)c->args[0])
			return f->path;
		name = xstrdup(f->path);
	} else if (c->retfd == RETFD_ANON) {
		name = anon_name(c->name);
	} else if (p->live) {
		char link[64];
		snprintf(link, sizeof(link), "/proc/%u/fd/%d", h->tgid, fd);
		ssize_t n = readlink(link, buf, sizeof(buf) - 1);
		if (n <= 0)
			return NULL;
		buf[n] = 0;
		name = buf;
	}
	if (!name)
		return NULL;
	fd_set_name(p, h->tgid, fd, name);
	if (is_dup(c))
		free((char *)name);
	return fd_find(p, h->tgid, fd)->path;
}

void put_ret_fd_name(Printer *p, StrBuf *b, Call *c)
{
	const char *name = ret_fd_name(p, c);
	if (name)
		sb_printf(b, "<%s>", name);
	c->fd_named = true;
}

void track_fds(Printer *p, const Call *c)
{
	const TraceHdr *h = c->h;
	if (c->entry_only || h->ret < 0)
		return;
	if (c->special == SP_SOCKET && c->args[0] == AF_NETLINK) {
		FdProto s = {h->tgid, (int)h->ret, (int)c->args[2]};
		nlsock_drop(p, h->tgid, s.fd);
		vec_push(&p->nlsocks, s);
	}
	if (c->retfd) {
		if (p->o->fd_paths && !c->fd_named)
			ret_fd_name(p, c);
		return;
	}
	if (c->special == SP_NONE)
		return;
	if (c->special == SP_CHDIR && c->capok[0]) {
		const char *cwd = cwd_of(p, h->tgid);
		char dir[PATH_MAX];
		snprintf(dir, sizeof(dir), "%.*s", (int)strnlen((const char *)c->cap[0], c->caplen[0]),
			 (const char *)c->cap[0]);
		if (dir[0] != '/' && cwd)
			path_join(dir, sizeof(dir), cwd);
		if (dir[0] == '/') {
			path_clean(dir);
			set_cwd(p, h->tgid, dir);
		}
	} else if (c->special == SP_FCHDIR) {
		FdName *f = fd_find(p, h->tgid, (int)c->args[0]);
		if (f && f->path[0] == '/')
			set_cwd(p, h->tgid, f->path);
	} else if (c->special == SP_CLOSE) {
		fd_drop(p, h->tgid, (int)h->args[0]);
		nlsock_drop(p, h->tgid, (int)h->args[0]);
	}
	else if ((c->special == SP_OPENAT && c->capok[1]) || (c->special == SP_OPEN && c->capok[0])) {
		if (!c->fd_named) {
			char name[PATH_MAX];
			opened_name(p, c, name, sizeof(name));
			fd_set_name(p, h->tgid, (int)h->ret, name);
		}
	}
	else if (is_dup(c) && !c->fd_named) {
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
	init_call(p, &c, h, (const uint8_t *)data + sizeof(TraceHdr), avail);
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

/* whether fd of pid is close-on-exec (fdinfo's flags, in octal) */
static bool fd_cloexec(uint32_t pid, const char *fd)
{
	char path[64 + 256], line[128];
	snprintf(path, sizeof(path), "/proc/%u/fdinfo/%.255s", pid, fd);
	FILE *f = fopen(path, "r");
	bool cloexec = false;
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "flags:", 6)) {
			cloexec = strtoul(line + 6, NULL, 8) & O_CLOEXEC;
			break;
		}
	if (f)
		fclose(f);
	return cloexec;
}

void printer_snapshot_fds(Printer *p, uint32_t pid, bool at_exec,
			  void (*cb)(void *ctx, uint32_t tgid, int fd, const char *path), void *ctx)
{
	if (!p->o->fd_paths)
		return;
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%u/fd", pid);
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9' || (at_exec && fd_cloexec(pid, e->d_name)))
			continue;
		char link[64 + sizeof(e->d_name)], buf[PATH_MAX];
		snprintf(link, sizeof(link), "%s/%s", dir, e->d_name);
		ssize_t n = readlink(link, buf, sizeof(buf) - 1);
		if (n <= 0)
			continue;
		buf[n] = 0;
		int fd = atoi(e->d_name);
		fd_set_name(p, pid, fd, buf);
		if (cb)
			cb(ctx, pid, fd, buf);
	}
	closedir(d);
}
