/* prlimit64/getrlimit/setrlimit: resource names and struct rlimit64, as
 * strace prints them ({rlim_cur=8192*1024, rlim_max=RLIM64_INFINITY}). */
#include "decode.h"
#include "decode_tables.h"
#include "fmt.h"

#include <string.h>
#include <sys/resource.h>

void dec_rlimit_resource(StrBuf *b, uint64_t v)
{
	static const FlagName t[] = {
		N(RLIMIT_CPU), N(RLIMIT_FSIZE), N(RLIMIT_DATA), N(RLIMIT_STACK), N(RLIMIT_CORE),
		N(RLIMIT_RSS), N(RLIMIT_NPROC), N(RLIMIT_NOFILE), N(RLIMIT_MEMLOCK), N(RLIMIT_AS),
		N(RLIMIT_LOCKS), N(RLIMIT_SIGPENDING), N(RLIMIT_MSGQUEUE), N(RLIMIT_NICE),
		N(RLIMIT_RTPRIO), N(RLIMIT_RTTIME), END};
	dec_enum_unknown(b, t, v, "RLIMIT_???");
}

/* a limit: RLIM64_INFINITY, N*1024 when a multiple of 1024, else N */
static void rlim_value(StrBuf *b, uint64_t v)
{
	if (v == ~0ull)
		sb_puts(b, "RLIM64_INFINITY");
	else if (v && v % 1024 == 0)
		sb_printf(b, "%llu*1024", (unsigned long long)(v / 1024));
	else
		fb_u64(b, v);
}

void dec_rlimit(StrBuf *b, const uint8_t *d, size_t n)
{
	uint64_t cur, max;
	if (n < 16) {
		sb_puts(b, "{...}");
		return;
	}
	memcpy(&cur, d, 8);
	memcpy(&max, d + 8, 8);
	sb_puts(b, "{rlim_cur=");
	rlim_value(b, cur);
	sb_puts(b, ", rlim_max=");
	rlim_value(b, max);
	sb_putc(b, '}');
}
