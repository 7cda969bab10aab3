/* One argument in strace's format, by its signature letter (sigs.h): the
 * values decoded alone here, the rest by the files for their kind
 * (printer_bufs.c, printer_structs.c, printer_vecs.c). */
#include "printer_int.h"

#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "decode.h"
#include "decode_tables.h"
#include "fmt.h"

/* an argument as the signed type it has: an int's upper half is not
 * part of it (Call.args keeps an int's low 32 bits only) */
static int64_t arg_signed(const Call *c, int i)
{
	return c->wide >> i & 1 ? (int64_t)c->args[i] : (int64_t)(int32_t)c->args[i];
}

/* open's mode (and mq_open's attr) without O_CREAT are left out, mknod's
 * dev but for devices, and the registers strace does not show ('_') */
bool arg_omitted(const Call *c, int i)
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

bool put_arg(Printer *p, StrBuf *b, const Call *c, int i)
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
		/* strace's printpath: PATH_MAX - 1 bytes, "..." when the
		 * string goes on (the capture's last byte, see cap_read_str) */
		if (have)
			dec_cstr(b, c->cap[i], c->caplen[i], 4095);
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
	case '%': put_dirents(b, c, i, have); break;
	case '1': put_time_left(b, c, i, have); break;
	case '+': put_uint_out(b, c, i, have); break;
	case '#': put_socklen(b, c, i); break;
	case 'S': case 'K': case 'G': case 'W': case 'Z': case '3':
		put_out_struct(b, c, i, have);
		break;
	case 't': case 'k': case 'g': case 'I': case 'e': case 'Q': case 'X': case 'Y': case '2':
		put_in_struct(b, c, i, have);
		break;
	case 'L': case 'U': case 'H': case 'N': put_vec_arg(b, c, i, strsize, have); break;
	case 'y': dec_sock_proto(b, c->args[0], v); break;
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
