/* D's printf formats (the D dialect), parsed as libdtrace's
 * dt_printf_create parses them and checked against its conversion table:
 * flags - + space # 0 ' (glibc's grouping), a width or precision of digits
 * or '*' (an int argument before the value), '?' (a pointer's width, 16),
 * '@' (printa: the aggregation's value), size prefixes h l L w, then the
 * conversion: a A c C d e E f g G i k o p s S T u x X Y %.  Text between
 * conversions prints as written (only "%%" is special).
 *
 * Integers print at their value's size (the type decides, as dtrace's
 * pfprint_sint/uint do; %d of an unsigned value is %u); %p is %x; %a and %A
 * print module`symbol+0xoff; %S and %C escape what is not printable as C
 * does; %k prints a stack; %Y and %T print a walltimestamp. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "printf_fmt_d.h"

typedef enum DCheck {
	DC_ADDR,  /* pointer or integer */
	DC_UADDR, /* the same, or a usym() value */
	DC_CSI,   /* an integer of at most an int's size */
	DC_XINT,  /* any integer */
	DC_FP,    /* float or double */
	DC_STR,   /* a string or char array */
	DC_WSTR,  /* wchar_t[]: D on Linux has none */
	DC_STACK, /* stack(), ustack(), jstack() */
	DC_TIME,  /* a 64-bit integer */
	DC_SHORT, /* a 16-bit integer */
	DC_LONG,  /* a 64-bit integer (long, long long) */
	DC_INT,   /* a 32-bit integer (%lc, %wc) */
	DC_LDBL,  /* long double: none */
	DC_PCT,   /* %%: no argument */
} DCheck;

typedef struct DConv {
	const char *name; /* as written after the flags */
	char ofmt;        /* the C conversion letter */
	FmtConv kind;
	DCheck check;
	const char *proto; /* the types it takes, in dtrace's messages */
} DConv;

static const char P_XINT[] = "char, short, int, long, or long long";
static const char P_CSI[] = "char, short, or int";
static const char P_FP[] = "float, double, or long double";
static const char P_ADDR[] = "pointer or integer";
static const char P_UADDR[] = "pointer or integer (with -p/-c) or _usymaddr (without -p/-c)";
static const char P_CSTR[] = "char [] or string (or use stringof)";
static const char P_WSTR[] = "wchar_t []";

static const DConv dconvs[] = {
	{"a", 's', FC_SYM, DC_ADDR, P_ADDR},
	{"A", 's', FC_USYM, DC_UADDR, P_UADDR},
	{"c", 'c', FC_INT, DC_CSI, P_CSI},
	{"C", 's', FC_ESTR, DC_CSI, P_CSI},
	{"d", 'd', FC_INT, DC_XINT, P_XINT},
	{"e", 'e', FC_FLOAT, DC_FP, P_FP},
	{"E", 'E', FC_FLOAT, DC_FP, P_FP},
	{"f", 'f', FC_FLOAT, DC_FP, P_FP},
	{"g", 'g', FC_FLOAT, DC_FP, P_FP},
	{"G", 'G', FC_FLOAT, DC_FP, P_FP},
	{"hd", 'd', FC_INT, DC_SHORT, "short"},
	{"hi", 'i', FC_INT, DC_SHORT, "short"},
	{"ho", 'o', FC_INT, DC_SHORT, "unsigned short"},
	{"hu", 'u', FC_INT, DC_SHORT, "unsigned short"},
	{"hx", 'x', FC_INT, DC_SHORT, "short"},
	{"hX", 'X', FC_INT, DC_SHORT, "short"},
	{"i", 'i', FC_INT, DC_XINT, P_XINT},
	{"k", 's', FC_STACK, DC_STACK, "stack"},
	{"lc", 'c', FC_INT, DC_INT, "int"},
	{"ld", 'd', FC_INT, DC_LONG, "long"},
	{"li", 'i', FC_INT, DC_LONG, "long"},
	{"lo", 'o', FC_INT, DC_LONG, "unsigned long"},
	{"lu", 'u', FC_INT, DC_LONG, "unsigned long"},
	{"ls", 's', FC_STR, DC_WSTR, P_WSTR},
	{"lx", 'x', FC_INT, DC_LONG, "long"},
	{"lX", 'X', FC_INT, DC_LONG, "long"},
	{"lld", 'd', FC_INT, DC_LONG, "long long"},
	{"lli", 'i', FC_INT, DC_LONG, "long long"},
	{"llo", 'o', FC_INT, DC_LONG, "unsigned long long"},
	{"llu", 'u', FC_INT, DC_LONG, "unsigned long long"},
	{"llx", 'x', FC_INT, DC_LONG, "long long"},
	{"llX", 'X', FC_INT, DC_LONG, "long long"},
	{"Le", 'e', FC_FLOAT, DC_LDBL, "long double"},
	{"LE", 'E', FC_FLOAT, DC_LDBL, "long double"},
	{"Lf", 'f', FC_FLOAT, DC_LDBL, "long double"},
	{"Lg", 'g', FC_FLOAT, DC_LDBL, "long double"},
	{"LG", 'G', FC_FLOAT, DC_LDBL, "long double"},
	{"o", 'o', FC_INT, DC_XINT, P_XINT},
	{"p", 'x', FC_INT, DC_ADDR, P_ADDR},
	{"s", 's', FC_STR, DC_STR, P_CSTR},
	{"S", 's', FC_ESTR, DC_STR, P_CSTR},
	{"T", 's', FC_TIME822, DC_TIME, "int64_t"},
	{"u", 'u', FC_INT, DC_XINT, P_XINT},
	{"wc", 'c', FC_INT, DC_INT, "int"},
	{"ws", 's', FC_STR, DC_WSTR, P_WSTR},
	{"x", 'x', FC_INT, DC_XINT, P_XINT},
	{"X", 'X', FC_INT, DC_XINT, P_XINT},
	{"Y", 's', FC_TIME, DC_TIME, "int64_t"},
	{"%", '%', FC_LITERAL, DC_PCT, "void"},
};

static const DConv *dconv_find(const char *name)
{
	for (size_t i = 0; i < sizeof(dconvs) / sizeof(dconvs[0]); i++)
		if (!strcmp(dconvs[i].name, name))
			return &dconvs[i];
	return NULL;
}

typedef VEC(FmtPiece) PieceVec;

static void flush_text(PieceVec *v, StrBuf *lit)
{
	if (!lit->len)
		return;
	FmtPiece p = {.conv = FC_LITERAL, .text = xstrndup(lit->s, lit->len)};
	vec_push(v, p);
	sb_reset(lit);
}

/* One conversion's state while its characters are read */
typedef struct Conv {
	char flags[8];
	int nflags, width, prec;
	bool dot, dynw, dynp, agg, left;
	char name[8];
	int namelen;
} Conv;

static bool conv_fail(char *err, size_t n, const char *msg, int k, const char *arg)
{
	snprintf(err, n, msg, k, arg);
	return false;
}

static void add_flag(Conv *c, char f)
{
	if (!memchr(c->flags, f, (size_t)c->nflags) && c->nflags < (int)sizeof(c->flags) - 1)
		c->flags[c->nflags++] = f;
}

/* A width or precision past this is refused rather than rendered */
#define CONV_MAX_WIDTH 1000000 /* as in conv_fail's message */

/* Read the conversion at s[0] == '%'; *used: its length */
static bool read_conv(const char *s, size_t n, int k, Conv *c, size_t *used, char *err, size_t en)
{
	size_t j = 1;
	int digits = 0;
	for (;; j++) {
		char ch = j < n ? s[j] : 0;
		if (isdigit((unsigned char)ch)) {
			if (!c->dot && !digits && ch == '0') {
				add_flag(c, '0');
				continue;
			}
			int v = 0;
			for (; j < n && isdigit((unsigned char)s[j]); j++) {
				if (v > CONV_MAX_WIDTH / 10 || v * 10 + s[j] - '0' > CONV_MAX_WIDTH)
					/* no overflow, no gigabyte of padding */
					return conv_fail(err, en, "format conversion #%d has an output %s "
							 "larger than 1000000", k, c->dot ? "precision" : "width");
				v = v * 10 + s[j] - '0';
			}
			j--;
			*(c->dot ? &c->prec : &c->width) = v;
			digits++;
		} else if (ch == '#' || ch == '+' || ch == ' ' || ch == '\'' || ch == '-') {
			add_flag(c, ch);
		} else if (ch == '*') {
			bool *dyn = c->dot ? &c->dynp : &c->dynw;
			if (*dyn)
				return conv_fail(err, en, "format conversion #%d has more than one '*' "
						 "specified for the output %s", k, c->dot ? "precision" : "width");
			*dyn = true;
		} else if (ch == '.') {
			if (c->dot)
				return conv_fail(err, en, "format conversion #%d has more than one '.' "
						 "specified%s", k, "");
			c->dot = true;
			digits = 0;
		} else if (ch == '?') {
			c->width = 16;
		} else if (ch == '@') {
			c->agg = true;
		} else if (ch == '$') {
			return conv_fail(err, en, "format conversion #%d uses unsupported positional "
					 "format (%%n$)%s", k, "");
		} else if (ch == '%' && j > 1) {
			return conv_fail(err, en, "format conversion #%d cannot be combined with other "
					 "format flags: %%%%%s", k, "");
		} else if (!ch) {
			return conv_fail(err, en, "format conversion #%d name expected before end of "
					 "format string%s", k, "");
		} else if (ch == 'h' || ch == 'l' || ch == 'L' || ch == 'w') {
			if (c->namelen < (int)sizeof(c->name) - 2)
				c->name[c->namelen++] = ch;
		} else {
			c->name[c->namelen++] = ch;
			c->name[c->namelen] = 0;
			*used = j + 1;
			return true;
		}
	}
}

/* The C conversion text for snprintf: flags, width, precision, letter */
static char *conv_text(const Conv *c, char letter)
{
	StrBuf b = {0};
	sb_putc(&b, '%');
	sb_putn(&b, c->flags, (size_t)c->nflags);
	if (c->dynw)
		sb_putc(&b, '*');
	else if (c->width)
		sb_printf(&b, "%d", c->width);
	if (c->dynp)
		sb_puts(&b, ".*");
	else if (c->dot)
		sb_printf(&b, ".%d", c->prec);
	sb_putc(&b, letter);
	return b.s;
}

/* a '*' argument: spec '*' for the width, '.' for the precision (dtrace's
 * messages name them "*" and ".*") */
static void push_star(PieceVec *v, char spec)
{
	FmtPiece p = {.conv = FC_STAR, .spec = spec};
	p.text = xstrndup("*", 1);
	vec_push(v, p);
}

/* how the runtime's fmt_render prints D's own conversions */
static const FmtExt d_fmt_ext = {fmt_render_d, fmt_d_stars};

bool fmt_parse_d(const char *fmt, size_t len, Fmt *out, char *err, size_t errlen)
{
	PieceVec v = {0};
	StrBuf lit = {0};
	int k = 0, nargs = 0;
	bool ok = true;
	for (size_t i = 0; i < len && ok;) {
		if (fmt[i] != '%') {
			sb_putc(&lit, fmt[i++]);
			continue;
		}
		Conv c = {0};
		size_t used = 0;
		k++;
		if (!(ok = read_conv(fmt + i, len - i, k, &c, &used, err, errlen)))
			break;
		i += used;
		const DConv *d = dconv_find(c.name);
		if (!d) {
			ok = conv_fail(err, errlen, "format conversion #%d is undefined: %%%s", k, c.name);
			break;
		}
		if (d->check == DC_PCT) {
			sb_putc(&lit, '%');
			continue;
		}
		flush_text(&v, &lit);
		if (c.dynw)
			push_star(&v, '*'), nargs++;
		if (c.dynp)
			push_star(&v, '.'), nargs++;
		FmtPiece p = {.conv = d->kind, .spec = d->ofmt, .dconv = d, .agg_value = c.agg,
			      .ext = &d_fmt_ext};
		p.is_unsigned_conv = strchr("uxXo", d->ofmt) != NULL;
		p.text = conv_text(&c, d->ofmt);
		p.plain = !c.nflags && !c.width && !c.dot && !c.dynw;
		vec_push(&v, p);
		nargs += !c.agg;
	}
	flush_text(&v, &lit);
	sb_free(&lit);
	out->pieces = v.v;
	out->npieces = v.n;
	out->nargs = nargs;
	if (!ok)
		fmt_free(out);
	return ok;
}

const char *fmt_d_name(const FmtPiece *p)
{
	while (p->conv == FC_STAR) /* a star's: its conversion's, after the stars */
		p++;
	return p->dconv ? p->dconv->name : "";
}

/* a float or a double (cdecl.c names them): its bits, else 0 */
static int fp_bits(const Type *t)
{
	bool fp = t->kind == TY_INT && !t->pointee && t->cname &&
		  (!strcmp(t->cname, "float") || !strcmp(t->cname, "double"));
	return fp ? t->bits : 0;
}

bool fmt_d_accepts(const FmtPiece *p, const Type *t, const char **proto)
{
	const DConv *d = p->dconv;
	*proto = d ? d->proto : "int";
	if (fp_bits(t)) /* dtrace's pfcheck_fp: nothing else takes one */
		return d && d->check == DC_FP;
	bool is_int = t->kind == TY_INT;
	int bits = is_int ? (t->pointee ? 64 : t->bits ? t->bits : t->size * 8) : 0;
	switch (d ? d->check : DC_INT) {
	case DC_ADDR:
		return is_int || t->kind == TY_KSYM;
	case DC_UADDR:
		return is_int || t->kind == TY_USYM;
	case DC_CSI:
		return is_int && bits <= 32;
	case DC_XINT:
		return is_int;
	case DC_STR:
		/* sym() and the others are _symaddr, which %s refuses (pfcheck_str) */
		return t->kind == TY_STR || t->kind == TY_INET ||
		       ((t->kind == TY_KSYM || t->kind == TY_USYM) && !t->dsym);
	case DC_STACK:
		return t->kind == TY_KSTACK || t->kind == TY_USTACK || t->kind == TY_PYSTACK;
	case DC_TIME:
	case DC_LONG:
		return is_int && bits == 64;
	case DC_SHORT:
		return is_int && bits == 16;
	case DC_INT:
		return is_int && bits == 32;
	default: /* floating point (above), long double, wide strings: not in D on Linux */
		return false;
	}
}

char *fmt_d_stars(const char *text, const int *stars, int n)
{
	StrBuf b = {0};
	int k = 0;
	for (const char *s = text; *s; s++) {
		if (*s != '*' || k >= n) {
			sb_putc(&b, *s);
			continue;
		}
		bool prec = s > text && s[-1] == '.';
		int val = stars[k++];
		if (prec && val < 0) /* a negative precision is none, as in C */
			b.len--;
		else
			sb_printf(&b, "%d", val);
	}
	sb_putc(&b, 0);
	return b.s;
}

/* strchr2esc's escapes: C's letters, \" and \\, octal for the rest */
static void put_strchr2esc(StrBuf *sb, const char *s, size_t n)
{
	static const char from[] = "\a\b\f\n\r\t\v\"\\", to[] = "abfnrtv\"\\";
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *e = c ? strchr(from, c) : NULL;
		if (e)
			sb_printf(sb, "\\%c", to[e - from]);
		else if (c == ' ' || (c >= '!' && c <= '~'))
			sb_putc(sb, (char)c);
		else
			sb_printf(sb, "\\%03o", c);
	}
}

/* %Y: ctime's fields reordered as mdb's /Y prints them; %T: RFC 822 */
static void put_time(StrBuf *sb, int64_t ns, bool rfc822)
{
	time_t sec = (time_t)(ns / 1000000000);
	struct tm tm;
	char buf[64] = "";
	localtime_r(&sec, &tm);
	strftime(buf, sizeof(buf), rfc822 ? "%a, %d %b %G %T %Z" : "%Y %b %e %T", &tm);
	sb_puts(sb, buf);
}

static double float_value(const Type *t, const void *arg)
{
	if (fp_bits(t) == 32) {
		float f;
		memcpy(&f, arg, sizeof(f));
		return f;
	}
	double d;
	memcpy(&d, arg, sizeof(d));
	return d;
}

void fmt_render_d(StrBuf *sb, const OutCtx *o, const FmtPiece *p, const Type *t, const void *arg)
{
	StrBuf s = {0};
	int64_t v = 0;
	if (t->kind == TY_INT)
		memcpy(&v, arg, t->size >= 8 ? 8 : (size_t)t->size);
	switch (p->conv) {
	case FC_ESTR:
		if (t->kind == TY_STR) {
			put_strchr2esc(&s, arg, strnlen(arg, (size_t)t->size));
		} else {
			char c = (char)v;
			put_strchr2esc(&s, &c, 1);
		}
		break;
	case FC_SYM:
	case FC_USYM:
		sym_format_d(&s, o, t->kind == TY_USYM, arg);
		break;
	case FC_STACK: {
		char *cfmt = xstrndup(p->text, strlen(p->text));
		int indent = 0;
		if (strchr(p->text, '-'))
			sscanf(strpbrk(p->text, "123456789") ? strpbrk(p->text, "123456789") : "0", "%d",
			       &indent);
		stack_printf_d(sb, o, t, arg, indent, cfmt);
		free(cfmt);
		return;
	}
	case FC_TIME:
	case FC_TIME822:
		put_time(&s, v, p->conv == FC_TIME822);
		break;
	case FC_FLOAT: /* dtrace's pfprint_fp: the bytes as the type they are */
		sb_printf(sb, p->text, float_value(t, arg));
		sb_free(&s);
		return;
	default:
		break;
	}
	sb_putc(&s, 0);
	sb_printf(sb, p->text, s.s);
	sb_free(&s);
}
