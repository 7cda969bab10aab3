/* sonde trace decoders: strace's spelling of flags, strings, structures,
 * and the -e selection language.  No root needed. */
#include <fcntl.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>

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

int main(void)
{
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
	CHECK(TRACE_HDR_SIZE == 104);
	printer_free(&p);
	sb_free(&b);
	return check_done("test_trace_decode");
}
