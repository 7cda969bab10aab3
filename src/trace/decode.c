/* strace's way of writing flags, constants, strings and structures. */
#include "decode.h"
#include "decode_tables.h"
#include "fmt.h"

#include <fcntl.h>
#include <linux/sched.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sys/un.h>
#include <asm/prctl.h>
#include <termios.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <time.h>
#include <sys/sysmacros.h>


void dec_flags(StrBuf *b, const FlagName *t, uint64_t v)
{
	bool any = false;
	for (; t->name; t++) {
		if (t->val && (v & t->val) == t->val) {
			if (any)
				fb_putc(b, '|');
			fb_puts(b, t->name);
			v &= ~t->val;
			any = true;
		}
	}
	if (v || !any) {
		if (any)
			fb_putc(b, '|');
		fb_hex(b, v);
	}
}

void dec_enum(StrBuf *b, const FlagName *t, uint64_t v, bool hex)
{
	for (; t->name; t++)
		if (t->val == v) {
			fb_puts(b, t->name);
			return;
		}
	if (hex)
		fb_hex(b, v);
	else
		fb_i64(b, (int64_t)v);
}

/* the two-character escapes; other bytes outside 0x20..0x7e are octal */
static const char esc_char[256] = {
	['"'] = '"', ['\\'] = '\\', ['\n'] = 'n', ['\t'] = 't', ['\r'] = 'r', ['\v'] = 'v', ['\f'] = 'f',
};

/* quoted and escaped: at most 4 output bytes per input byte, plus quotes
 * and "..." */
static void put_strace_quoted(StrBuf *b, const uint8_t *d, size_t n, bool dots)
{
	char *w = fb_room(b, 4 * n + 5);
	*w++ = '"';
	for (size_t i = 0; i < n; i++) {
		uint8_t c = d[i];
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			*w++ = (char)c;
		} else if (esc_char[c]) {
			*w++ = '\\';
			*w++ = esc_char[c];
		} else {
			/* strace: shortest octal unless a digit follows */
			*w++ = '\\';
			if (i + 1 < n && d[i + 1] >= '0' && d[i + 1] <= '7') {
				*w++ = (char)('0' + (c >> 6));
				*w++ = (char)('0' + ((c >> 3) & 7));
			} else {
				if (c >> 6)
					*w++ = (char)('0' + (c >> 6));
				if (c >> 3)
					*w++ = (char)('0' + ((c >> 3) & 7));
			}
			*w++ = (char)('0' + (c & 7));
		}
	}
	*w++ = '"';
	if (dots) {
		memcpy(w, "...", 3);
		w += 3;
	}
	fb_done(b, w);
}

void dec_str(StrBuf *b, const uint8_t *data, size_t len, size_t max, bool truncated)
{
	size_t n = len < max ? len : max;
	put_strace_quoted(b, data, n, truncated || len > max);
}

void dec_cstr(StrBuf *b, const uint8_t *data, size_t len, size_t max)
{
	const uint8_t *z = memchr(data, 0, len);
	size_t n = z ? (size_t)(z - data) : len;
	dec_str(b, data, n, max, n == len && len > 0 && n >= max);
}

void dec_hex_str(StrBuf *b, const uint8_t *d, size_t n, size_t max, bool more)
{
	sb_putc(b, '"');
	for (size_t i = 0; i < n && i < max; i++)
		sb_printf(b, "\\x%02x", d[i]);
	sb_putc(b, '"');
	if (more || n > max)
		sb_puts(b, "...");
}

void dec_ptr(StrBuf *b, uint64_t p)
{
	if (p)
		fb_hex(b, p);
	else
		fb_lit(b, "NULL");
}

static const FlagName open_flags[] = {
	N(O_WRONLY), N(O_RDWR), N(O_CREAT), N(O_EXCL), N(O_NOCTTY), N(O_TRUNC), N(O_APPEND),
	N(O_NONBLOCK), N(O_DSYNC), {04000000, "__O_SYNC"}, N(O_ASYNC), N(O_DIRECT),
	N(O_LARGEFILE), N(O_NOFOLLOW), N(O_NOATIME), N(O_CLOEXEC), N(O_PATH),
	{__O_TMPFILE | O_DIRECTORY, "O_TMPFILE"}, N(O_DIRECTORY), END};

void dec_open_flags(StrBuf *b, uint64_t v)
{
	v &= 0xffffffff;
	int acc = (int)(v & O_ACCMODE);
	sb_puts(b, acc == O_RDONLY ? "O_RDONLY" : acc == O_WRONLY ? "O_WRONLY" : acc == O_RDWR ? "O_RDWR" : "O_ACCMODE");
	v &= ~(uint64_t)O_ACCMODE;
	if (v) {
		sb_putc(b, '|');
		dec_flags(b, open_flags + 2, v);
	}
}

/* O_* flags of calls that take no access mode (pipe2, dup3): 0 is "0" */
void dec_fd_flags(StrBuf *b, uint64_t v)
{
	v &= 0xffffffff;
	if (!v)
		sb_putc(b, '0');
	else
		dec_flags_unknown(b, open_flags + 2, v, "O_???");
}

void dec_mode(StrBuf *b, uint64_t v)
{
	static const FlagName types[] = {N(S_IFREG), N(S_IFDIR), N(S_IFCHR), N(S_IFBLK),
					 N(S_IFIFO), N(S_IFLNK), N(S_IFSOCK), END};
	uint64_t t = v & S_IFMT;
	if (t) {
		/* strace: a type no name covers, the whole mode in octal */
		const FlagName *f = types;
		while (f->name && f->val != t)
			f++;
		if (!f->name) {
			sb_printf(b, "%#03llo", (unsigned long long)v);
			return;
		}
		sb_puts(b, f->name);
		sb_putc(b, '|');
	}
	v &= ~(uint64_t)S_IFMT;
	if (v & S_ISUID) sb_puts(b, "S_ISUID|");
	if (v & S_ISGID) sb_puts(b, "S_ISGID|");
	if (v & S_ISVTX) sb_puts(b, "S_ISVTX|");
	sb_printf(b, "%#03llo", (unsigned long long)(v & 0777));
}

void dec_dirfd(StrBuf *b, int64_t fd)
{
	if ((int)fd == AT_FDCWD)
		sb_puts(b, "AT_FDCWD");
	else
		sb_printf(b, "%d", (int)fd);
}

void dec_at_flags(StrBuf *b, uint64_t v)
{
	static const FlagName t[] = {N(AT_SYMLINK_NOFOLLOW), N(AT_REMOVEDIR), N(AT_SYMLINK_FOLLOW),
				     N(AT_NO_AUTOMOUNT), N(AT_EMPTY_PATH), N(AT_EACCESS),
				     {0x6000, "AT_STATX_DONT_SYNC"}, {0x2000, "AT_STATX_FORCE_SYNC"},
				     END};
	if (!v)
		sb_puts(b, "0");
	else
		dec_flags(b, t, v);
}

void dec_mmap_prot(StrBuf *b, uint64_t v)
{
	static const FlagName t[] = {N(PROT_READ), N(PROT_WRITE), N(PROT_EXEC), {0x8, "PROT_SEM"},
				     N(PROT_GROWSDOWN), N(PROT_GROWSUP), END};
	if (!v)
		sb_puts(b, "PROT_NONE");
	else
		dec_flags(b, t, v);
}

void dec_mmap_flags(StrBuf *b, uint64_t v)
{
	static const FlagName t[] = {N(MAP_FIXED), N(MAP_ANONYMOUS), N(MAP_32BIT), N(MAP_NORESERVE),
				     N(MAP_GROWSDOWN), N(MAP_DENYWRITE), N(MAP_EXECUTABLE),
				     N(MAP_LOCKED), N(MAP_POPULATE), N(MAP_NONBLOCK), N(MAP_STACK),
				     N(MAP_HUGETLB), N(MAP_SYNC), N(MAP_FIXED_NOREPLACE), END};
	static const FlagName types[] = {N(MAP_SHARED), N(MAP_PRIVATE), N(MAP_SHARED_VALIDATE), END};
	dec_enum(b, types, v & 3, true);
	v &= ~3ull;
	if (v) {
		sb_putc(b, '|');
		dec_flags(b, t, v);
	}
}

void dec_access_mode(StrBuf *b, uint64_t v)
{
	static const FlagName t[] = {N(R_OK), N(W_OK), N(X_OK), END};
	if (!v)
		sb_puts(b, "F_OK");
	else
		dec_flags_unknown(b, t, v, "?_OK");
}

void dec_clone_flags(StrBuf *b, uint64_t v)
{
	static const FlagName t[] = {
		N(CLONE_VM), N(CLONE_FS), N(CLONE_FILES), N(CLONE_SIGHAND), N(CLONE_PIDFD),
		N(CLONE_PTRACE), N(CLONE_VFORK), N(CLONE_PARENT), N(CLONE_THREAD), N(CLONE_NEWNS),
		N(CLONE_SYSVSEM), N(CLONE_SETTLS), N(CLONE_PARENT_SETTID), N(CLONE_CHILD_CLEARTID),
		N(CLONE_DETACHED), N(CLONE_UNTRACED), N(CLONE_CHILD_SETTID), N(CLONE_NEWCGROUP),
		N(CLONE_NEWUTS), N(CLONE_NEWIPC), N(CLONE_NEWUSER), N(CLONE_NEWPID), N(CLONE_NEWNET),
		N(CLONE_IO), END};
	int sig = (int)(v & 0xff);
	v &= ~0xffull;
	bool any = v != 0;
	if (any)
		dec_flags(b, t, v);
	if (sig) {
		if (any)
			sb_putc(b, '|');
		dec_signal(b, sig);
	} else if (!any) {
		sb_puts(b, "0");
	}
}

const char *dec_signame(int sig)
{
	static char buf[32];
	/* strace counts real-time signals from the kernel's first, 32 (glibc
	 * keeps 32 and 33 and calls 34 SIGRTMIN) */
	if (sig == 32)
		return "SIGRTMIN";
	if (sig > 32 && sig <= 64) {
		snprintf(buf, sizeof(buf), "SIGRT_%d", sig - 32);
		return buf;
	}
	const char *a = sig > 0 && sig < 32 ? sigabbrev_np(sig) : NULL;
	if (!a)
		return NULL;
	if (sig == SIGIO)
		return "SIGIO";
	if (sig == SIGCHLD)
		return "SIGCHLD";
	snprintf(buf, sizeof(buf), "SIG%s", a);
	return buf;
}

void dec_signal(StrBuf *b, int64_t sig)
{
	const char *n = dec_signame((int)sig);
	if (n)
		sb_puts(b, n);
	else
		sb_printf(b, "%lld", (long long)sig);
}

void dec_sigset(StrBuf *b, uint64_t mask)
{
	int bits = __builtin_popcountll(mask);
	bool inv = bits > 32;
	if (inv) {
		sb_putc(b, '~');
		mask = ~mask;
	}
	sb_putc(b, '[');
	bool first = true;
	for (int s = 1; s <= 64; s++) {
		if (!(mask & (1ull << (s - 1))))
			continue;
		const char *n = dec_signame(s);
		if (!first)
			sb_putc(b, ' ');
		first = false;
		if (n)
			sb_puts(b, !strncmp(n, "SIG", 3) ? n + 3 : n);
		else
			sb_printf(b, "%d", s);
	}
	sb_putc(b, ']');
}

void dec_sigprocmask_how(StrBuf *b, uint64_t v)
{
	static const FlagName t[] = {N(SIG_BLOCK), N(SIG_UNBLOCK), N(SIG_SETMASK), END};
	dec_enum(b, t, v, false);
}

void dec_sa_flags(StrBuf *b, uint64_t v)
{
	/* strace's order */
	static const FlagName t[] = {{0x04000000, "SA_RESTORER"}, N(SA_ONSTACK), N(SA_RESTART),
				     {0x20000000, "SA_INTERRUPT"}, N(SA_NODEFER), N(SA_RESETHAND),
				     N(SA_SIGINFO), N(SA_NOCLDSTOP), N(SA_NOCLDWAIT), END};
	dec_flags(b, t, v);
}

void dec_sigaction(StrBuf *b, const uint8_t *d, size_t len)
{
	uint64_t f[4] = {0};
	if (len < 32) {
		sb_puts(b, "{...}");
		return;
	}
	memcpy(f, d, 32);
	sb_putc(b, '{');
	sb_puts(b, "sa_handler=");
	if (f[0] == 0)
		sb_puts(b, "SIG_DFL");
	else if (f[0] == 1)
		sb_puts(b, "SIG_IGN");
	else
		sb_printf(b, "%#llx", (unsigned long long)f[0]);
	sb_puts(b, ", sa_mask=");
	dec_sigset(b, f[3]);
	sb_puts(b, ", sa_flags=");
	dec_sa_flags(b, f[1]);
	if (f[1] & 0x04000000)
		sb_printf(b, ", sa_restorer=%#llx", (unsigned long long)f[2]);
	sb_putc(b, '}');
}

static const FlagName families[] = {N(AF_UNSPEC), N(AF_UNIX), N(AF_INET), N(AF_INET6),
				    N(AF_NETLINK), N(AF_PACKET), N(AF_BLUETOOTH), N(AF_ALG),
				    N(AF_VSOCK), END};

void dec_sock_family(StrBuf *b, uint64_t v)
{
	dec_enum(b, families, v, false);
}

void dec_sock_type(StrBuf *b, uint64_t v)
{
	static const FlagName t[] = {N(SOCK_STREAM), N(SOCK_DGRAM), N(SOCK_RAW), N(SOCK_RDM),
				     N(SOCK_SEQPACKET), N(SOCK_DCCP), N(SOCK_PACKET), END};
	dec_enum(b, t, v & 0xf, true);
	if (v & SOCK_CLOEXEC)
		sb_puts(b, "|SOCK_CLOEXEC");
	if (v & SOCK_NONBLOCK)
		sb_puts(b, "|SOCK_NONBLOCK");
	v &= ~(uint64_t)(0xf | SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (v)
		sb_printf(b, "|%#llx", (unsigned long long)v);
}

void dec_fcntl_cmd(StrBuf *b, uint64_t v)
{
	static const FlagName t[] = {N(F_DUPFD), N(F_GETFD), N(F_SETFD), N(F_GETFL), N(F_SETFL),
				     N(F_GETLK), N(F_SETLK), N(F_SETLKW), N(F_SETOWN), N(F_GETOWN),
				     N(F_SETSIG), N(F_GETSIG), N(F_DUPFD_CLOEXEC), N(F_SETPIPE_SZ),
				     N(F_GETPIPE_SZ), N(F_ADD_SEALS), N(F_GET_SEALS), N(F_OFD_GETLK),
				     N(F_OFD_SETLK), N(F_OFD_SETLKW), N(F_SETLEASE), N(F_GETLEASE),
				     N(F_NOTIFY), END};
	dec_enum(b, t, v, false);
}

void dec_wait_status(StrBuf *b, int s)
{
	if (WIFEXITED(s))
		sb_printf(b, "[{WIFEXITED(s) && WEXITSTATUS(s) == %d}]", WEXITSTATUS(s));
	else if (WIFSIGNALED(s)) {
		sb_puts(b, "[{WIFSIGNALED(s) && WTERMSIG(s) == ");
		dec_signal(b, WTERMSIG(s));
		sb_printf(b, "%s}]", WCOREDUMP(s) ? " && WCOREDUMP(s)" : "");
	} else if (WIFSTOPPED(s)) {
		sb_puts(b, "[{WIFSTOPPED(s) && WSTOPSIG(s) == ");
		dec_signal(b, WSTOPSIG(s));
		sb_puts(b, "}]");
	} else
		sb_printf(b, "[%#x]", s);
}

void dec_wait_options(StrBuf *b, uint64_t v)
{
	/* WSTOPPED == WUNTRACED: strace names it WSTOPPED */
	static const FlagName t[] = {N(WNOHANG), N(WSTOPPED), N(WEXITED), N(WCONTINUED),
				     N(WNOWAIT), N(__WNOTHREAD), N(__WALL), N(__WCLONE), END};
	if (!v)
		sb_puts(b, "0");
	else
		dec_flags(b, t, v);
}

void dec_poll_events(StrBuf *b, uint64_t v)
{
	static const FlagName t[] = {N(POLLIN), N(POLLPRI), N(POLLOUT), N(POLLERR), N(POLLHUP),
				     N(POLLNVAL), N(POLLRDNORM), N(POLLRDBAND), N(POLLWRNORM),
				     N(POLLWRBAND), N(POLLMSG), N(POLLRDHUP), END};
	dec_flags(b, t, v);
}

void dec_epoll_events(StrBuf *b, uint64_t v)
{
	static const FlagName t[] = {N(EPOLLIN), N(EPOLLPRI), N(EPOLLOUT), N(EPOLLERR), N(EPOLLHUP),
				     N(EPOLLRDNORM), N(EPOLLRDBAND), N(EPOLLWRNORM), N(EPOLLWRBAND),
				     N(EPOLLMSG), N(EPOLLRDHUP), N(EPOLLEXCLUSIVE), N(EPOLLWAKEUP),
				     N(EPOLLONESHOT), N(EPOLLET), END};
	dec_flags(b, t, v);
}

void dec_epoll_op(StrBuf *b, uint64_t v)
{
	static const FlagName t[] = {N(EPOLL_CTL_ADD), N(EPOLL_CTL_DEL), N(EPOLL_CTL_MOD), END};
	dec_enum(b, t, v, false);
}

void dec_whence(StrBuf *b, uint64_t v)
{
	static const FlagName t[] = {N(SEEK_SET), N(SEEK_CUR), N(SEEK_END), N(SEEK_DATA),
				     N(SEEK_HOLE), END};
	dec_enum(b, t, v, false);
}

void dec_fadvise(StrBuf *b, uint64_t v)
{
	static const FlagName t[] = {N(POSIX_FADV_NORMAL), N(POSIX_FADV_RANDOM),
				     N(POSIX_FADV_SEQUENTIAL), N(POSIX_FADV_WILLNEED),
				     N(POSIX_FADV_DONTNEED), N(POSIX_FADV_NOREUSE), END};
	dec_enum_unknown(b, t, (uint32_t)v, "POSIX_FADV_???");
}

void dec_getrandom_flags(StrBuf *b, uint64_t v)
{
	/* <sys/random.h>'s values (GRND_INSECURE: linux/random.h) */
	static const FlagName t[] = {{1, "GRND_NONBLOCK"}, {2, "GRND_RANDOM"},
				     {4, "GRND_INSECURE"}, END};
	if (!v)
		sb_putc(b, '0');
	else
		dec_flags(b, t, v);
}

void dec_clockid(StrBuf *b, uint64_t v)
{
	static const FlagName t[] = {N(CLOCK_REALTIME), N(CLOCK_MONOTONIC),
				     N(CLOCK_PROCESS_CPUTIME_ID), N(CLOCK_THREAD_CPUTIME_ID),
				     N(CLOCK_MONOTONIC_RAW), N(CLOCK_REALTIME_COARSE),
				     N(CLOCK_MONOTONIC_COARSE), N(CLOCK_BOOTTIME), N(CLOCK_TAI), END};
	dec_enum(b, t, v, false);
}

void dec_arch_prctl(StrBuf *b, uint64_t v)
{
	static const FlagName t[] = {N(ARCH_SET_GS), N(ARCH_SET_FS), N(ARCH_GET_FS), N(ARCH_GET_GS),
				     N(ARCH_GET_CPUID), N(ARCH_SET_CPUID), {0x3001, "ARCH_CET_STATUS"},
				     {0x5001, "ARCH_SHSTK_ENABLE"}, {0x5005, "ARCH_SHSTK_STATUS"}, END};
	dec_enum(b, t, v, true);
}

void dec_stat(StrBuf *b, const uint8_t *d, size_t len)
{
	struct stat st;
	if (len < sizeof(st)) {
		sb_puts(b, "{...}");
		return;
	}
	memcpy(&st, d, sizeof(st));
	sb_puts(b, "{st_mode=");
	dec_mode(b, st.st_mode);
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
		sb_printf(b, ", st_rdev=makedev(%#x, %#x)", major(st.st_rdev), minor(st.st_rdev));
	else
		sb_printf(b, ", st_size=%lld", (long long)st.st_size);
	sb_puts(b, ", ...}");
}

void dec_timespec(StrBuf *b, const uint8_t *d, size_t len)
{
	int64_t t[2];
	if (len < 16) {
		sb_puts(b, "{...}");
		return;
	}
	memcpy(t, d, 16);
	sb_printf(b, "{tv_sec=%lld, tv_nsec=%lld}", (long long)t[0], (long long)t[1]);
}

const char *dec_errno_name(int e)
{
	static const char *const kernel[] = {
		[512 - 512] = "ERESTARTSYS", [513 - 512] = "ERESTARTNOINTR",
		[514 - 512] = "ERESTARTNOHAND", [515 - 512] = "ENOIOCTLCMD",
		[516 - 512] = "ERESTART_RESTARTBLOCK", [517 - 512] = "EPROBE_DEFER",
		[518 - 512] = "EOPENSTALE", [519 - 512] = "ENOPARAM",
		[521 - 512] = "EBADHANDLE", [522 - 512] = "ENOTSYNC", [523 - 512] = "EBADCOOKIE",
		[524 - 512] = "ENOTSUPP", [525 - 512] = "ETOOSMALL", [526 - 512] = "ESERVERFAULT",
		[527 - 512] = "EBADTYPE", [528 - 512] = "EJUKEBOX", [529 - 512] = "EIOCBQUEUED",
		[530 - 512] = "ERECALLCONFLICT"};
	if (e >= 512 && e <= 530)
		return kernel[e - 512];
	return strerrorname_np(e);
}

void dec_errno_ret(StrBuf *b, int64_t ret)
{
	int e = (int)-ret;
	const char *name = dec_errno_name(e);
	if (e >= 512 && e <= 530) {
		static const char *const why[] = {
			"To be restarted if SA_RESTART is set", "To be restarted",
			"To be restarted if no handler", NULL,
			"Interrupted by signal"};
		const char *w = e - 512 < 5 ? why[e - 512] : NULL;
		sb_printf(b, "? %s", name ? name : "E?");
		if (w)
			sb_printf(b, " (%s)", w);
		return;
	}
	if (name)
		sb_printf(b, "-1 %s (%s)", name, strerror(e));
	else
		sb_printf(b, "-1 (errno %d)", e);
}

/* si_code's name for a signal, NULL if unknown */
static const char *si_code_name(int sig, int code)
{
	static const char *const from_user[] = {
		[0] = "SI_USER",    [1] = "SI_QUEUE",    [2] = "SI_TIMER",  [3] = "SI_MESGQ",
		[4] = "SI_ASYNCIO", [5] = "SI_SIGIO",    [6] = "SI_TKILL",  [7] = "SI_DETHREAD",
	};
	if (code <= 0) {
		if (code == -60)
			return "SI_ASYNCNL";
		return -code < 8 ? from_user[-code] : NULL;
	}
	if (code == 0x80)
		return "SI_KERNEL";
	static const char *const chld[] = {NULL, "CLD_EXITED", "CLD_KILLED", "CLD_DUMPED",
					   "CLD_TRAPPED", "CLD_STOPPED", "CLD_CONTINUED"};
	static const char *const segv[] = {NULL, "SEGV_MAPERR", "SEGV_ACCERR", "SEGV_BNDERR",
					   "SEGV_PKUERR", "SEGV_ACCADI", "SEGV_ADIDERR",
					   "SEGV_ADIPERR", "SEGV_MTEAERR", "SEGV_MTESERR", "SEGV_CPERR"};
	static const char *const bus[] = {NULL, "BUS_ADRALN", "BUS_ADRERR", "BUS_OBJERR",
					  "BUS_MCEERR_AR", "BUS_MCEERR_AO"};
	static const char *const ill[] = {NULL, "ILL_ILLOPC", "ILL_ILLOPN", "ILL_ILLADR",
					  "ILL_ILLTRP", "ILL_PRVOPC", "ILL_PRVREG", "ILL_COPROC",
					  "ILL_BADSTK", "ILL_BADIADDR"};
	static const char *const fpe[] = {NULL, "FPE_INTDIV", "FPE_INTOVF", "FPE_FLTDIV",
					  "FPE_FLTOVF", "FPE_FLTUND", "FPE_FLTRES", "FPE_FLTINV",
					  "FPE_FLTSUB", "FPE_FLTUNK", "FPE_CONDTRAP"};
	static const char *const trap[] = {NULL, "TRAP_BRKPT", "TRAP_TRACE", "TRAP_BRANCH",
					   "TRAP_HWBKPT", "TRAP_UNK", "TRAP_PERF"};
	static const char *const poll[] = {NULL, "POLL_IN", "POLL_OUT", "POLL_MSG",
					   "POLL_ERR", "POLL_PRI", "POLL_HUP"};
#define PICK(t) return (size_t)code < sizeof(t) / sizeof(t[0]) ? t[code] : NULL
	switch (sig) {
	case SIGCHLD: PICK(chld);
	case SIGSEGV: PICK(segv);
	case SIGBUS: PICK(bus);
	case SIGILL: PICK(ill);
	case SIGFPE: PICK(fpe);
	case SIGTRAP: PICK(trap);
	case SIGIO: PICK(poll);
	case SIGSYS: return code == 1 ? "SYS_SECCOMP" : NULL;
	}
#undef PICK
	return NULL;
}

static int32_t si_i32(const uint8_t *si, int off)
{
	int32_t v;
	memcpy(&v, si + off, 4);
	return v;
}

static uint64_t si_u64(const uint8_t *si, int off)
{
	uint64_t v;
	memcpy(&v, si + off, 8);
	return v;
}

/* strace's printsiginfo, on the kernel's struct kernel_siginfo (x86_64):
 * signo 0, errno 4, code 8, then the union at 16. */
void dec_siginfo(StrBuf *b, int sig, const uint8_t *si, size_t len)
{
	sb_puts(b, "{si_signo=");
	dec_signal(b, sig);
	if (len < SIGINFO_LEN) {
		sb_puts(b, "}");
		return;
	}
	int code = si_i32(si, 8), err = si_i32(si, 4);
	sb_puts(b, ", si_code=");
	const char *cn = si_code_name(sig, code);
	if (cn)
		sb_puts(b, cn);
	else
		sb_printf(b, "%d", code);
	if (err) {
		const char *en = dec_errno_name(err);
		if (en)
			sb_printf(b, ", si_errno=%s", en);
		else
			sb_printf(b, ", si_errno=%u", (unsigned)err); /* strace: unsigned */
	}
	int pid = si_i32(si, 16);
	uint32_t uid = (uint32_t)si_i32(si, 20);
	uint64_t ptr = si_u64(si, 24);
/* a uid as strace prints ids: -1, or unsigned */
#define SOURCE()                                                                  \
	sb_printf(b, uid == 0xffffffffu ? ", si_pid=%d, si_uid=-1" : ", si_pid=%d, si_uid=%u", \
		  pid, uid)
#define SIGVAL()                                                     \
	do {                                                         \
		sb_printf(b, ", si_int=%d, si_ptr=", si_i32(si, 24)); \
		dec_ptr(b, ptr);                                     \
	} while (0)
	if (code <= 0) {
		if (code == -2) { /* SI_TIMER */
			sb_printf(b, ", si_timerid=%#x, si_overrun=%d", (unsigned)pid, (int)uid);
			SIGVAL();
		} else {
			SOURCE();
			if (code != 0 && code != -6 && ptr)
				SIGVAL();
		}
	} else {
		switch (sig) {
		case SIGCHLD: {
			SOURCE();
			int st = si_i32(si, 24);
			sb_puts(b, ", si_status=");
			if (code == 1)
				sb_printf(b, "%d", st);
			else
				dec_signal(b, st);
			sb_printf(b, ", si_utime=%llu, si_stime=%llu",
				  (unsigned long long)si_u64(si, 32), (unsigned long long)si_u64(si, 40));
			break;
		}
		case SIGILL: case SIGFPE: case SIGSEGV: case SIGBUS:
			sb_puts(b, ", si_addr=");
			dec_ptr(b, si_u64(si, 16));
			break;
		case SIGIO:
			if (code >= 1 && code <= 3)
				sb_printf(b, ", si_band=%lld, si_fd=%d", (long long)si_u64(si, 16),
					  si_i32(si, 24));
			break;
		case SIGSYS:
			sb_puts(b, ", si_call_addr=");
			dec_ptr(b, si_u64(si, 16));
			sb_printf(b, ", si_syscall=%d, si_arch=%s", si_i32(si, 24),
				  (uint32_t)si_i32(si, 28) == 0xc000003eu ? "AUDIT_ARCH_X86_64"
									   : "?");
			break;
		default:
			if (pid || uid)
				SOURCE();
			if (ptr)
				SIGVAL();
		}
	}
#undef SOURCE
#undef SIGVAL
	sb_putc(b, '}');
}

/* struct clone_args as strace prints clone3's first argument */
void dec_clone_args(StrBuf *b, const uint8_t *d, size_t len)
{
	uint64_t a[11] = {0};
	memcpy(a, d, len < sizeof(a) ? len : sizeof(a));
	uint64_t fl = a[0];
	sb_puts(b, "{flags=");
	if (fl)
		dec_clone_flags(b, fl & ~0xffull);
	else
		sb_putc(b, '0');
	if (fl & CLONE_PIDFD)
		sb_printf(b, ", pidfd=%#llx", (unsigned long long)a[1]);
	if (fl & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID))
		sb_printf(b, ", child_tid=%#llx", (unsigned long long)a[2]);
	if (fl & CLONE_PARENT_SETTID)
		sb_printf(b, ", parent_tid=%#llx", (unsigned long long)a[3]);
	sb_puts(b, ", exit_signal=");
	if (a[4])
		dec_signal(b, (int64_t)a[4]);
	else
		sb_putc(b, '0');
	sb_puts(b, ", stack=");
	dec_ptr(b, a[5]);
	sb_printf(b, ", stack_size=%#llx", (unsigned long long)a[6]);
	if (fl & CLONE_SETTLS)
		sb_printf(b, ", tls=%#llx", (unsigned long long)a[7]);
	if (len >= 80 && a[9]) {
		sb_puts(b, ", set_tid=");
		dec_ptr(b, a[8]);
		sb_printf(b, ", set_tid_size=%llu", (unsigned long long)a[9]);
	}
	if (len >= 88 && (fl & 0x200000000ull /* CLONE_INTO_CGROUP */))
		sb_printf(b, ", cgroup=%llu", (unsigned long long)a[10]);
	sb_putc(b, '}');
}
