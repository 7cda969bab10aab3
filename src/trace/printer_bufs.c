/* Strings and arrays an argument points at: data buffers (b B), argv-style
 * string vectors (V), an environment's count (v), gid_t arrays ([ ]). */
#include "printer_int.h"

#include <string.h>

#include "decode.h"
#include "fmt.h"

/* '[' and ']': a gid_t array as strace's print_array shows it: [] for none,
 * at most 32 elements, then "..." */
void put_gid_array(StrBuf *b, const Call *c, int i, uint64_t n, bool have)
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
void put_buf_arg(const Call *c, StrBuf *b, int i, int strsize, bool have)
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

/* 'V': a string vector (argv, envp); the first byte says it was cut short */
void put_strvec(StrBuf *b, const Call *c, int i, int strsize, bool have)
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

/* 'v': an environment, as strace shows it: its address and its count */
void put_envp(StrBuf *b, const Call *c, int i, bool have)
{
	dec_ptr(b, c->args[i]);
	if (!have || !c->args[i] || c->caplen[i] < 8)
		return;
	size_t n = 0, max = c->caplen[i] / 8;
	while (n < max && memcmp(c->cap[i] + 8 * n, "\0\0\0\0\0\0\0\0", 8))
		n++;
	sb_printf(b, " /* %zu%s vars */", n, n == max ? "+" : "");
}
