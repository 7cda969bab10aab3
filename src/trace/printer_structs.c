/* Structures an argument points at, the call's input or what it fills in
 * (stat, sigaction, sigset, rlimit, wait status, pipe fds, timespec, pollfds,
 * epoll_event, siginfo, clone_args), and a sockaddr with its in/out length. */
#include "printer_int.h"

#include <poll.h>
#include <string.h>
#include <sys/epoll.h>

#include "decode.h"
#include "fmt.h"

void put_pollfds(StrBuf *b, const Call *c, int i, bool revents)
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

/* structs the call fills in: S K G J W Z */
void put_out_struct(StrBuf *b, const Call *c, int i, bool have)
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

void put_sockname(StrBuf *b, const Call *c, int i)
{
	SockLen s = sock_len(c, i + 1);
	int32_t len = s.ulen > s.rlen ? s.rlen : s.ulen;
	if (!s.out || len < 2 || (size_t)(len < 128 ? len : 128) > c->caplen[i] || !c->capok[i] ||
	    !dec_sockaddr(b, c->cap[i], (size_t)len))
		dec_ptr(b, c->args[i]);
}

void put_socklen(StrBuf *b, const Call *c, int i)
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
void put_in_struct(StrBuf *b, const Call *c, int i, bool have)
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

/* '1': the time left of a sleep a signal interrupted; otherwise the kernel
 * did not write it, and strace shows its address (clock_nanosleep writes it
 * for a relative sleep only: its flags, two arguments before, are 0) */
void put_time_left(StrBuf *b, const Call *c, int i, bool have)
{
	uint64_t v = c->args[i];
	bool relative = i < 2 || c->args[i - 2] == 0;
	if (v && have && relative && interrupted(c))
		dec_timespec(b, c->cap[i], c->caplen[i]);
	else if (v)
		dec_ptr(b, v);
	else
		sb_puts(b, "NULL");
}

/* '+': an unsigned int the call fills, as strace's printnum_int: [N], its
 * address when the call failed or it could not be read */
void put_uint_out(StrBuf *b, const Call *c, int i, bool have)
{
	uint64_t v = c->args[i];
	uint32_t n;
	if (!v) {
		sb_puts(b, "NULL");
	} else if (ok_ret(c) && have && c->caplen[i] >= 4) {
		memcpy(&n, c->cap[i], 4);
		sb_printf(b, "[%u]", n);
	} else {
		dec_ptr(b, v);
	}
}
