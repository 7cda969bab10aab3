/* One call's arguments and return value in strace's format: the decoders
 * of the signature letters, special calls (clone, fcntl, futex), the line. */
#include "printer_int.h"

#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/sched.h>

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
		if (!syscall_table[nr].name)
			continue;
		const char *n = syscall_table[nr].name;
		i->name = n;
		i->namelen = (uint16_t)strlen(n);
		i->sig = sig_of(nr);
		i->nsig = (uint8_t)strlen(i->sig);
		/* a slot past the call's arguments carries sonde's own value
		 * (rt_sigreturn's restored mask): all of it */
		i->wide = (uint8_t)((syscall_table[nr].wide | 0x3f << syscall_table[nr].nargs) & 0x3f);
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
								      : SP_NONE;
	}
	return nr_info;
}

/* an argument as the signed type it has: an int's upper half is not
 * part of it (Call.args keeps an int's low 32 bits only) */
static int64_t arg_signed(const Call *c, int i)
{
	return c->wide >> i & 1 ? (int64_t)c->args[i] : (int64_t)(int32_t)c->args[i];
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

static bool has_ret(const Call *c)
{
	return !c->entry_only;
}

static bool ok_ret(const Call *c)
{
	return has_ret(c) && c->h->ret >= 0;
}

static void put_pollfds(StrBuf *b, const Call *c, int i, bool revents)
{
	size_t n = c->caplen[i] / 8;
	uint64_t want = c->args[i + 1];
	sb_putc(b, '[');
	bool first = true;
	for (size_t k = 0; k < n && k < want; k++) {
		struct pollfd pf;
		memcpy(&pf, c->cap[i] + 8 * k, 8);
		if (revents && !pf.revents)
			continue;
		sb_printf(b, "%s{fd=%d, %s=", first ? "" : ", ", pf.fd, revents ? "revents" : "events");
		dec_poll_events(b, (uint16_t)(revents ? pf.revents : pf.events));
		sb_putc(b, '}');
		first = false;
	}
	if (n < want)
		sb_puts(b, first ? "..." : ", ...");
	sb_putc(b, ']');
}

/* CAP_IOV_* data (trace.h): [{iov_base="...", iov_len=N}, ...]; returns
 * the bytes used */
static size_t put_iov(StrBuf *b, const uint8_t *d, size_t len, uint64_t cnt, uint64_t rem,
		      size_t strsize)
{
	size_t off = 0;
	uint64_t k;
	sb_putc(b, '[');
	for (k = 0; k < cnt && off + 18 <= len; k++) {
		uint64_t base, ilen;
		uint16_t n;
		memcpy(&base, d + off, 8);
		memcpy(&ilen, d + off + 8, 8);
		memcpy(&n, d + off + 16, 2);
		if (off + 18 + n > len)
			break;
		uint64_t shown = ilen < rem ? ilen : rem;
		rem -= shown;
		if (k)
			sb_puts(b, ", ");
		sb_puts(b, "{iov_base=");
		if (!n && shown)
			dec_ptr(b, base);
		else
			dec_str(b, d + off + 18, n < shown ? n : (size_t)shown, strsize, shown > strsize);
		sb_printf(b, ", iov_len=%llu}", (unsigned long long)ilen);
		off += 18 + (size_t)n;
	}
	if (k < cnt)
		sb_puts(b, k ? ", ..." : "...");
	sb_putc(b, ']');
	return off;
}

/* CAP_MSG_*: {msg_name=..., msg_namelen=N, msg_iov=[...], msg_iovlen=N,
 * msg_controllen=N, msg_flags=...} */
static void put_msghdr(StrBuf *b, const uint8_t *d, size_t len, bool out, int64_t ret,
		       size_t strsize)
{
	static const FlagName msg_flags[] = {
		{MSG_OOB, "MSG_OOB"}, {MSG_PEEK, "MSG_PEEK"}, {MSG_DONTROUTE, "MSG_DONTROUTE"},
		{MSG_CTRUNC, "MSG_CTRUNC"}, {MSG_TRUNC, "MSG_TRUNC"}, {MSG_DONTWAIT, "MSG_DONTWAIT"},
		{MSG_EOR, "MSG_EOR"}, {MSG_WAITALL, "MSG_WAITALL"}, {MSG_ERRQUEUE, "MSG_ERRQUEUE"},
		{MSG_NOSIGNAL, "MSG_NOSIGNAL"}, {MSG_MORE, "MSG_MORE"},
		{MSG_CMSG_CLOEXEC, "MSG_CMSG_CLOEXEC"}, {0, NULL}};
	uint64_t name, iovlen, control, controllen;
	uint32_t namelen;
	int32_t flags;
	uint16_t n;
	memcpy(&name, d, 8);
	memcpy(&namelen, d + 8, 4);
	memcpy(&iovlen, d + 24, 8);
	memcpy(&control, d + 32, 8);
	memcpy(&controllen, d + 40, 8);
	memcpy(&flags, d + 48, 4);
	memcpy(&n, d + 56, 2);
	sb_puts(b, "{msg_name=");
	if (!name)
		sb_puts(b, "NULL");
	else if (!n || 58u + n > len || !dec_sockaddr(b, d + 58, n < namelen ? n : namelen))
		dec_ptr(b, name);
	sb_printf(b, ", msg_namelen=%u, msg_iov=", namelen);
	size_t off = 58u + n;
	if (off <= len)
		put_iov(b, d + off, len - off, iovlen, out ? (uint64_t)ret : UINT64_MAX, strsize);
	else
		sb_puts(b, "[...]");
	sb_printf(b, ", msg_iovlen=%llu", (unsigned long long)iovlen);
	if (controllen) {
		sb_puts(b, ", msg_control=");
		dec_ptr(b, control);
	}
	sb_printf(b, ", msg_controllen=%llu, msg_flags=", (unsigned long long)controllen);
	if (flags)
		dec_flags(b, msg_flags, (uint32_t)flags);
	else
		sb_putc(b, '0');
	sb_putc(b, '}');
}

/* open's mode (and mq_open's attr) without O_CREAT are left out, mknod's
 * dev but for devices, and the registers strace does not show ('_') */
static bool arg_omitted(const Call *c, int i)
{
	char k = c->sig[i];
	if (k == '_')
		return true;
	if (k == '0') {
		uint64_t type = c->args[i - 1] & S_IFMT;
		return type != S_IFCHR && type != S_IFBLK;
	}
	if (k == '!')
		return i < 2 || !(c->args[i - 2] & O_CREAT);
	return k == 'M' && i > 0 && c->sig[i - 1] == 'O' &&
	       !(c->args[i - 1] & O_CREAT) && (c->args[i - 1] & O_TMPFILE) != O_TMPFILE;
}

/* '[' and ']': a gid_t array as strace's print_array shows it: [] for none,
 * at most 32 elements, then "..." */
static void put_gid_array(StrBuf *b, const Call *c, int i, uint64_t n, bool have)
{
	uint64_t v = c->args[i];
	if (!v) {
		sb_puts(b, "NULL");
		return;
	}
	if (n > 65536) { /* strace: more than NGROUPS_MAX */
		dec_ptr(b, v);
		return;
	}
	if (!n) {
		sb_puts(b, "[]");
		return;
	}
	if (!have || c->caplen[i] < 4) {
		dec_ptr(b, v);
		return;
	}
	size_t got = c->caplen[i] / 4;
	sb_putc(b, '[');
	for (uint64_t k = 0; k < n; k++) {
		if (k)
			sb_puts(b, ", ");
		if (k == 32) {
			sb_puts(b, "...");
			break;
		}
		if (k >= got) {
			sb_printf(b, "... /* %#llx */", (unsigned long long)(v + 4 * k));
			break;
		}
		uint32_t g;
		memcpy(&g, c->cap[i] + 4 * k, 4);
		if (g == 0xffffffffu)
			sb_puts(b, "-1");
		else
			fb_u64(b, g);
	}
	sb_putc(b, ']');
}

/* 'b': a buffer the call reads, 'B': a buffer it fills (the result says how much) */
static void put_buf_arg(const Call *c, StrBuf *b, int i, int strsize, bool have)
{
	const TraceHdr *h = c->h;
	uint64_t v = c->args[i];
	if (c->sig[i] == 'b') {
		uint64_t count = c->args[i + 1];
		if (!count && v)
			sb_puts(b, "\"\"");
		else if (have)
			dec_str(b, c->cap[i], c->caplen[i] < count ? c->caplen[i] : count,
				(size_t)strsize, count > (uint64_t)strsize);
		else
			dec_ptr(b, v);
		return;
	}
	if (!v) {
		sb_puts(b, "NULL");
		return;
	}
	if (ok_ret(c) && (have || h->ret == 0)) {
		/* no more than the buffer holds (recvfrom with MSG_TRUNC) */
		size_t n = (uint64_t)h->ret < c->args[i + 1] ? (size_t)h->ret : (size_t)c->args[i + 1];
		dec_str(b, c->cap[i], c->caplen[i] < n ? c->caplen[i] : n, (size_t)strsize,
			n > (size_t)strsize);
	} else
		dec_ptr(b, v);
}

/* structs the call fills in: S K G J W Z */
static void put_out_struct(StrBuf *b, const Call *c, int i, bool have)
{
	const TraceHdr *h = c->h;
	uint64_t v = c->args[i];
	char k = c->sig[i];
	if (!v) {
		sb_puts(b, "NULL");
		return;
	}
	if (!ok_ret(c) || !have) {
		dec_ptr(b, v);
		return;
	}
	if (k == 'S')
		dec_stat(b, c->cap[i], c->caplen[i]);
	else if (k == 'K')
		dec_sigaction(b, c->cap[i], c->caplen[i]);
	else if (k == 'G') {
		uint64_t m = 0;
		memcpy(&m, c->cap[i], c->caplen[i] < 8 ? c->caplen[i] : 8);
		dec_sigset(b, m);
	} else if (k == '3')
		dec_rlimit(b, c->cap[i], c->caplen[i]);
	else if (k == 'W') {
		int st = 0;
		memcpy(&st, c->cap[i], c->caplen[i] < 4 ? c->caplen[i] : 4);
		if (h->ret == 0)
			dec_ptr(b, v);
		else
			dec_wait_status(b, st);
	} else {
		int fds[2] = {0, 0};
		memcpy(fds, c->cap[i], c->caplen[i] < 8 ? c->caplen[i] : 8);
		sb_printf(b, "[%d, %d]", fds[0], fds[1]);
	}
}

/* J and #: a sockaddr the call fills and its length, which says at entry
 * how much room there is and at exit how much the address took (strace's
 * decode_sockname): both known only if the length could be read at entry
 * and the call succeeded */
typedef struct SockLen {
	bool in, out;
	int32_t ulen, rlen;
} SockLen;

static SockLen sock_len(const Call *c, int lenarg)
{
	SockLen s = {false, false, 0, 0};
	int j = c->entry_slot;
	if (lenarg < 1 || !c->args[lenarg - 1] || !c->args[lenarg] || j < 0 || !c->capok[j] ||
	    c->caplen[j] < 4)
		return s;
	s.in = true;
	memcpy(&s.ulen, c->cap[j], 4);
	if (ok_ret(c) && c->capok[lenarg] && c->caplen[lenarg] >= 4) {
		s.out = true;
		memcpy(&s.rlen, c->cap[lenarg], 4);
	}
	return s;
}

static void put_sockname(StrBuf *b, const Call *c, int i)
{
	SockLen s = sock_len(c, i + 1);
	int32_t len = s.ulen > s.rlen ? s.rlen : s.ulen;
	if (!s.out || len < 2 || (size_t)(len < 128 ? len : 128) > c->caplen[i] || !c->capok[i] ||
	    !dec_sockaddr(b, c->cap[i], (size_t)len))
		dec_ptr(b, c->args[i]);
}

static void put_socklen(StrBuf *b, const Call *c, int i)
{
	SockLen s = sock_len(c, i);
	if (!s.in) {
		dec_ptr(b, c->args[i]);
		return;
	}
	fb_putc(b, '[');
	if (!s.out || s.ulen != s.rlen)
		fb_i64(b, s.ulen);
	if (s.out && s.ulen != s.rlen)
		fb_lit(b, " => ");
	if (s.out)
		fb_i64(b, s.rlen);
	fb_putc(b, ']');
}

/* structs the call reads: t k g I e Q X Y */
static void put_in_struct(StrBuf *b, const Call *c, int i, bool have)
{
	uint64_t v = c->args[i];
	char k = c->sig[i];
	if (!v) {
		sb_puts(b, "NULL");
		return;
	}
	if (!have) {
		dec_ptr(b, v);
		return;
	}
	if (k == 't')
		dec_timespec(b, c->cap[i], c->caplen[i]);
	else if (k == '2')
		dec_rlimit(b, c->cap[i], c->caplen[i]);
	else if (k == 'k')
		dec_sigaction(b, c->cap[i], c->caplen[i]);
	else if (k == 'g') {
		uint64_t m = 0;
		memcpy(&m, c->cap[i], c->caplen[i] < 8 ? c->caplen[i] : 8);
		dec_sigset(b, m);
	} else if (k == 'I') {
		if (!dec_sockaddr(b, c->cap[i], c->caplen[i]))
			dec_ptr(b, v);
	} else if (k == 'Q')
		put_pollfds(b, c, i, false);
	else if (k == 'X') {
		int32_t signo = 0;
		memcpy(&signo, c->cap[i], c->caplen[i] < 4 ? c->caplen[i] : 4);
		dec_siginfo(b, signo, c->cap[i], c->caplen[i]);
	} else if (k == 'Y')
		dec_clone_args(b, c->cap[i], c->caplen[i]);
	else {
		struct epoll_event ev;
		memset(&ev, 0, sizeof(ev));
		memcpy(&ev, c->cap[i], c->caplen[i] < sizeof(ev) ? c->caplen[i] : sizeof(ev));
		sb_puts(b, "{events=");
		dec_epoll_events(b, ev.events);
		sb_printf(b, ", data=%#llx}", (unsigned long long)ev.data.u64);
	}
}

/* iovecs (L in, U out) and msghdrs (H in, N out) */
static void put_vec_arg(StrBuf *b, const Call *c, int i, int strsize, bool have)
{
	const TraceHdr *h = c->h;
	uint64_t v = c->args[i];
	char k = c->sig[i];
	bool out = k == 'U' || k == 'N';
	if (!v) {
		sb_puts(b, "NULL");
		return;
	}
	if ((k == 'L' || k == 'U') && !c->args[i + 1]) { /* no iovec: strace's [] */
		sb_puts(b, "[]");
		return;
	}
	if (!have || (out && !ok_ret(c)) || ((k == 'H' || k == 'N') && c->caplen[i] < 58)) {
		dec_ptr(b, v);
		return;
	}
	if (k == 'L' || k == 'U')
		put_iov(b, c->cap[i], c->caplen[i], c->args[i + 1],
			out ? (uint64_t)h->ret : UINT64_MAX, (size_t)strsize);
	else
		put_msghdr(b, c->cap[i], c->caplen[i], out, h->ret, (size_t)strsize);
}

/* 'V': a string vector (argv, envp); the first byte says it was cut short */
static void put_strvec(StrBuf *b, const Call *c, int i, int strsize, bool have)
{
	if (!have || !c->caplen[i]) {
		dec_ptr(b, c->args[i]);
		return;
	}
	const uint8_t *d = c->cap[i] + 1, *end = c->cap[i] + c->caplen[i];
	sb_putc(b, '[');
	for (bool first = true; d < end; first = false) {
		const uint8_t *z = memchr(d, 0, (size_t)(end - d));
		size_t n = z ? (size_t)(z - d) : (size_t)(end - d);
		if (!first)
			sb_puts(b, ", ");
		dec_str(b, d, n, (size_t)strsize, !z);
		d += n + 1;
	}
	if (c->cap[i][0])
		sb_puts(b, ", ...");
	sb_putc(b, ']');
}

/* futex(uaddr, op, val[, ...]): the rest as the op uses it */
static void put_futex_args(StrBuf *b, const Call *c)
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

/* 'v': an environment, as strace shows it: its address and its count */
static void put_envp(StrBuf *b, const Call *c, int i, bool have)
{
	dec_ptr(b, c->args[i]);
	if (!have || !c->args[i] || c->caplen[i] < 8)
		return;
	size_t n = 0, max = c->caplen[i] / 8;
	while (n < max && memcmp(c->cap[i] + 8 * n, "\0\0\0\0\0\0\0\0", 8))
		n++;
	sb_printf(b, " /* %zu%s vars */", n, n == max ? "+" : "");
}

/* 'y': socket protocol, named for the IP families */
static void put_sock_proto(StrBuf *b, const Call *c, uint64_t v)
{
	if ((c->args[0] == AF_INET || c->args[0] == AF_INET6) && v <= 17 &&
	    (v == 0 || v == 1 || v == 6 || v == 17))
		sb_puts(b, v == 0 ? "IPPROTO_IP" : v == 1 ? "IPPROTO_ICMP" : v == 6 ? "IPPROTO_TCP" : "IPPROTO_UDP");
	else
		fb_i64(b, (int32_t)v);
}

/* kinds decoded from the value alone; false if k is not one of them */
static bool put_flag_arg(StrBuf *b, char k, uint64_t v)
{
	switch (k) {
	case 'O': dec_open_flags(b, v); break;
	case 'j': dec_fd_flags(b, v); break;
	case 'M': /* a umode_t: 16 bits */
		sb_printf(b, "%#03llo", (unsigned long long)(v & 0xffff));
		break;
	case '0': sb_printf(b, "makedev(%#x, %#x)", major((dev_t)(uint32_t)v), minor((dev_t)(uint32_t)v)); break;
	case '8': dec_mode(b, v & 0xffff); break; /* an unsigned short to strace */
	case '7': /* uid_t, gid_t: -1 (no change) or unsigned */
		if ((uint32_t)v == 0xffffffffu)
			sb_puts(b, "-1");
		else
			fb_u64(b, (uint32_t)v);
		break;
	case 'a': dec_at_flags(b, v); break;
	case 'z': dec_access_mode(b, v); break;
	case 'P': dec_mmap_prot(b, v); break;
	case 'm': dec_mmap_flags(b, v); break;
	case 'n': dec_signal(b, (int)v); break;
	case 'w': dec_sigprocmask_how(b, v); break;
	case 'D': dec_sock_family(b, v); break;
	case 'T': dec_sock_type(b, v); break;
	case 'C': dec_clone_flags(b, v); break;
	case 'F': dec_fcntl_cmd(b, v); break;
	case 'i': dec_ioctl_req(b, v); break;
	case 'o': dec_wait_options(b, v); break;
	case 'E': dec_epoll_op(b, v); break;
	case 'c': dec_clockid(b, v); break;
	case 'l': dec_whence(b, v); break;
	case 'q': dec_arch_prctl(b, v); break;
	case 'r': dec_rlimit_resource(b, v); break;
	case '4': dec_fadvise(b, v); break;
	case '5': dec_getrandom_flags(b, v); break;
	case '6':
		sb_puts(b, "{mask=");
		dec_sigset(b, v);
		sb_putc(b, '}');
		break;
	default: return false;
	}
	return true;
}

static bool put_arg(Printer *p, StrBuf *b, const Call *c, int i)
{
	const TraceHdr *h = c->h;
	uint64_t v = c->args[i];
	char k = c->sig[i];
	int strsize = p->o->strsize;
	bool have = c->capok[i] && c->cap[i];
	if (c->tab && c->tab[i]) {
		dec_table(b, c->tab[i], v);
		return true;
	}
	if (k == 'b' && c->special == SP_SENDTO && v) {
		int proto = fd_netlink_proto(p, h->tgid, (int)c->args[0]);
		if (proto >= 0 && dec_netlink(b, proto, have ? c->cap[i] : (const uint8_t *)"",
					      c->caplen[i], c->args[i + 1], (size_t)strsize))
			return true;
	}
	if (put_flag_arg(b, k, v))
		return true;
	switch (k) {
	case 'd': fb_i64(b, arg_signed(c, i)); break;
	case 'u': fb_u64(b, v); break;
	case 'x': case 'h': fb_hex(b, v); break;
	case 'f': put_fd(p, b, h->tgid, (int32_t)v); break;
	case 'A':
		if ((int)v == AT_FDCWD)
			put_dirfd_cwd(p, b, h->tgid);
		else
			put_fd(p, b, h->tgid, (int32_t)v);
		break;
	case 's':
		if (have)
			dec_cstr(b, c->cap[i], c->caplen[i], 4096);
		else
			dec_ptr(b, v);
		break;
	case 'b': case 'B': put_buf_arg(c, b, i, strsize, have); break;
	case '9':
		if (ok_ret(c) && have)
			dec_cstr(b, c->cap[i], c->caplen[i] < (size_t)h->ret ? c->caplen[i] : (size_t)h->ret,
				 4096);
		else
			dec_ptr(b, v);
		break;
	case 'J': put_sockname(b, c, i); break;
	case '#': put_socklen(b, c, i); break;
	case 'S': case 'K': case 'G': case 'W': case 'Z': case '3':
		put_out_struct(b, c, i, have);
		break;
	case 't': case 'k': case 'g': case 'I': case 'e': case 'Q': case 'X': case 'Y': case '2':
		put_in_struct(b, c, i, have);
		break;
	case 'L': case 'U': case 'H': case 'N': put_vec_arg(b, c, i, strsize, have); break;
	case 'y': put_sock_proto(b, c, v); break;
	case '[': put_gid_array(b, c, i, (uint32_t)c->args[0] > 65536 ? UINT64_MAX : c->args[0], have); break;
	case ']':
		if (ok_ret(c))
			put_gid_array(b, c, i, (uint64_t)h->ret, have);
		else
			dec_ptr(b, v);
		break;
	case 'V': put_strvec(b, c, i, strsize, have); break;
	case 'v': put_envp(b, c, i, have); break;
	default: dec_ptr(b, v); break;
	}
	return true;
}

/* what a call decoder (calldec.h) sees of the call */
static void call_view(const Printer *p, const Call *c, CallView *v)
{
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
	const TraceHdr *h = c->h;
	if (c->dec) {
		/* an interrupted call shows it all in its first half */
		CallView v;
		call_view(p, c, &v);
		if (c->part != CALL_TAIL)
			c->dec->args(b, &v);
		return;
	}
	if (c->special == SP_CLONE) {
		/* strace's clone: child_stack, flags, tid pointers as used */
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
		return;
	}
	if (c->special == SP_FUTEX) {
		put_futex_args(b, c);
		return;
	}
	if (c->special == SP_FCNTL) {
		put_fd(p, b, h->tgid, (int32_t)c->args[0]);
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
		call_view(p, c, &v);
		if (c->dec->ret(b, &v))
			return;
	}
	fb_i64(b, h->ret);
	if (c->special == SP_NONE && !c->retfd)
		return;
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
