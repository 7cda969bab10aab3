/* '%': the directory entries getdents and getdents64 fill, as strace shows
 * them by default: the buffer's address and a count, "0x... / * 3 entries * /".
 * Both layouts keep d_reclen at byte 16 (after d_ino and d_off), so one walk
 * counts either. The capture holds the first bytes of the ret the call
 * returned: when it ends before them, the count is "N+", as strace's when
 * it cannot read the rest. */
#include "printer_int.h"

#include <string.h>

#include "decode.h"

enum { DIRENT_RECLEN_AT = 16, DIRENT_HEADER = 18 };

/* entries in the first len bytes; *cut: the walk stopped short of them */
static unsigned count_dirents(const uint8_t *d, size_t len, bool *cut)
{
	unsigned n = 0;
	size_t at = 0;
	while (len - at >= DIRENT_HEADER) {
		uint16_t reclen;
		memcpy(&reclen, d + at + DIRENT_RECLEN_AT, sizeof(reclen));
		n++;
		if (reclen < DIRENT_HEADER || reclen >= len - at) {
			at = reclen >= len - at ? len : at + DIRENT_HEADER;
			break;
		}
		at += reclen;
	}
	*cut = at < len;
	return n;
}

void put_dirents(StrBuf *b, const Call *c, int i, bool have)
{
	int64_t ret = c->h->ret;
	dec_ptr(b, c->args[i]);
	/* strace: only for a success no larger than the count asked for */
	if (!ok_ret(c) || (uint64_t)ret > (uint32_t)c->args[i + 1])
		return;
	size_t len = have ? c->caplen[i] : 0;
	if ((uint64_t)ret < len)
		len = (size_t)ret;
	bool cut = false;
	unsigned n = len ? count_dirents(c->cap[i], len, &cut) : 0;
	sb_printf(b, " /* %u%s entries */", n, cut || len < (uint64_t)ret ? "+" : "");
}
