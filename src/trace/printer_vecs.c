/* iovecs and msghdrs as strace prints them: [{iov_base="...", iov_len=N}, ...]
 * and {msg_name=..., msg_iov=[...], ...} (the letters L U H N). */
#include "printer_int.h"

#include <string.h>
#include <sys/socket.h>

#include "decode.h"
#include "fmt.h"

/* CAP_IOV_* data (trace.h): [{iov_base="...", iov_len=N}, ...]; returns
 * the bytes used. At most strsize elements, as strace's arrays (-s).
 * addr is the array's: the capture stops before IOV_CAP
 * elements only where an element could not be read, which strace shows
 * as that element's address (the array's alone when it is the first). */
static size_t put_iov(StrBuf *b, const uint8_t *d, size_t len, uint64_t cnt, uint64_t rem,
		      size_t strsize, uint64_t addr)
{
	size_t off = 0;
	uint64_t k;
	if (cnt && len < 18) {
		dec_ptr(b, addr);
		return 0;
	}
	sb_putc(b, '[');
	for (k = 0; k < cnt && k < strsize && off + 18 <= len; k++) {
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
	/* strace reads the element before it checks -s's limit */
	if (k < cnt && k < IOV_CAP && off + 18 > len)
		sb_printf(b, " /* %#llx */", (unsigned long long)(addr + 16 * k));
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
	uint64_t name, iov, iovlen, control, controllen;
	uint32_t namelen;
	int32_t flags;
	uint16_t n;
	memcpy(&name, d, 8);
	memcpy(&namelen, d + 8, 4);
	memcpy(&iov, d + 16, 8);
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
		put_iov(b, d + off, len - off, iovlen, out ? (uint64_t)ret : UINT64_MAX, strsize, iov);
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

/* iovecs (L in, U out) and msghdrs (H in, N out) */
void put_vec_arg(StrBuf *b, const Call *c, int i, int strsize, bool have)
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
			out ? (uint64_t)h->ret : UINT64_MAX, (size_t)strsize, v);
	else
		put_msghdr(b, c->cap[i], c->caplen[i], out, h->ret, (size_t)strsize);
}
