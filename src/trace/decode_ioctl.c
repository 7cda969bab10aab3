/* ioctl's request as strace names it: a name from the table, else the
 * number's parts, _IOC(_IOC_READ|_IOC_WRITE, 0x24, 0xed, 0x3eed) (strace's
 * ioctl_print_code), never a bare number. */
#include "decode.h"
#include "fmt.h"

#include <asm/ioctl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <termios.h>

#define N(x) {x, #x}
#define END {0, NULL}

static bool ioctl_name(StrBuf *b, uint32_t v)
{
	static const FlagName t[] = {N(TCGETS), N(TCSETS), N(TCSETSW), N(TCSETSF), N(TIOCGWINSZ),
				     N(TIOCSWINSZ), N(TIOCGPGRP), N(TIOCSPGRP), N(FIONREAD),
				     N(FIONBIO), N(FIOCLEX), N(FIONCLEX), N(TIOCSCTTY),
				     N(TIOCNOTTY), N(TCFLSH), N(TCXONC), N(TIOCOUTQ), N(FIOASYNC),
				     N(TIOCGPTN), N(TIOCSPTLCK), N(FS_IOC_GETFLAGS), END};
	for (const FlagName *f = t; f->name; f++)
		if (f->val == v) {
			fb_puts(b, f->name);
			return true;
		}
	return false;
}

static void ioctl_dir(StrBuf *b, unsigned dir)
{
	if (dir == _IOC_NONE)
		sb_puts(b, "_IOC_NONE");
	else if (dir == (_IOC_READ | _IOC_WRITE))
		sb_puts(b, "_IOC_READ|_IOC_WRITE");
	else
		sb_puts(b, dir == _IOC_READ ? "_IOC_READ" : "_IOC_WRITE");
}

/* strace's PRINT_VAL_X: %#x, plain 0 */
static void hex_or_0(StrBuf *b, unsigned v)
{
	sb_printf(b, v ? "%#x" : "0", v);
}

void dec_ioctl_req(StrBuf *b, uint64_t v)
{
	uint32_t code = (uint32_t)v;
	if (ioctl_name(b, code))
		return;
	sb_puts(b, "_IOC(");
	ioctl_dir(b, _IOC_DIR(code));
	sb_puts(b, ", ");
	hex_or_0(b, _IOC_TYPE(code));
	sb_puts(b, ", ");
	hex_or_0(b, _IOC_NR(code));
	sb_puts(b, ", ");
	hex_or_0(b, _IOC_SIZE(code));
	sb_putc(b, ')');
}
