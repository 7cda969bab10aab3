/* futex's op as strace names it, and how many arguments it shows: the
 * arguments a futex op does not use are left out (futex(0x7f..,
 * FUTEX_WAKE_PRIVATE, 1) = 0). */
#include "decode.h"
#include "fmt.h"

#include <linux/futex.h>

int dec_futex_op(StrBuf *b, uint64_t v)
{
	static const struct {
		const char *name;
		int nargs;
	} ops[] = {
		/* nargs: FUTEX_SHOW_* (see decode.h) */
		[FUTEX_WAIT] = {"FUTEX_WAIT", FUTEX_SHOW_WAIT},
		[FUTEX_WAKE] = {"FUTEX_WAKE", FUTEX_SHOW_WAKE},
		[FUTEX_FD] = {"FUTEX_FD", FUTEX_SHOW_WAKE},
		[FUTEX_REQUEUE] = {"FUTEX_REQUEUE", FUTEX_SHOW_REQUEUE},
		[FUTEX_CMP_REQUEUE] = {"FUTEX_CMP_REQUEUE", FUTEX_SHOW_ALL},
		[FUTEX_WAKE_OP] = {"FUTEX_WAKE_OP", FUTEX_SHOW_ALL},
		[FUTEX_LOCK_PI] = {"FUTEX_LOCK_PI", FUTEX_SHOW_ALL},
		[FUTEX_UNLOCK_PI] = {"FUTEX_UNLOCK_PI", FUTEX_SHOW_ALL},
		[FUTEX_TRYLOCK_PI] = {"FUTEX_TRYLOCK_PI", FUTEX_SHOW_ALL},
		[FUTEX_WAIT_BITSET] = {"FUTEX_WAIT_BITSET", FUTEX_SHOW_WAIT_BITSET},
		[FUTEX_WAKE_BITSET] = {"FUTEX_WAKE_BITSET", FUTEX_SHOW_WAKE_BITSET},
		[FUTEX_WAIT_REQUEUE_PI] = {"FUTEX_WAIT_REQUEUE_PI", FUTEX_SHOW_ALL},
		[FUTEX_CMP_REQUEUE_PI] = {"FUTEX_CMP_REQUEUE_PI", FUTEX_SHOW_ALL},
		[13] = {"FUTEX_LOCK_PI2", FUTEX_SHOW_ALL},
	};
	unsigned cmd = (unsigned)(v & FUTEX_CMD_MASK);
	if (cmd >= sizeof(ops) / sizeof(ops[0]) || !ops[cmd].name || v >> 32) {
		fb_hex(b, v);
		return FUTEX_SHOW_ALL;
	}
	fb_puts(b, ops[cmd].name);
	if (v & FUTEX_PRIVATE_FLAG)
		fb_puts(b, "_PRIVATE");
	if (v & FUTEX_CLOCK_REALTIME)
		fb_puts(b, "|FUTEX_CLOCK_REALTIME");
	return ops[cmd].nargs;
}
