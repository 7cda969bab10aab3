/* printf formats rendered at run time: the pieces lang/fmt.c parsed (and a
 * front end's parser, e.g. D's), one snprintf per conversion, with the
 * event's arguments.  Values that are not plain integers or strings print
 * as print() shows them (value_format). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

/* snprintf straight into the buffer's spare room; grow and retry only when
 * it does not fit (sb_printf always formats twice). */
static void sb_cfmt(StrBuf *sb, const char *fmt, ...)
{
	va_list ap, ap2;
	va_start(ap, fmt);
	va_copy(ap2, ap);
	size_t room = sb->cap > sb->len ? sb->cap - sb->len : 0;
	int n = vsnprintf(room ? sb->s + sb->len : NULL, room, fmt, ap);
	if (n >= 0 && (size_t)n >= room) {
		sb_vprintf(sb, fmt, ap2);
	} else if (n > 0) {
		sb->len += (size_t)n;
	}
	va_end(ap2);
	va_end(ap);
}

static void render_int(StrBuf *sb, const FmtPiece *p, const void *arg)
{
	int64_t v;
	memcpy(&v, arg, 8);
	if (p->conv == FC_PTR) {
		sb_cfmt(sb, p->text, (void *)(uintptr_t)v);
	} else if (p->arg64) {
		sb_cfmt(sb, p->text, (long long)v);
	} else {
		size_t at = sb->len;
		sb_cfmt(sb, p->text, (int)v);
		/* %c of 0: bpftrace's text stops at the NUL */
		if (p->spec == 'c')
			sb->len = at + strnlen(sb->s + at, sb->len - at);
	}
}

static void render_str(StrBuf *sb, const OutCtx *o, const FmtPiece *p, const Type *t,
		       const void *arg)
{
	if (p->plain && t->kind == TY_STR) {
		fmt_string(sb, o, t, arg);
		return;
	}
	static __thread StrBuf tmp;
	sb_reset(&tmp);
	OutCtx text = *o;
	text.fmt = OUT_TEXT;
	value_format(&tmp, &text, t, arg, false);
	sb_putc(&tmp, 0);
	if (p->plain)
		sb_putn(sb, tmp.s, strlen(tmp.s));
	else
		sb_cfmt(sb, p->text, tmp.s);
}

static void render_piece(StrBuf *sb, const OutCtx *o, const FmtPiece *p, const Type *t,
			 const void *a)
{
	switch (p->conv) {
	case FC_STR:
		render_str(sb, o, p, t, a);
		break;
	case FC_BUF: {
		/* only a bare %r is bpftrace's; "%5r" reaches C as is */
		if (!p->plain) {
			sb_puts(sb, p->text);
			break;
		}
		buf_format(sb, t, a, p->buf_mode);
		break;
	}
	case FC_ESTR:
	case FC_SYM:
	case FC_USYM:
	case FC_STACK:
	case FC_TIME:
	case FC_TIME822:
	case FC_FLOAT: /* a front end's own (FmtPiece.ext) */
		if (p->ext)
			p->ext->render(sb, o, p, t, a);
		break;
	default:
		render_int(sb, p, a);
		break;
	}
}

void fmt_render(StrBuf *sb, const OutCtx *o, const Fmt *f, const Type *const *types,
		const void *const *args)
{
	int ai = 0, stars[2], nstars = 0;
	for (int i = 0; i < f->npieces; i++) {
		const FmtPiece *p = &f->pieces[i];
		if (p->conv == FC_LITERAL) {
			sb_puts(sb, p->text);
			continue;
		}
		const Type *t = types[ai];
		const void *a = args[ai++];
		if (p->skip)
			continue;
		if (p->conv == FC_STAR) { /* D: a '*' width or precision */
			int64_t v; /* integers arrive as 8 bytes (render_int) */
			memcpy(&v, a, 8);
			if (nstars < 2)
				stars[nstars++] = (int)v;
			continue;
		}
		FmtPiece q;
		if (nstars && p->ext) { /* the conversion with the '*' values written in */
			q = *p;
			q.text = p->ext->with_stars(p->text, stars, nstars);
			q.plain = false;
			p = &q;
		}
		render_piece(sb, o, p, t, a);
		if (nstars && p == &q)
			free(q.text);
		nstars = 0;
	}
}
