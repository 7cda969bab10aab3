/* sonde trace decoders: strace's spelling of flags, strings, structures,
 * and the -e selection language.  No root needed. */
#include <fcntl.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <linux/sched.h>
#include <sys/epoll.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "trace/decode.h"
#include "trace/printer.h"
#include "trace/sigs.h"
#include "trace/syscalls.h"

static StrBuf b;
static const char *S(void)
{
	const char *r = b.s ? b.s : "";
	return r;
}
#define T(call, want)                                                          \
	do {                                                                   \
		sb_reset(&b);                                                  \
		call;                                                          \
		CHECK_STR(S(), want);                                          \
	} while (0)

/* prlimit64, futex, getrandom, fadvise64, as strace 6.1 prints them */
static void test_more_decoders(void)
{
	T(dec_rlimit_resource(&b, 3), "RLIMIT_STACK");
	T(dec_rlimit_resource(&b, 7), "RLIMIT_NOFILE");
	T(dec_rlimit_resource(&b, 99), "0x63 /* RLIMIT_??? */"); /* as strace 6.1 */
	uint64_t rl[2] = {8192 * 1024, ~0ull};
	T(dec_rlimit(&b, (const uint8_t *)rl, 16), "{rlim_cur=8192*1024, rlim_max=RLIM64_INFINITY}");
	rl[0] = 1000, rl[1] = 0;
	T(dec_rlimit(&b, (const uint8_t *)rl, 16), "{rlim_cur=1000, rlim_max=0}");
	T(dec_fadvise(&b, 2), "POSIX_FADV_SEQUENTIAL");
	T(dec_getrandom_flags(&b, 1), "GRND_NONBLOCK");
	T(dec_getrandom_flags(&b, 0), "0");
	T(dec_getrandom_flags(&b, 3), "GRND_NONBLOCK|GRND_RANDOM");
	sb_reset(&b);
	CHECK(dec_futex_op(&b, 129) == FUTEX_SHOW_WAKE);
	CHECK_STR(S(), "FUTEX_WAKE_PRIVATE");
	sb_reset(&b);
	CHECK(dec_futex_op(&b, 9 | 128 | 256) == FUTEX_SHOW_WAIT_BITSET);
	CHECK_STR(S(), "FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME");
	sb_reset(&b);
	CHECK(dec_futex_op(&b, 0) == FUTEX_SHOW_WAIT);
	CHECK_STR(S(), "FUTEX_WAIT");
	sb_reset(&b);
	CHECK(dec_futex_op(&b, 77) == FUTEX_SHOW_ALL);
	CHECK_STR(S(), "0x4d");
}

/* the command sonde started shows nothing before its execve: its own
 * calls are dropped until the execve's entry, or REC_EXEC without it */
static void test_before_exec(void)
{
	TraceOpts o = {0};
	Printer p;
	printer_init(&p, &o, stderr);
	TraceHdr h = {.type = REC_SYSCALL, .nr = 3, .tid = 50, .tgid = 50};
	CHECK(!printer_before_exec(&p, &h)); /* nothing awaited */
	p.await_exec = 50;
	CHECK(printer_before_exec(&p, &h)); /* close */
	h.type = REC_BLOCK, h.nr = 0;
	CHECK(printer_before_exec(&p, &h)); /* read of the go pipe */
	h.type = REC_SIGNAL, h.nr = SIG_DELIVERED;
	CHECK(printer_before_exec(&p, &h));
	h.type = REC_PROC_EXIT;
	CHECK(!printer_before_exec(&p, &h)); /* its end shows */
	h.tid = h.tgid = 51, h.type = REC_SYSCALL;
	CHECK(!printer_before_exec(&p, &h)); /* another process */
	h.tid = h.tgid = 50, h.type = REC_ENTER, h.nr = (uint16_t)syscall_by_name("execve");
	CHECK(!printer_before_exec(&p, &h) && !p.await_exec); /* shown, and the rest */
	h.type = REC_SYSCALL, h.nr = 3;
	CHECK(!printer_before_exec(&p, &h));
	p.await_exec = 50;
	h.type = REC_EXEC;
	CHECK(printer_before_exec(&p, &h) && !p.await_exec); /* -e without execve */
	CHECK(!printer_before_exec(&p, &h));
	printer_free(&p);
}

/* strace's attach/detach messages; a new task takes the first free slot,
 * and tasks are detached in slot order, as strace's table */
static void test_tasks(void)
{
	TraceOpts o = {0};
	Printer p;
	printer_init(&p, &o, stderr);
	p.attach_msgs = true;
	int me = getpid(), parent = getppid();
	char want[128];
	printer_attach_pids(&p, &me, 1);
	snprintf(want, sizeof(want), "sonde trace: Process %d attached\n", me);
	CHECK_STR(p.line.s, want);
	sb_reset(&p.line);
	TraceHdr h = {.type = REC_FORK, .aux = 999999999};
	printer_track_task(&p, &h);
	CHECK_STR(p.line.s, "sonde trace: Process 999999999 attached\n");
	printer_track_task(&p, &h); /* known already: no second line */
	CHECK_STR(p.line.s, "sonde trace: Process 999999999 attached\n");
	h = (TraceHdr){.type = REC_PROC_EXIT, .tid = 999999999, .tgid = 999999999};
	printer_track_task(&p, &h);
	h = (TraceHdr){.type = REC_FORK, .aux = (uint32_t)parent};
	printer_track_task(&p, &h);
	h.aux = 999999998; /* gone without an exit record: not detached */
	printer_track_task(&p, &h);
	sb_reset(&p.line);
	printer_detach_all(&p);
	snprintf(want, sizeof(want), "sonde trace: Process %d detached\nsonde trace: Process %d detached\n",
		 me, parent);
	CHECK_STR(p.line.s, want);
	CHECK(p.tasks.n == 3);
	sb_reset(&p.line);
	printer_free(&p);
}

/* record: fds named from /proc, but not those of a call that failed with
 * EBADF (the fd was closed then; /proc shows what was opened since) */
static int learned;
static void count_learned(void *ctx, uint32_t tgid, int fd, const char *path)
{
	(void)ctx, (void)tgid, (void)fd, (void)path;
	learned++;
}

static void test_learn_fds(void)
{
	TraceOpts o = {0};
	Printer p;
	printer_init(&p, &o, stderr);
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	CHECK(fd >= 0);
	TraceHdr h = {.type = REC_SYSCALL, .nr = (uint16_t)syscall_by_name("fcntl"),
		      .tid = (uint32_t)getpid(), .tgid = (uint32_t)getpid(), .ret = -EBADF,
		      .args = {(uint64_t)fd, F_DUPFD, 10}};
	printer_learn_fds(&p, &h, sizeof(h), count_learned, NULL);
	CHECK(learned == 0);
	h.ret = 11;
	printer_learn_fds(&p, &h, sizeof(h), count_learned, NULL);
	CHECK(learned == 1);
	close(fd);
	printer_free(&p);
}

/* A call from its number and raw registers (no captures), formatted. */
#define LINE(name, ret, ...) call_line(name, ret, (const uint64_t[6]){__VA_ARGS__})
static const char *call_line(const char *name, int64_t ret, const uint64_t a[6])
{
	static TraceOpts o = {.strsize = 32};
	static Printer p;
	static bool ready;
	if (!ready)
		printer_init(&p, &o, stdout), ready = true;
	TraceHdr h = {.type = REC_SYSCALL, .nr = (uint16_t)syscall_by_name(name), .ret = ret};
	memcpy(h.args, a, sizeof(h.args));
	sb_reset(&b);
	printer_format_call(&p, &b, &h, NULL);
	/* "call(...)   = ret": the padding is not what is checked here */
	char *eq = strstr(b.s, " = ");
	size_t n = eq ? (size_t)(eq - b.s) : b.len;
	while (n && b.s[n - 1] == ' ')
		n--;
	memmove(b.s + n, eq ? eq : "", eq ? strlen(eq) + 1 : 1);
	return b.s;
}

/* The register of an int argument may hold anything in its upper half
 * (strace's tests put 0xdeadbeef there): the value is its low 32 bits,
 * signed or not as the argument's type; a long, a size_t or a pointer is
 * the whole register. */
static void test_arg_widths(void)
{
	const uint64_t junk = 0xdeadbeef00000000ull;
	/* int */
	CHECK_STR(LINE("listen", 0, 3, junk | 0xffffffffu, 0), "listen(3, -1) = 0");
	CHECK_STR(LINE("add_key", -22, 0x1000, 0x2000, 0, junk | 4, junk | (uint32_t)-1234567890),
		  "add_key(0x1000, 0x2000, NULL, 16045690981097406468, -1234567890) = -1 EINVAL (Invalid argument)");
	/* unsigned int */
	CHECK_STR(LINE("alarm", 0, junk | 5, 0, 0), "alarm(5) = 0");
	CHECK_STR(LINE("alarm", 0, junk | 0xfffffffeu, 0, 0), "alarm(4294967294) = 0");
	/* long (off_t): the whole register, signed */
	CHECK_STR(LINE("lseek", -22, 3, ~0ull, SEEK_SET | junk),
		  "lseek(3, -1, SEEK_SET) = -1 EINVAL (Invalid argument)");
	CHECK_STR(LINE("lseek", 0, 3, 1ull << 32, SEEK_SET), "lseek(3, 4294967296, SEEK_SET) = 0");
	/* unsigned long (size_t) */
	CHECK_STR(LINE("munmap", 0, 0x1000, 1ull << 33, 0), "munmap(0x1000, 8589934592) = 0");
	/* pointer */
	CHECK_STR(LINE("munmap", 0, junk | 0x1000, 4096, 0), "munmap(0xdeadbeef00001000, 4096) = 0");
	/* fd */
	CHECK_STR(LINE("close", 0, junk | 3, 0, 0), "close(3) = 0");
	CHECK_STR(LINE("dup2", 0, junk | 0xffffffffu, junk | 4, 0), "dup2(-1, 4) = 0");
	/* pid, and a signal */
	CHECK_STR(LINE("kill", 0, junk | 1234, junk | SIGTERM, 0), "kill(1234, SIGTERM) = 0");
	CHECK_STR(LINE("kill", 0, junk | (uint32_t)-1234, 0, 0), "kill(-1234, 0) = 0");
	/* a command and flags */
	CHECK_STR(LINE("fcntl", 0, junk, 0xffffffff00000000ull | F_SETOWN, junk | 1234),
		  "fcntl(0, F_SETOWN, 1234) = 0");
	CHECK_STR(LINE("fcntl", 0, 3, junk | F_SETFL, junk | O_NONBLOCK),
		  "fcntl(3, F_SETFL, O_RDONLY|O_NONBLOCK) = 0");
	CHECK_STR(LINE("socket", 3, junk | AF_INET, junk | SOCK_STREAM, junk),
		  "socket(AF_INET, SOCK_STREAM, IPPROTO_IP) = 3");
}

/* flags and enums by table (decode_tables.c), and strace's comment for a
 * value no name covers; modes in octal; ids as -1 or unsigned */
static void test_arg_tables(void)
{
	CHECK_STR(LINE("epoll_create1", 3, EPOLL_CLOEXEC), "epoll_create1(EPOLL_CLOEXEC) = 3");
	CHECK_STR(LINE("clock_nanosleep", 0, CLOCK_MONOTONIC, TIMER_ABSTIME, 0, 0),
		  "clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, NULL, NULL) = 0");
	CHECK_STR(LINE("getrlimit", -22, 16, 0), "getrlimit(0x10 /* RLIMIT_??? */, NULL) = -1 EINVAL (Invalid argument)");
	CHECK_STR(LINE("dup3", -22, (uint32_t)-5, 7, 1),
		  "dup3(-5, 7, 0x1 /* O_??? */) = -1 EINVAL (Invalid argument)");
	CHECK_STR(LINE("dup3", 7, 5, 7, O_CLOEXEC | 0x1), "dup3(5, 7, O_CLOEXEC|0x1) = 7");
	CHECK_STR(LINE("pidfd_open", 3, 1234, O_NONBLOCK), "pidfd_open(1234, PIDFD_NONBLOCK) = 3");
	CHECK_STR(LINE("inotify_add_watch", 1, 3, 0x1000, IN_OPEN | IN_CLOSE_WRITE),
		  "inotify_add_watch(3, 0x1000, IN_CLOSE_WRITE|IN_OPEN) = 1");
	CHECK_STR(LINE("flock", 0, 3, LOCK_EX | LOCK_NB), "flock(3, LOCK_EX|LOCK_NB) = 0");
	CHECK_STR(LINE("fchown", 0, 3, 0xffffffffu, 0xffff0000u), "fchown(3, -1, 4294901760) = 0");
	CHECK_STR(LINE("creat", -26, 0x1000, 0177777), "creat(0x1000, 0177777) = -1 ETXTBSY (Text file busy)");
	CHECK_STR(LINE("getrandom", 0, 0, 0, 0), "getrandom(NULL, 0, 0) = 0");
	CHECK_STR(LINE("sendto", 26, 0, 0x1000, 26, MSG_DONTROUTE | MSG_NOSIGNAL),
		  "sendto(0, 0x1000, 26, MSG_DONTROUTE|MSG_NOSIGNAL, NULL, 0) = 26");
}

/* A call with one argument's capture, formatted by a printer of its own
 * (-y when fd_paths), made by process cap_tgid */
static uint32_t cap_tgid;
static const char *cap_line(Printer *p, const char *name, int64_t ret, const uint64_t a[6], int argi,
			    const void *cap, size_t caplen)
{
	uint8_t rec[sizeof(TraceHdr) + 512];
	TraceHdr h = {.type = REC_SYSCALL, .nr = (uint16_t)syscall_by_name(name), .ret = ret,
		      .tid = cap_tgid, .tgid = cap_tgid};
	memcpy(h.args, a, sizeof(h.args));
	if (cap)
		h.cap[argi] = (uint16_t)caplen;
	memcpy(rec, &h, sizeof(h));
	if (cap)
		memcpy(rec + sizeof(h), cap, caplen);
	sb_reset(&b);
	printer_format_call(p, &b, (const TraceHdr *)rec, rec + sizeof(h));
	char *eq = strstr(b.s, " = ");
	size_t n = eq ? (size_t)(eq - b.s) : b.len;
	while (n && b.s[n - 1] == ' ')
		n--;
	memmove(b.s + n, eq ? eq : "", eq ? strlen(eq) + 1 : 1);
	return b.s;
}
#define CAPLINE(p, name, ret, argi, cap, len, ...) \
	cap_line(p, name, ret, (const uint64_t[6]){__VA_ARGS__}, argi, cap, len)

static void count_snap(void *ctx, uint32_t tgid, int fd, const char *path)
{
	(void)tgid;
	if (!strcmp(path, "/dev/null"))
		((int *)ctx)[fd < 64 ? fd : 0]++;
}

/* a sleep a signal interrupts: its time left (a relative sleep's only),
 * and the call restart_syscall resumes: the thread's last call shown */
static void test_restart(void)
{
	static TraceOpts o = {.strsize = 32};
	o.sel[syscall_by_name("restart_syscall")] = o.sel[syscall_by_name("clock_nanosleep")] = true;
	FILE *null = fopen("/dev/null", "w");
	Printer p;
	printer_init(&p, &o, null);
	const struct timespec left = {59, 5};
	CHECK_STR(CAPLINE(&p, "clock_nanosleep", -516, 3, &left, 16, CLOCK_REALTIME, 0, 0x1000, 0x2000),
		  "clock_nanosleep(CLOCK_REALTIME, 0, 0x1000, {tv_sec=59, tv_nsec=5}) = ? ERESTART_RESTARTBLOCK (Interrupted by signal)");
	CHECK_STR(CAPLINE(&p, "clock_nanosleep", 0, 3, &left, 16, CLOCK_REALTIME, 0, 0x1000, 0x2000),
		  "clock_nanosleep(CLOCK_REALTIME, 0, 0x1000, 0x2000) = 0");
	CHECK_STR(CAPLINE(&p, "clock_nanosleep", -514, 3, &left, 16, CLOCK_REALTIME, TIMER_ABSTIME, 0x1000, 0x2000),
		  "clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, 0x1000, 0x2000) = ? ERESTARTNOHAND (To be restarted if no handler)");
	CHECK_STR(CAPLINE(&p, "nanosleep", -516, 1, &left, 16, 0x1000, 0x2000),
		  "nanosleep(0x1000, {tv_sec=59, tv_nsec=5}) = ? ERESTART_RESTARTBLOCK (Interrupted by signal)");
	CHECK_STR(CAPLINE(&p, "restart_syscall", 0, 0, NULL, 0, 0),
		  "restart_syscall(<... resuming interrupted system call ...>) = 0");
	TraceHdr h = {.type = REC_SYSCALL, .nr = (uint16_t)syscall_by_name("clock_nanosleep"),
		      .ret = -516, .tid = cap_tgid, .tgid = cap_tgid};
	CHECK(printer_record(&p, &h, sizeof(h)));
	CHECK_STR(CAPLINE(&p, "restart_syscall", 0, 0, NULL, 0, 0),
		  "restart_syscall(<... resuming interrupted clock_nanosleep ...>) = 0");
	printer_free(&p);
	fclose(null);
}

/* getcpu: the unsigned ints it fills ([N]), addresses when it fails */
static void test_getcpu(void)
{
	static TraceOpts o = {.strsize = 32};
	Printer p;
	printer_init(&p, &o, stdout);
	const uint32_t cpu = 3;
	CHECK_STR(CAPLINE(&p, "getcpu", 0, 0, &cpu, 4, 0x1000, 0, 0), "getcpu([3], NULL, NULL) = 0");
	CHECK_STR(CAPLINE(&p, "getcpu", -14, 0, &cpu, 4, 0x1000, 0x2000, 8),
		  "getcpu(0x1000, 0x2000, 0x8) = -1 EFAULT (Bad address)");
	printer_free(&p);
}

/* strace 6.1's rows and argument kinds for mknod, mkdir, faccessat2,
 * open_tree, fspick, mount_setattr, fsconfig, landlock, preadv2, mlock,
 * lookup_dcookie, ioperm, getgroups/setgroups; -y on fds a call returns */
static void test_more_rows(void)
{
	const uint64_t junk = 0xdeadbeef00000000ull;
	CHECK_STR(LINE("mknodat", -9, (uint32_t)-1, 0x1000, S_IFCHR | 024, 0x107),
		  "mknodat(-1, 0x1000, S_IFCHR|024, makedev(0x1, 0x7)) = -1 EBADF (Bad file descriptor)");
	CHECK_STR(LINE("mknodat", -22, (uint32_t)-1, 0x1000, junk | 0xffff, junk),
		  "mknodat(-1, 0x1000, 0177777) = -1 EINVAL (Invalid argument)");
	CHECK_STR(LINE("mknod", -22, 0x1000, S_IFIFO | 0600, 5), "mknod(0x1000, S_IFIFO|0600) = -1 EINVAL (Invalid argument)");
	CHECK_STR(LINE("mkdir", -17, 0x1000, 0xffff0000u), "mkdir(0x1000, 000) = -1 EEXIST (File exists)");
	CHECK_STR(LINE("faccessat", -22, (uint32_t)-1, 0, 8),
		  "faccessat(-1, NULL, 0x8 /* ?_OK */) = -1 EINVAL (Invalid argument)");
	CHECK_STR(LINE("faccessat2", -14, (uint32_t)-1, 0, 0, 0x200 | 0x100),
		  "faccessat2(-1, NULL, F_OK, AT_SYMLINK_NOFOLLOW|AT_EACCESS) = -1 EFAULT (Bad address)");
	CHECK_STR(LINE("open_tree", -14, (uint32_t)-1, 0, 1), "open_tree(-1, NULL, OPEN_TREE_CLONE) = -1 EFAULT (Bad address)");
	CHECK_STR(LINE("fspick", -14, (uint32_t)-1, 0, 0xffffffffu),
		  "fspick(-1, NULL, FSPICK_CLOEXEC|FSPICK_SYMLINK_NOFOLLOW|FSPICK_NO_AUTOMOUNT|FSPICK_EMPTY_PATH|0xfffffff0) = -1 EFAULT (Bad address)");
	CHECK_STR(LINE("mount_setattr", -7, (uint32_t)-1, 0, 0x100, 0x1000, 0xffffffffu),
		  "mount_setattr(-1, NULL, AT_SYMLINK_NOFOLLOW, 0x1000, 4294967295) = -1 E2BIG (Argument list too long)");
	CHECK_STR(LINE("fsconfig", -22, 3, 8, 0x1000, 0x2000, (uint32_t)-100),
		  "fsconfig(3, 0x8 /* FSCONFIG_??? */, 0x1000, 0x2000, -100) = -1 EINVAL (Invalid argument)");
	CHECK_STR(LINE("landlock_create_ruleset", 7, 0, 0, 1), "landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION) = 7");
	CHECK_STR(LINE("preadv2", -9, (uint32_t)-1, 0, 1, 2, 3, 1),
		  "preadv2(-1, NULL, 1, 2, RWF_HIPRI) = -1 EBADF (Bad file descriptor)");
	CHECK_STR(LINE("mlock", 0, 0x7000, 1024), "mlock(0x7000, 1024) = 0");
	CHECK_STR(LINE("lookup_dcookie", -38, 0, 0, 0, junk, 5, 6),
		  "lookup_dcookie(0, NULL, 0) = -1 ENOSYS (Function not implemented)");
	CHECK_STR(LINE("ioperm", -38, 0xdeafbeefffffffffull, 1, 0),
		  "ioperm(0xdeafbeefffffffff, 0x1, 0) = -1 ENOSYS (Function not implemented)");
	CHECK_STR(LINE("pwrite64", 0, 1, 0x1000, 0, 0), "pwrite64(1, \"\", 0, 0) = 0");
	CHECK_STR(LINE("pidfd_send_signal", -9, 3, SIGUSR1, 0x1000, 0),
		  "pidfd_send_signal(3, SIGUSR1, 0x1000, 0) = -1 EBADF (Bad file descriptor)");
	CHECK_STR(LINE("pwritev2", 0, 1, 0x1000, 0, 0, 0, 0), "pwritev2(1, [], 0, 0, 0) = 0");
	{
		/* si_errno unsigned when it names no errno, si_uid -1 */
		uint8_t si[128];
		int32_t v[6] = {SIGUSR1, -1, -1 /* SI_QUEUE */, 0, 42, -1};
		memset(si, 0xff, sizeof(si));
		memcpy(si, v, sizeof(v));
		T(dec_siginfo(&b, SIGUSR1, si, sizeof(si)),
		  "{si_signo=SIGUSR1, si_code=SI_QUEUE, si_errno=4294967295, si_pid=42, si_uid=-1, "
		  "si_int=-1, si_ptr=0xffffffffffffffff}");
	}

	TraceOpts o = {.strsize = 32};
	Printer p;
	printer_init(&p, &o, stdout);
	uint32_t gids[3] = {0, 0xffffffffu, 1000};
	CHECK_STR(CAPLINE(&p, "getgroups", 3, 1, gids, 12, 3, 0x1000), "getgroups(3, [0, -1, 1000]) = 3");
	CHECK_STR(CAPLINE(&p, "getgroups", 0, 1, NULL, 0, 0, 0x1000), "getgroups(0, []) = 0");
	CHECK_STR(CAPLINE(&p, "getgroups", 2, 1, NULL, 0, 0, 0), "getgroups(0, NULL) = 2");
	CHECK_STR(CAPLINE(&p, "setgroups", -1, 1, gids, 8, 2, 0x1000),
		  "setgroups(2, [0, -1]) = -1 EPERM (Operation not permitted)");
	CHECK_STR(CAPLINE(&p, "setgroups", -22, 1, NULL, 0, 0xffffffffu, 0x1000),
		  "setgroups(-1, 0x1000) = -1 EINVAL (Invalid argument)");
	printer_free(&p);

	/* -y: a returned fd named: an anonymous inode by its call, a copy
	 * by its original */
	o.fd_paths = true;
	printer_init(&p, &o, stdout);
	CHECK_STR(CAPLINE(&p, "pidfd_open", 3, 0, NULL, 0, 1234, 0), "pidfd_open(1234, 0) = 3<anon_inode:[pidfd]>");
	CHECK_STR(CAPLINE(&p, "close", 0, 0, NULL, 0, 3), "close(3<anon_inode:[pidfd]>) = 0");
	CHECK_STR(CAPLINE(&p, "inotify_init1", 4, 0, NULL, 0, 0), "inotify_init1(0) = 4<anon_inode:inotify>");
	printer_set_fd_name(&p, 0, 9, "/dev/full");
	CHECK_STR(CAPLINE(&p, "dup", 5, 0, NULL, 0, 9), "dup(9</dev/full>) = 5</dev/full>");
	CHECK_STR(CAPLINE(&p, "write", 1, 0, "x", 1, 5, 0x1000, 1), "write(5</dev/full>, 0x1000, 1) = 1");
	CHECK_STR(CAPLINE(&p, "dup3", 9, 0, NULL, 0, 5, 9, O_CLOEXEC), "dup3(5</dev/full>, 9</dev/full>, O_CLOEXEC) = 9</dev/full>");
	printer_free(&p);

	/* the fds a started command keeps across its execve, named before it runs */
	printer_init(&p, &o, stdout);
	int keep = open("/dev/null", O_RDONLY), drop = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int seen[64] = {0};
	CHECK(keep > 0 && keep < 64 && drop > 0 && drop < 64);
	printer_snapshot_fds(&p, (uint32_t)getpid(), true, count_snap, seen);
	CHECK(seen[keep] == 1 && seen[drop] == 0);
	cap_tgid = (uint32_t)getpid();
	char want[64];
	snprintf(want, sizeof(want), "close(%d</dev/null>) = 0", keep);
	CHECK_STR(CAPLINE(&p, "close", 0, 0, NULL, 0, (uint64_t)keep), want);
	cap_tgid = 0;
	close(keep);
	close(drop);
	printer_free(&p);
}

/* prctl: an option's own arguments, what the call fills in, its return */
static void test_prctl(void)
{
	const uint64_t junk = 0xdeadbeef00000000ull;
	CHECK_STR(LINE("prctl", -22, junk | 0xffffffffu, 0xfffffffe, 0xfffffffd, 0xfffffffc, 0xfffffffb),
		  "prctl(0xffffffff /* PR_??? */, 0xfffffffe, 0xfffffffd, 0xfffffffc, 0xfffffffb) = -1 EINVAL (Invalid argument)");
	CHECK_STR(LINE("prctl", 1, 23 /* PR_CAPBSET_READ */, 13), "prctl(PR_CAPBSET_READ, CAP_NET_RAW) = 1");
	CHECK_STR(LINE("prctl", -22, 4 /* PR_SET_DUMPABLE */, 0xdeadc0de00000001ull),
		  "prctl(PR_SET_DUMPABLE, 0xdeadc0de00000001 /* SUID_DUMP_??? */) = -1 EINVAL (Invalid argument)");
	CHECK_STR(LINE("prctl", 1, 3 /* PR_GET_DUMPABLE */), "prctl(PR_GET_DUMPABLE) = 1 (SUID_DUMP_USER)");
	CHECK_STR(LINE("prctl", 0, 33 /* PR_MCE_KILL */, 1, 1), "prctl(PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_EARLY, 0, 0) = 0");
	CHECK_STR(LINE("prctl", 3, 27 /* PR_GET_SECUREBITS */), "prctl(PR_GET_SECUREBITS) = 0x3 (SECBIT_NOROOT|SECBIT_NOROOT_LOCKED)");
	CHECK_STR(LINE("prctl", 0x100, 27), "prctl(PR_GET_SECUREBITS) = 0x100");
	CHECK_STR(LINE("prctl", 0, 52 /* PR_GET_SPECULATION_CTRL */, 0),
		  "prctl(PR_GET_SPECULATION_CTRL, PR_SPEC_STORE_BYPASS) = 0 (PR_SPEC_NOT_AFFECTED)");
	CHECK_STR(LINE("prctl", -22, 55 /* PR_SET_TAGGED_ADDR_CTRL */, 0xffffffffffffffffull, 1, 2, 3),
		  "prctl(PR_SET_TAGGED_ADDR_CTRL, PR_TAGGED_ADDR_ENABLE|PR_MTE_TCF_MASK|0xffff<<PR_MTE_TAG_SHIFT|0xfffffffffff80000, 0x1, 0x2, 0x3) = -1 EINVAL (Invalid argument)");
	CHECK_STR(LINE("prctl", -22, 54 /* PR_PAC_RESET_KEYS */, 0x20),
		  "prctl(PR_PAC_RESET_KEYS, 0x20 /* PR_PAC_??? */, 0, 0, 0) = -1 EINVAL (Invalid argument)");
	CHECK_STR(LINE("prctl", 0, 38 /* PR_SET_NO_NEW_PRIVS */, 1), "prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) = 0");
	CHECK_STR(LINE("prctl", -1, 0x59616d61 /* PR_SET_PTRACER */, 0xffffffffu),
		  "prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY) = -1 EPERM (Operation not permitted)");
	TraceOpts o = {.strsize = 32};
	Printer p;
	printer_init(&p, &o, stdout);
	CHECK_STR(CAPLINE(&p, "prctl", 0, 1, "123456789abcdef", 16, 15 /* PR_SET_NAME */, 0x1000),
		  "prctl(PR_SET_NAME, \"123456789abcdef\"...) = 0");
	CHECK_STR(CAPLINE(&p, "prctl", 0, 1, "f", 2, 15, 0x1ffe), "prctl(PR_SET_NAME, \"f\") = 0");
	CHECK_STR(CAPLINE(&p, "prctl", 0, 1, "sonde\0junk", 11, 16 /* PR_GET_NAME */, 0x1000),
		  "prctl(PR_GET_NAME, \"sonde\") = 0");
	CHECK_STR(CAPLINE(&p, "prctl", -14, 1, NULL, 0, 16, 0x1000), "prctl(PR_GET_NAME, 0x1000) = -1 EFAULT (Bad address)");
	int sig = SIGTERM;
	CHECK_STR(CAPLINE(&p, "prctl", 0, 1, &sig, 4, 2 /* PR_GET_PDEATHSIG */, 0x1000), "prctl(PR_GET_PDEATHSIG, [SIGTERM]) = 0");
	CHECK_STR(CAPLINE(&p, "prctl", 0, 1, NULL, 0, 2, 0x1000), "prctl(PR_GET_PDEATHSIG, 0x1000) = 0");
	int unal = 3;
	CHECK_STR(CAPLINE(&p, "prctl", 0, 1, &unal, 4, 5 /* PR_GET_UNALIGN */, 0x1000),
		  "prctl(PR_GET_UNALIGN, [PR_UNALIGN_NOPRINT|PR_UNALIGN_SIGBUS]) = 0");
	uint64_t cookie = 0xfeed;
	CHECK_STR(CAPLINE(&p, "prctl", 0, 4, &cookie, 8, 62 /* PR_SCHED_CORE */, 0, junk | 42, 1, 0x1000),
		  "prctl(PR_SCHED_CORE, PR_SCHED_CORE_GET, 42, 0x1 /* PIDTYPE_TGID */, [0xfeed]) = 0");
	struct { uint16_t len; uint64_t filter; } fprog = {12, 0x2000};
	CHECK_STR(CAPLINE(&p, "prctl", 0, 2, &fprog, 16, 22 /* PR_SET_SECCOMP */, 2, 0x1000),
		  "prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, {len=12, filter=0x2000}) = 0");
	printer_free(&p);
}

/* socket addresses as strace's print_sockaddr: fields when the length
 * holds them, else the bytes; under 2 bytes nothing (the address shows) */
static void test_sockaddr(void)
{
	struct sockaddr_in in = {.sin_family = AF_INET, .sin_port = htons(80)};
	inet_pton(AF_INET, "127.0.0.1", &in.sin_addr);
	T(dec_sockaddr(&b, (const uint8_t *)&in, sizeof(in)),
	  "{sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr(\"127.0.0.1\")}");
	T(dec_sockaddr(&b, (const uint8_t *)&in, 4), "{sa_family=AF_INET, sa_data=\"\\0P\"}");
	T(dec_sockaddr(&b, (const uint8_t *)&in, 2), "{sa_family=AF_INET}");
	sb_reset(&b);
	CHECK(!dec_sockaddr(&b, (const uint8_t *)&in, 1) && b.len == 0);
	const uint8_t un[] = {AF_UNIX, 0, 0, 'a', 'b', 0};
	T(dec_sockaddr(&b, un, sizeof(un)), "{sa_family=AF_UNIX, sun_path=@\"ab\\0\"}");
	T(dec_sockaddr(&b, un + 1, 1), "");
	const uint8_t nl[12] = {AF_NETLINK, 0, 0, 0, 42, 0, 0, 0, 1, 0, 0, 0};
	T(dec_sockaddr(&b, nl, sizeof(nl)), "{sa_family=AF_NETLINK, nl_pid=42, nl_groups=0x000001}");
}

/* netlink messages by the socket's protocol, as strace 6.1 prints them */
static void test_netlink(void)
{
	struct {
		uint32_t len;
		uint16_t type, flags;
		uint32_t seq, pid;
		uint8_t payload[8];
	} m = {16, 7 << 8 | 0, 0x1 | 0x400, 0, 0, {3, 0, 0, 0}};
	sb_reset(&b);
	CHECK(dec_netlink(&b, 12 /* NETLINK_NETFILTER */, (const uint8_t *)&m, 16, 16, 32));
	CHECK_STR(S(), "{nlmsg_len=16, nlmsg_type=NFNL_SUBSYS_ACCT<<8|NFNL_MSG_ACCT_NEW, "
		       "nlmsg_flags=NLM_F_REQUEST|NLM_F_CREATE, nlmsg_seq=0, nlmsg_pid=0}");
	m.type = 7 << 8 | 0xff, m.flags = 1;
	T(dec_netlink(&b, 12, (const uint8_t *)&m, 16, 16, 32),
	  "{nlmsg_len=16, nlmsg_type=NFNL_SUBSYS_ACCT<<8|0xff /* NFNL_MSG_ACCT_??? */, "
	  "nlmsg_flags=NLM_F_REQUEST, nlmsg_seq=0, nlmsg_pid=0}");
	m.type = 10 << 8 | 1, m.flags = 1 | 0x300;
	T(dec_netlink(&b, 12, (const uint8_t *)&m, 16, 16, 32),
	  "{nlmsg_len=16, nlmsg_type=NFNL_SUBSYS_NFTABLES<<8|NFT_MSG_GETTABLE, "
	  "nlmsg_flags=NLM_F_REQUEST|NLM_F_DUMP, nlmsg_seq=0, nlmsg_pid=0}");
	/* a generic family's payload: bytes in hex */
	m.len = 20, m.type = 0x10, m.flags = 1 | 0x300;
	T(dec_netlink(&b, 16 /* NETLINK_GENERIC */, (const uint8_t *)&m, 20, 20, 32),
	  "[{nlmsg_len=20, nlmsg_type=nlctrl, nlmsg_flags=NLM_F_REQUEST|0x300, nlmsg_seq=0, "
	  "nlmsg_pid=0}, \"\\x03\\x00\\x00\\x00\"]");
	/* shorter than a header: hex; not captured whole, or a payload strace
	 * decodes by family (route, netfilter...): not decoded here */
	T(dec_netlink(&b, 12, (const uint8_t *)&m, 4, 4, 32), "\"\\x14\\x00\\x00\\x00\"");
	sb_reset(&b);
	CHECK(!dec_netlink(&b, 12, (const uint8_t *)&m, 16, 20, 32) && b.len == 0);
	m.type = 7 << 8;
	CHECK(!dec_netlink(&b, 12, (const uint8_t *)&m, 20, 20, 32) && b.len == 0);
	/* NETLINK_ROUTE: the type's name, the family's header and attributes;
	 * a family not written yet leaves nothing */
	m.len = 16, m.type = 18 /* RTM_GETLINK */, m.flags = 1;
	T(dec_netlink(&b, 0, (const uint8_t *)&m, 16, 16, 32),
	  "{nlmsg_len=16, nlmsg_type=RTM_GETLINK, nlmsg_flags=NLM_F_REQUEST, nlmsg_seq=0, nlmsg_pid=0}");
	m.len = 20;
	sb_reset(&b);
	CHECK(!dec_netlink(&b, 0, (const uint8_t *)&m, 20, 20, 32) && b.len == 0);
	struct {
		uint32_t len;
		uint16_t type, flags;
		uint32_t seq, pid;
		uint8_t hdr[12];
		uint16_t nla_len, nla_type;
		uint8_t val[4];
	} r = {36, 74 /* RTM_GETADDRLABEL */, 1, 0, 0, {2, 0, 24, 0, 0, 0, 0, 0, 7, 0, 0, 0},
	       8, 1 /* IFAL_ADDRESS */, {10, 0, 0, 1}};
	T(dec_netlink(&b, 0, (const uint8_t *)&r, 36, 36, 32),
	  "[{nlmsg_len=36, nlmsg_type=RTM_GETADDRLABEL, nlmsg_flags=NLM_F_REQUEST, nlmsg_seq=0, "
	  "nlmsg_pid=0}, {ifal_family=AF_INET, ifal_prefixlen=24, ifal_flags=0, ifal_index=0, "
	  "ifal_seq=7}, [{nla_len=8, nla_type=IFAL_ADDRESS}, inet_addr(\"10.0.0.1\")]]");
	/* a header cut short: its family, then "..." */
	r.len = 20, r.type = 78 /* RTM_GETDCB */;
	T(dec_netlink(&b, 0, (const uint8_t *)&r, 20, 20, 32),
	  "[{nlmsg_len=20, nlmsg_type=RTM_GETDCB, nlmsg_flags=NLM_F_REQUEST, nlmsg_seq=0, "
	  "nlmsg_pid=0}, {dcb_family=AF_INET, cmd=DCB_CMD_UNDEFINED}]");
	r.len = 17;
	T(dec_netlink(&b, 0, (const uint8_t *)&r, 17, 17, 32),
	  "[{nlmsg_len=17, nlmsg_type=RTM_GETDCB, nlmsg_flags=NLM_F_REQUEST, nlmsg_seq=0, "
	  "nlmsg_pid=0}, {dcb_family=AF_INET, ...}]");
	/* an attribute strace decodes as nested tables (MDBA_ROUTER): nothing */
	r.len = 32, r.type = 86 /* RTM_GETMDB */, r.nla_type = 2;
	memcpy(r.hdr, "\7\0\0\0\0\0\0\0\10\0\2\0", 12);
	sb_reset(&b);
	CHECK(!dec_netlink(&b, 0, (const uint8_t *)&r, 32, 32, 32) && b.len == 0);
}

int main(void)
{
	test_prctl();
	test_sockaddr();
	test_netlink();
	test_more_rows();
	test_restart();
	test_getcpu();
	test_arg_widths();
	test_arg_tables();
	test_learn_fds();
	test_before_exec();
	test_tasks();
	test_more_decoders();
	T(dec_open_flags(&b, O_RDONLY | O_CLOEXEC), "O_RDONLY|O_CLOEXEC");
	T(dec_open_flags(&b, O_WRONLY | O_CREAT | O_TRUNC), "O_WRONLY|O_CREAT|O_TRUNC");
	T(dec_open_flags(&b, O_RDWR), "O_RDWR");
	T(dec_mode(&b, 0644), "0644");
	T(dec_mode(&b, S_IFREG | 0755), "S_IFREG|0755");
	T(dec_dirfd(&b, AT_FDCWD), "AT_FDCWD");
	T(dec_at_flags(&b, AT_EMPTY_PATH), "AT_EMPTY_PATH");
	T(dec_mmap_prot(&b, PROT_READ | PROT_WRITE), "PROT_READ|PROT_WRITE");
	T(dec_mmap_prot(&b, 0), "PROT_NONE");
	T(dec_mmap_flags(&b, MAP_PRIVATE | MAP_ANONYMOUS), "MAP_PRIVATE|MAP_ANONYMOUS");
	T(dec_mmap_flags(&b, MAP_PRIVATE | MAP_FIXED | MAP_DENYWRITE), "MAP_PRIVATE|MAP_FIXED|MAP_DENYWRITE");
	T(dec_clone_flags(&b, 0x01200000 | SIGCHLD), "CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD");
	T(dec_signal(&b, SIGKILL), "SIGKILL");
	T(dec_signal(&b, 99), "99");
	T(dec_sigset(&b, 0), "[]");
	T(dec_sigset(&b, (1ull << (SIGINT - 1)) | (1ull << (SIGCHLD - 1))), "[INT CHLD]");
	T(dec_sigset(&b, ~0ull), "~[]");
	T(dec_sock_family(&b, AF_INET6), "AF_INET6");
	T(dec_sock_type(&b, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK), "SOCK_STREAM|SOCK_CLOEXEC|SOCK_NONBLOCK");
	T(dec_sock_proto(&b, AF_NETLINK, 4), "NETLINK_SOCK_DIAG");
	T(dec_sock_proto(&b, AF_NETLINK, 0x11), "0x11 /* NETLINK_??? */");
	T(dec_sock_proto(&b, AF_INET6, 136), "IPPROTO_UDPLITE");
	T(dec_sock_proto(&b, AF_PACKET, 0x300), "htons(ETH_P_ALL)");
	T(dec_sock_proto(&b, AF_UNIX, 0), "0");
	T(dec_open_flags(&b, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_DIRECTORY), "O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY");
	T(dec_access_mode(&b, 0), "F_OK");
	T(dec_access_mode(&b, R_OK | W_OK), "R_OK|W_OK");
	T(dec_wait_status(&b, 7 << 8), "[{WIFEXITED(s) && WEXITSTATUS(s) == 7}]");
	T(dec_wait_status(&b, SIGKILL), "[{WIFSIGNALED(s) && WTERMSIG(s) == SIGKILL}]");
	T(dec_errno_ret(&b, -2), "-1 ENOENT (No such file or directory)");
	T(dec_errno_ret(&b, -512), "? ERESTARTSYS (To be restarted if SA_RESTART is set)");
	T(dec_fcntl_cmd(&b, F_GETFL), "F_GETFL");
	T(dec_poll_events(&b, 1 | 4), "POLLIN|POLLOUT");
	/* strings: escapes, octal (long form before a digit), truncation */
	T(dec_str(&b, (const uint8_t *)"a\"b\\\n\t", 6, 32, false), "\"a\\\"b\\\\\\n\\t\"");
	T(dec_str(&b, (const uint8_t *)"\0\0011", 3, 32, false), "\"\\0\\0011\"");
	T(dec_str(&b, (const uint8_t *)"hello world", 11, 5, false), "\"hello\"...");
	T(dec_cstr(&b, (const uint8_t *)"/etc/passwd\0junk", 16, 4096), "\"/etc/passwd\"");
	T(dec_ptr(&b, 0), "NULL");
	T(dec_ptr(&b, 0x7fff1234), "0x7fff1234");
	struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons(80)};
	inet_pton(AF_INET, "10.1.2.3", &sin.sin_addr);
	T(dec_sockaddr(&b, (const uint8_t *)&sin, sizeof(sin)),
	  "{sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr(\"10.1.2.3\")}");
	uint8_t un[20] = {AF_UNIX, 0, '/', 't', 'm', 'p', '/', 's'};
	T(dec_sockaddr(&b, un, sizeof(un)), "{sa_family=AF_UNIX, sun_path=\"/tmp/s\"}");
	struct stat st = {.st_mode = S_IFREG | 0644, .st_size = 1234};
	T(dec_stat(&b, (const uint8_t *)&st, sizeof(st)), "{st_mode=S_IFREG|0644, st_size=1234, ...}");
	/* syscall table and selection */
	CHECK(syscall_by_name("openat") == 257);
	CHECK_STR(syscall_name(0), "read");
	CHECK_STR(syscall_name(500), "syscall_0x1f4");
	bool sel[SYSCALL_MAX], seen = false;
	char err[128];
	CHECK(syscall_select("trace=openat,%network", sel, &seen, err, sizeof(err)));
	CHECK(sel[257] && sel[syscall_by_name("connect")] && !sel[0]);
	seen = false;
	CHECK(syscall_select("!read", sel, &seen, err, sizeof(err)));
	CHECK(!sel[0] && sel[1]);
	seen = false;
	CHECK(syscall_select("trace=file", sel, &seen, err, sizeof(err)));
	CHECK(sel[257] && sel[syscall_by_name("stat")] && !sel[0]);
	seen = false;
	CHECK(!syscall_select("trace=bogus", sel, &seen, err, sizeof(err)));
	CHECK_STR(err, "invalid system call 'bogus'");
	/* a whole call, formatted from a record */
	TraceOpts o = {.strsize = 32};
	Printer p;
	printer_init(&p, &o, stdout);
	uint8_t rec[sizeof(TraceHdr) + 64] = {0};
	TraceHdr *h = (TraceHdr *)rec;
	h->type = REC_SYSCALL;
	h->nr = 257;
	h->args[0] = (uint64_t)(int64_t)AT_FDCWD;
	h->args[2] = O_RDONLY | O_CLOEXEC;
	h->ret = 3;
	h->cap[1] = 12;
	memcpy(rec + sizeof(TraceHdr), "/etc/passwd", 12);
	sb_reset(&b);
	printer_format_call(&p, &b, h, rec + sizeof(TraceHdr));
	CHECK_STR(S(), "openat(AT_FDCWD, \"/etc/passwd\", O_RDONLY|O_CLOEXEC) = 3");
	h->ret = -13;
	sb_reset(&b);
	printer_format_call(&p, &b, h, rec + sizeof(TraceHdr));
	CHECK_STR(S(), "openat(AT_FDCWD, \"/etc/passwd\", O_RDONLY|O_CLOEXEC) = -1 EACCES (Permission denied)");
	/* read: the buffer is the result, cut at -s with "..." */
	memset(rec, 0, sizeof(rec));
	h->type = REC_SYSCALL;
	h->nr = 0;
	h->args[0] = 3;
	h->args[1] = 0x1000;
	h->args[2] = 4096;
	h->ret = 40;
	h->cap[1] = 33;
	memcpy(rec + sizeof(TraceHdr), "root:x:0:0:root:/root:/bin/bash\nXXXXXXXX", 33);
	sb_reset(&b);
	printer_format_call(&p, &b, h, rec + sizeof(TraceHdr));
	CHECK_STR(S(), "read(3, \"root:x:0:0:root:/root:/bin/bash\\n\"..., 4096) = 40");
	/* siginfo as strace prints it */
	{
		uint8_t si[SIGINFO_LEN] = {0};
		int32_t v[2] = {SIGCHLD, 0};
		memcpy(si, v, 4);
		v[0] = 1; /* CLD_EXITED */
		memcpy(si + 8, v, 4);
		v[0] = 1234;
		memcpy(si + 16, v, 4);
		v[0] = 7;
		memcpy(si + 24, v, 4);
		T(dec_siginfo(&b, SIGCHLD, si, sizeof(si)),
		  "{si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=1234, si_uid=0, si_status=7, "
		  "si_utime=0, si_stime=0}");
		v[0] = 2; /* CLD_KILLED */
		memcpy(si + 8, v, 4);
		v[0] = SIGSEGV;
		memcpy(si + 24, v, 4);
		T(dec_siginfo(&b, SIGCHLD, si, sizeof(si)),
		  "{si_signo=SIGCHLD, si_code=CLD_KILLED, si_pid=1234, si_uid=0, si_status=SIGSEGV, "
		  "si_utime=0, si_stime=0}");
		memset(si, 0, sizeof(si));
		v[0] = -6; /* SI_TKILL */
		memcpy(si + 8, v, 4);
		v[0] = 99;
		memcpy(si + 16, v, 4);
		T(dec_siginfo(&b, SIGUSR1, si, sizeof(si)),
		  "{si_signo=SIGUSR1, si_code=SI_TKILL, si_pid=99, si_uid=0}");
		memset(si, 0, sizeof(si));
		v[0] = 1; /* SEGV_MAPERR */
		memcpy(si + 8, v, 4);
		T(dec_siginfo(&b, SIGSEGV, si, sizeof(si)),
		  "{si_signo=SIGSEGV, si_code=SEGV_MAPERR, si_addr=NULL}");
		v[0] = 0x80;
		memcpy(si + 8, v, 4);
		T(dec_siginfo(&b, SIGALRM, si, sizeof(si)), "{si_signo=SIGALRM, si_code=SI_KERNEL}");
		T(dec_signal(&b, 34), "SIGRT_2");
		T(dec_signal(&b, 32), "SIGRTMIN");
		uint64_t ca[11] = {CLONE_VM | CLONE_SETTLS, 0, 0, 0, SIGCHLD, 0x1000, 0x2000, 0x3000};
		T(dec_clone_args(&b, (const uint8_t *)ca, 88),
		  "{flags=CLONE_VM|CLONE_SETTLS, exit_signal=SIGCHLD, stack=0x1000, "
		  "stack_size=0x2000, tls=0x3000}");
	}
	/* writev: an iovec array capture (trace.h's CAP_IOV layout) */
	{
		memset(rec, 0, sizeof(rec));
		h->type = REC_SYSCALL;
		h->nr = 20; /* writev */
		h->args[0] = 1;
		h->args[1] = 0x1000;
		h->args[2] = 3;
		h->ret = 7;
		uint8_t *d = rec + sizeof(TraceHdr);
		uint64_t base = 0x2000, len = 2;
		uint16_t n = 2;
		memcpy(d, &base, 8), memcpy(d + 8, &len, 8), memcpy(d + 16, &n, 2);
		memcpy(d + 18, "hi", 2);
		len = 5, n = 5;
		memcpy(d + 20, &base, 8), memcpy(d + 28, &len, 8), memcpy(d + 36, &n, 2);
		memcpy(d + 38, "there", 5);
		h->cap[1] = 43;
		sb_reset(&b);
		printer_format_call(&p, &b, h, d);
		/* the capture stopped at the third of 3 before IOV_CAP: it could
		 * not be read, strace shows its address */
		CHECK_STR(S(), "writev(1, [{iov_base=\"hi\", iov_len=2}, {iov_base=\"there\", "
			       "iov_len=5}, ... /* 0x1020 */], 3) = 7");
	}
	/* strace pads so "=" lands at column 40, counting any prefix */
	memset(rec, 0, sizeof(rec));
	h->type = REC_SYSCALL;
	h->nr = 3; /* close */
	h->args[0] = 3;
	sb_reset(&b);
	printer_format_call(&p, &b, h, rec + sizeof(TraceHdr));
	CHECK_STR(S(), "close(3)                                = 0");
	/* openat(AT_FDCWD, "<path>", O_RDONLY) is 30 bytes plus the path */
	h->nr = 257;
	h->args[0] = (uint64_t)(int64_t)AT_FDCWD;
	h->args[2] = O_RDONLY;
	h->ret = -2;
	h->cap[1] = 10;
	memcpy(rec + sizeof(TraceHdr), "/12345678", 10); /* 39 bytes before " = " */
	sb_reset(&b);
	printer_format_call(&p, &b, h, rec + sizeof(TraceHdr));
	CHECK_STR(S(), "openat(AT_FDCWD, \"/12345678\", O_RDONLY) = -1 ENOENT (No such file or directory)");
	h->cap[1] = 11;
	memcpy(rec + sizeof(TraceHdr), "/123456789", 11); /* 40 bytes: still one space */
	sb_reset(&b);
	printer_format_call(&p, &b, h, rec + sizeof(TraceHdr));
	CHECK_STR(S(), "openat(AT_FDCWD, \"/123456789\", O_RDONLY) = -1 ENOENT (No such file or directory)");
	h->cap[1] = 3;
	memcpy(rec + sizeof(TraceHdr), "/ab", 3); /* 33 bytes: padded */
	sb_reset(&b);
	sb_puts(&b, "earlier line\n"); /* text already in the buffer does not count */
	printer_format_call(&p, &b, h, rec + sizeof(TraceHdr));
	CHECK_STR(S(), "earlier line\nopenat(AT_FDCWD, \"/ab\", O_RDONLY)       = -1 ENOENT (No such file or directory)");
	/* the "[pid N] " prefix (more than one task traced) counts towards the
	 * 40 columns */
	o.follow = true;
	p.main_pid = 1;
	p.nprocs = 2;
	h->tid = h->tgid = 42;
	sb_reset(&b);
	printer_format_call(&p, &b, h, rec + sizeof(TraceHdr));
	CHECK_STR(S(), "[pid    42] openat(AT_FDCWD, \"/ab\", O_RDONLY) = -1 ENOENT (No such file or directory)");
	h->nr = 3;
	h->args[0] = 3;
	h->ret = 0;
	memset(h->cap, 0, sizeof(h->cap));
	sb_reset(&b);
	printer_format_call(&p, &b, h, rec + sizeof(TraceHdr));
	CHECK_STR(S(), "[pid    42] close(3)                    = 0");
	/* one task: no prefix */
	p.nprocs = 1;
	sb_reset(&b);
	printer_format_call(&p, &b, h, rec + sizeof(TraceHdr));
	CHECK_STR(S(), "close(3)                                = 0");
	/* -f -o FILE: "PID   " on every line, as strace */
	o.out_path = "file";
	sb_reset(&b);
	printer_format_call(&p, &b, h, rec + sizeof(TraceHdr));
	CHECK_STR(S(), "42    close(3)                          = 0");
	h->tid = 1234567;
	sb_reset(&b);
	printer_format_call(&p, &b, h, rec + sizeof(TraceHdr));
	CHECK_STR(S(), "1234567 close(3)                        = 0");
	o.out_path = NULL;
	o.follow = false;
	CHECK(TRACE_HDR_SIZE == 104);
	printer_free(&p);
	sb_free(&b);
	return check_done("test_trace_decode");
}
