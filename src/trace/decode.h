/* Argument decoders: strace's spelling of flags, constants, strings and
 * structures.  Each appends to a StrBuf; none needs root (unit-tested). */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../util/util.h"

typedef struct FlagName {
	uint64_t val;
	const char *name;
} FlagName;
/* table entries: a constant under its own name; the end */
#define N(x) {x, #x}
#define END {0, NULL}

/* "A|B|0x40"; "0" when v is 0 and no table entry is 0 */
void dec_flags(StrBuf *b, const FlagName *t, uint64_t v);
/* an exact value's name, else the number in decimal (or hex if hex) */
void dec_enum(StrBuf *b, const FlagName *t, uint64_t v, bool hex);

/* A C string as strace writes it: quoted, escaped (\n \t \" \\ and octal for
 * the rest); at most max bytes of data[0..len), then "..." after the quote
 * when the string was longer (total > max, or !nul_seen for paths). */
void dec_str(StrBuf *b, const uint8_t *data, size_t len, size_t max, bool truncated);
/* a NUL-terminated capture (path): stops at the NUL */
void dec_cstr(StrBuf *b, const uint8_t *data, size_t len, size_t max);
/* bytes as strace's QUOTE_FORCE_HEX prints them ("\x01\x00"), at most
 * max of them, then "..." when there were more (or more is set) */
void dec_hex_str(StrBuf *b, const uint8_t *d, size_t n, size_t max, bool more);

void dec_ptr(StrBuf *b, uint64_t p);              /* NULL or 0x... */
void dec_open_flags(StrBuf *b, uint64_t v);       /* O_RDONLY|O_CLOEXEC */
void dec_fd_flags(StrBuf *b, uint64_t v);         /* O_CLOEXEC|O_NONBLOCK, or 0 */
void dec_mode(StrBuf *b, uint64_t v);             /* 0644, S_IFREG|0644 */
void dec_dirfd(StrBuf *b, int64_t fd);            /* AT_FDCWD or the number */
void dec_at_flags(StrBuf *b, uint64_t v);
void dec_mmap_prot(StrBuf *b, uint64_t v);
void dec_mmap_flags(StrBuf *b, uint64_t v);
void dec_access_mode(StrBuf *b, uint64_t v);      /* F_OK, R_OK|W_OK */
void dec_clone_flags(StrBuf *b, uint64_t v);      /* CLONE_VM|...|SIGCHLD */
const char *dec_signame(int sig);                 /* "SIGCHLD", NULL if unknown */
void dec_signal(StrBuf *b, int64_t sig);          /* SIGCHLD or the number */
void dec_sigset(StrBuf *b, uint64_t mask);        /* [CHLD INT], ~[RTMIN RT_1] */
void dec_sigprocmask_how(StrBuf *b, uint64_t v);
void dec_sa_flags(StrBuf *b, uint64_t v);
/* struct sigaction as the kernel takes it: handler, flags, restorer, mask */
void dec_sigaction(StrBuf *b, const uint8_t *d, size_t len);
void dec_sock_family(StrBuf *b, uint64_t v);
void dec_sock_type(StrBuf *b, uint64_t v);        /* SOCK_STREAM|SOCK_CLOEXEC */
/* socket's protocol by its family: IPPROTO_TCP, NETLINK_ROUTE, htons(ETH_P_ALL) */
void dec_sock_proto(StrBuf *b, uint64_t family, uint64_t proto);
/* a sockaddr of len bytes (at most 128 read) as strace's print_sockaddr;
 * false (nothing written) when len < 2: strace shows its address */
bool dec_sockaddr(StrBuf *b, const uint8_t *d, size_t len);
void dec_fcntl_cmd(StrBuf *b, uint64_t v);
void dec_ioctl_req(StrBuf *b, uint64_t v);
void dec_wait_status(StrBuf *b, int status);      /* [{WIFEXITED(s) && WEXITSTATUS(s) == 0}] */
void dec_wait_options(StrBuf *b, uint64_t v);
void dec_poll_events(StrBuf *b, uint64_t v);
void dec_epoll_events(StrBuf *b, uint64_t v);
void dec_epoll_op(StrBuf *b, uint64_t v);
void dec_whence(StrBuf *b, uint64_t v);
void dec_fadvise(StrBuf *b, uint64_t v);          /* POSIX_FADV_SEQUENTIAL */
void dec_getrandom_flags(StrBuf *b, uint64_t v);  /* GRND_NONBLOCK */
void dec_rlimit_resource(StrBuf *b, uint64_t v);  /* RLIMIT_STACK */
/* struct rlimit64: {rlim_cur=8192*1024, rlim_max=RLIM64_INFINITY} */
void dec_rlimit(StrBuf *b, const uint8_t *d, size_t n);
/* futex's op: FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME; returns which
 * arguments strace shows for it after (uaddr, op, val) */
enum {
	FUTEX_SHOW_WAKE,        /* nothing more */
	FUTEX_SHOW_WAIT,        /* timeout */
	FUTEX_SHOW_WAIT_BITSET, /* timeout, val3 (the bitset) */
	FUTEX_SHOW_WAKE_BITSET, /* val3 */
	FUTEX_SHOW_REQUEUE,     /* val2, uaddr2 */
	FUTEX_SHOW_ALL,         /* val2/timeout as a number, uaddr2, val3 */
};
int dec_futex_op(StrBuf *b, uint64_t v);
void dec_clockid(StrBuf *b, uint64_t v);
void dec_arch_prctl(StrBuf *b, uint64_t v);
/* struct stat, abbreviated as strace: {st_mode=S_IFREG|0644, st_size=1234, ...} */
void dec_stat(StrBuf *b, const uint8_t *d, size_t len);
void dec_timespec(StrBuf *b, const uint8_t *d, size_t len);
/* "-1 ENOENT (No such file or directory)" for a negative errno return */
void dec_errno_ret(StrBuf *b, int64_t ret);
const char *dec_errno_name(int e);
/* struct kernel_siginfo (SIGINFO_LEN bytes) as strace prints it:
 * {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=1234, ...}; len < SIGINFO_LEN:
 * only si_signo */
#define SIGINFO_LEN 48
void dec_siginfo(StrBuf *b, int sig, const uint8_t *si, size_t len);
/* a buffer sent on a netlink socket of protocol proto (len bytes, caplen
 * captured) as strace shows it: [{nlmsg_len=..., nlmsg_type=..., ...},
 * payload]; false (nothing written) when it cannot be shown as strace does */
bool dec_netlink(StrBuf *b, int proto, const uint8_t *d, size_t caplen, uint64_t len, size_t strsize);
/* NETLINK_ROUTE (decode_netlink_route.c): a message type (RTM_GETLINK), and
 * a message's payload: its family's header and attributes; false when
 * strace decodes it in a way not written here yet (b then holds a part) */
void dec_rtnl_type(StrBuf *b, int type);
bool dec_rtnl_payload(StrBuf *b, int type, const uint8_t *d, size_t len, size_t strsize);
/* struct clone_args (clone3): {flags=CLONE_VM|..., exit_signal=SIGCHLD, stack=NULL, ...} */
void dec_clone_args(StrBuf *b, const uint8_t *d, size_t len);
