/* Calls decoded whole by a function of their own (prctl...): what one
 * argument means depends on another, so no letter per argument (sigs.h)
 * can say how to print them.  A row names the call, what the kernel
 * captures for it at exit, and its printers, which see the call as a
 * CallView (no printer state: unit-testable). */
#pragma once
#include "decode.h"
#include "fmt.h"
#include "trace.h"

typedef struct CallView {
	uint64_t a[6];       /* as the call's types have them (an int: its low 32 bits) */
	int64_t ret;
	bool has_ret;        /* a return value is known */
	const uint8_t *cap[6];
	size_t caplen[6];    /* cap NULL: nothing was captured (or the read failed) */
	size_t strsize;      /* -s */
	/* how a file descriptor shows (-y's names): the printer's; NULL: its number */
	void (*put_fd)(void *ctx, StrBuf *b, int fd);
	void *fd_ctx;
} CallView;

static inline void cv_put_fd(StrBuf *b, const CallView *v, int fd)
{
	if (v->put_fd)
		v->put_fd(v->fd_ctx, b, fd);
	else
		fb_i64(b, fd);
}

/* the call failed (or its return is not known): strace shows what it
 * would have filled in as an address */
static inline bool cv_failed(const CallView *v)
{
	return !v->has_ret || (v->ret < 0 && v->ret >= -4095);
}

typedef struct CallCap {
	uint8_t kind;  /* CAP_* */
	uint8_t lenarg;
	uint16_t size;
} CallCap;

typedef struct CallDec {
	const char *name;
	CallCap cap[6];
	/* every argument, separated by ", " */
	void (*args)(StrBuf *b, const CallView *v);
	/* a successful return value and what strace adds after it
	 * (" (SUID_DUMP_USER)"); NULL or false: the usual decimal */
	bool (*ret)(StrBuf *b, const CallView *v);
} CallDec;

/* the row of the call named name, NULL if it has none */
const CallDec *call_dec(const char *name);

/* decode_sockopt.c */
void dec_getsockopt_args(StrBuf *b, const CallView *v);
void dec_setsockopt_args(StrBuf *b, const CallView *v);

/* decode_prctl.c */
void dec_prctl_args(StrBuf *b, const CallView *v);
bool dec_prctl_ret(StrBuf *b, const CallView *v);
