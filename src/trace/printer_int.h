/* Inside the strace-format printer: the call being formatted and what
 * printer.c and the printer_*.c files use of each other. */
#pragma once
#include "printer.h"

/* What the printer needs per syscall number, computed once instead of by
 * name comparisons on every line. */
enum { SP_NONE, SP_CLONE, SP_FCNTL, SP_POLL, SP_OPENAT, SP_OPEN, SP_CLOSE, SP_EXIT, SP_DUP,
       SP_FUTEX, SP_CHDIR, SP_FCHDIR, SP_SOCKET, SP_SENDTO,
       SP_RESTART };
typedef struct NrInfo {
	const char *name;
	const char *sig;
	uint16_t namelen;
	uint8_t nsig;
	uint8_t special;
	bool hexret;
	uint8_t wide; /* syscall_table's: arguments as wide as a register */
	const struct ArgTable *tab[6]; /* arguments decoded by a table row */
	const struct CallDec *dec;     /* the call decoded whole (calldec.h) */
	int8_t entry_slot;             /* sig_entry_slot */
	uint8_t retfd; /* RETFD_*: the call returns a new fd */
} NrInfo;
enum { RETFD_NONE, RETFD_ANON /* named by the call */, RETFD_PROC /* by /proc, live */ };

typedef struct Call {
	const TraceHdr *h;
	/* h->args as the call's types have them: an int argument's low 32
	 * bits (zero-extended; arg_signed sign-extends) */
	uint64_t args[6];
	uint8_t wide;
	const struct ArgTable *const *tab; /* NrInfo's, or NULL */
	const struct CallDec *dec;         /* NrInfo's, or NULL */
	int entry_slot;                    /* NrInfo's */
	const uint8_t *cap[6];
	size_t caplen[6];
	bool capok[6];
	const char *name;
	const char *sig;
	size_t namelen, nsig;
	int special;
	bool hexret;
	bool entry_only; /* no return known (exit_group, or an entry record) */
	int part;        /* CALL_WHOLE, or strace's halves of an interrupted line */
	bool fd_named;   /* -y: the fd an open returned has its name (put_opened_name) */
	uint8_t retfd;   /* NrInfo's */
} Call;
enum { CALL_WHOLE, CALL_HEAD, CALL_TAIL };

/* a return value is known */
static inline bool has_ret(const Call *c)
{
	return !c->entry_only;
}

/* the call returned and succeeded */
static inline bool ok_ret(const Call *c)
{
	return has_ret(c) && c->h->ret >= 0;
}

/* the call was interrupted by a signal, to be restarted (ERESTARTSYS,
 * ERESTARTNOINTR, ERESTARTNOHAND, ERESTART_RESTARTBLOCK: strace's
 * is_erestart) */
static inline bool interrupted(const Call *c)
{
	int64_t r = c->h->ret;
	return has_ret(c) && (r == -512 || r == -513 || r == -514 || r == -516);
}

/* printer_restart.c: each thread's last call shown (while restart_syscall
 * is traced), and restart_syscall's argument that names it */
void restart_note(Printer *p, const TraceHdr *h);
void put_restart_args(Printer *p, StrBuf *b, uint32_t tid);

/* printer_call.c: the line */
/* the table by syscall number a Printer keeps (free() it) */
NrInfo *nr_info_new(void);
void init_call(const Printer *p, Call *c, const TraceHdr *h, const uint8_t *data, size_t avail);
void format_call(Printer *p, StrBuf *b, Call *c);

/* printer_args.c: one argument by its signature letter */
/* strace leaves argument i out (open's mode without O_CREAT...) */
bool arg_omitted(const Call *c, int i);
bool put_arg(Printer *p, StrBuf *b, const Call *c, int i);

/* printer_bufs.c: buffers and strings */
/* 'b': a buffer the call reads, 'B': one it fills */
void put_buf_arg(const Call *c, StrBuf *b, int i, int strsize, bool have);
/* '[' and ']': n gid_t's */
void put_gid_array(StrBuf *b, const Call *c, int i, uint64_t n, bool have);
void put_strvec(StrBuf *b, const Call *c, int i, int strsize, bool have);
void put_envp(StrBuf *b, const Call *c, int i, bool have);

/* printer_structs.c: structures */
void put_pollfds(StrBuf *b, const Call *c, int i, bool revents);
void put_out_struct(StrBuf *b, const Call *c, int i, bool have);
void put_in_struct(StrBuf *b, const Call *c, int i, bool have);
void put_time_left(StrBuf *b, const Call *c, int i, bool have);
void put_uint_out(StrBuf *b, const Call *c, int i, bool have);
/* 'J': a sockaddr the call fills; '#': its in/out length */
void put_sockname(StrBuf *b, const Call *c, int i);
void put_socklen(StrBuf *b, const Call *c, int i);

/* printer_dirents.c: '%', getdents' entries: the address and their count */
void put_dirents(StrBuf *b, const Call *c, int i, bool have);

/* printer_vecs.c: iovecs and msghdrs */
void put_vec_arg(StrBuf *b, const Call *c, int i, int strsize, bool have);

/* printer_special.c: calls laid out by their own logic */
void put_clone_args(StrBuf *b, const Call *c);
void put_futex_args(StrBuf *b, const Call *c);
void put_fcntl_args(Printer *p, StrBuf *b, const Call *c);
void put_special_ret(StrBuf *b, const Call *c);

/* printer_fds.c */
void put_fd(Printer *p, StrBuf *b, uint32_t tgid, int64_t v);
void track_fds(Printer *p, const Call *c);
/* the netlink protocol of a process's fd, -1 if it is not a netlink socket
 * sonde knows */
int fd_netlink_proto(Printer *p, uint32_t tgid, int fd);
/* RETFD_* of a call by its name */
int ret_fd_kind(const char *call);
/* -y: "<name>" of the fd a call returned (dup's: its original's; see
 * ret_fd_kind), nothing if unknown */
void put_ret_fd_name(Printer *p, StrBuf *b, Call *c);
/* -y: "<path>" of the fd an open call returned, absolute as strace's */
void put_opened_name(Printer *p, StrBuf *b, Call *c);
/* -y: a new process starts in its parent's directory (0: sonde's) */
void cwd_inherit(Printer *p, uint32_t parent, uint32_t child);
/* -y: AT_FDCWD<cwd> */
void put_dirfd_cwd(Printer *p, StrBuf *b, uint32_t tgid);

/* printer.c */
void put_prefix(Printer *p, StrBuf *b, uint32_t tid, uint64_t ts);
