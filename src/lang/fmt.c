/* printf formats, split the way bpftrace 0.17 splits them.
 *
 * bpftrace finds conversions with a pattern, roughly
 *   %-?[0-9]*(\.[0-9]+)?  then  c | s | r | rx | rh | (hh|h|l|ll|j|z|t)?[doupxX]
 * (no %i, no + # or space flags, no * width), and does not know about %%.
 * Each piece "text before + conversion" goes through snprintf with its
 * argument, so C's printf decides what that text shows (%% becomes %);
 * text after the last conversion, or a format without conversions, is
 * printed untouched.  Anything not matched is plain text, so parsing never
 * fails: a mismatch shows up as an argument-count error in sema.
 *
 * We do the C printf part of the literal text at parse time, leaving one
 * snprintf per conversion at run time. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"

/* Length of the bpftrace conversion starting at s[0] == '%', or 0. */
static size_t bt_conv_len(const char *s, size_t n)
{
	size_t j = 1;
	if (j < n && s[j] == '-')
		j++;
	while (j < n && isdigit((unsigned char)s[j]))
		j++;
	if (j + 1 < n && s[j] == '.' && isdigit((unsigned char)s[j + 1])) {
		j++;
		while (j < n && isdigit((unsigned char)s[j]))
			j++;
	}
	if (j < n && s[j] == 'r') /* %r, and %rx %rh (hex) */
		return j + 1 + (j + 1 < n && (s[j + 1] == 'x' || s[j + 1] == 'h'));
	if (j < n && strchr("cs", s[j]) && s[j])
		return j + 1;
	if (j + 1 < n && ((s[j] == 'h' && s[j + 1] == 'h') || (s[j] == 'l' && s[j + 1] == 'l')))
		j += 2;
	else if (j < n && s[j] && strchr("hljzt", s[j]))
		j++;
	/* %i too: bpftrace 0.17 leaves it as text, but users expect C's %i */
	if (j < n && s[j] && strchr("diouxXp", s[j]))
		return j + 1;
	return 0;
}

/* Length of the conversion glibc's printf would parse at s[0] == '%'
 * (flags, width, precision, length, letter); s is bounded by n. */
static size_t c_conv_len(const char *s, size_t n)
{
	size_t j = 1;
	while (j < n && strchr("-+ #0'I", s[j]) && s[j])
		j++;
	while (j < n && (isdigit((unsigned char)s[j]) || s[j] == '*'))
		j++;
	if (j < n && s[j] == '.') {
		j++;
		while (j < n && (isdigit((unsigned char)s[j]) || s[j] == '*'))
			j++;
	}
	while (j < n && s[j] && strchr("hlLqjzt", s[j]))
		j++;
	return j < n ? j + 1 : n;
}

typedef VEC(FmtPiece) PieceVec;

static void push_literal(PieceVec *v, StrBuf *lit)
{
	if (!lit->len)
		return;
	FmtPiece p = {.conv = FC_LITERAL, .text = xstrndup(lit->s, lit->len)};
	vec_push(v, p);
	sb_reset(lit);
}

/* The piece for bpftrace conversion s[0..n): a C conversion that takes
 * our argument at its proper width. */
static FmtPiece make_conv(const char *s, size_t n)
{
	FmtPiece p = {0};
	char c = s[n - 1];
	if (n >= 3 && s[n - 2] == 'r' && (c == 'x' || c == 'h')) {
		p.conv = FC_BUF;
		p.spec = 'r';
		p.buf_mode = c;
		p.plain = n == 3;
		p.text = xstrndup(s, n);
		snprintf(p.word, sizeof(p.word), "%%r%c", c);
		return p;
	}
	p.spec = c;
	p.buf_mode = 'r';
	p.plain = n == 2;
	p.conv = c == 's' ? FC_STR : c == 'r' ? FC_BUF : c == 'p' ? FC_PTR : FC_INT;
	p.is_unsigned_conv = c == 'u' || c == 'x' || c == 'X' || c == 'o';
	/* length modifier: l ll j z t read 64 bits (rewritten to ll); none,
	 * h and hh read an int and C narrows it further */
	size_t lm = n - 1;
	while (lm > 1 && strchr("hljzt", s[lm - 1]))
		lm--;
	bool wide = lm < n - 1 && s[lm] != 'h';
	snprintf(p.word, sizeof(p.word), "%%%.*s", (int)(n - lm), s + lm);
	if (c == 'p' || wide) {
		p.arg64 = true;
		StrBuf b = {0};
		sb_putn(&b, s, lm);
		sb_puts(&b, c == 'p' ? "" : "ll");
		sb_putc(&b, c);
		p.text = b.s;
	} else {
		p.text = xstrndup(s, n);
	}
	return p;
}

/* One "text + conversion" segment [s, s+n), the conversion being the
 * last cn bytes: fold the text as C printf would. */
static void add_segment(PieceVec *v, StrBuf *lit, const char *s, size_t n, size_t cn)
{
	size_t conv_at = n - cn, i = 0;
	while (i < n) {
		if (i == conv_at) {
			push_literal(v, lit);
			vec_push(v, make_conv(s + i, cn));
			return;
		}
		if (s[i] != '%') {
			sb_putc(lit, s[i++]);
			continue;
		}
		size_t l = c_conv_len(s + i, n - i);
		if (s[i + l - 1] == '%')
			sb_putc(lit, '%');
		else /* unknown to C (or undefined): shown as written */
			sb_putn(lit, s + i, l);
		i += l;
		if (i > conv_at) { /* our conversion was swallowed */
			sb_putn(lit, s + i, n - i);
			push_literal(v, lit);
			FmtPiece p = make_conv(s + conv_at, cn);
			p.skip = true;
			vec_push(v, p);
			return;
		}
	}
}

bool fmt_parse(const char *fmt, size_t len, Fmt *out, int *err_off, char *err, size_t errlen)
{
	(void)err_off;
	(void)err;
	(void)errlen;
	PieceVec v = {0};
	StrBuf lit = {0};
	size_t last = 0;
	int nargs = 0;
	for (size_t i = 0; i < len; i++) {
		if (fmt[i] != '%')
			continue;
		size_t cn = bt_conv_len(fmt + i, len - i);
		if (!cn)
			continue;
		add_segment(&v, &lit, fmt + last, i + cn - last, cn);
		nargs++;
		last = i + cn;
		i = last - 1;
	}
	sb_putn(&lit, fmt + last, len - last); /* the tail: raw */
	push_literal(&v, &lit);
	sb_free(&lit);
	out->pieces = v.v;
	out->npieces = v.n;
	out->nargs = nargs;
	return true;
}

void fmt_free(Fmt *f)
{
	for (int i = 0; i < f->npieces; i++)
		free(f->pieces[i].text);
	free(f->pieces);
	f->pieces = NULL;
	f->npieces = f->nargs = 0;
}

static bool stringish(const Type *t)
{
	switch (t->kind) {
	case TY_STR:
	case TY_INET:
	case TY_KSYM:
	case TY_USYM:
	case TY_SYSCALL:
	case TY_TIMESTAMP:
	case TY_STRERROR:
	case TY_USERNAME:
	case TY_MACADDR:
	case TY_CGROUP_PATH:
	case TY_SIGNAL:
	case TY_KSTACK:
	case TY_USTACK:
	case TY_PYSTACK:
		return true;
	default:
		return false;
	}
}

bool fmt_accepts(const FmtPiece *p, const Type *t)
{
	switch (p->conv) {
	case FC_INT:
	case FC_PTR:
		return t->kind == TY_INT;
	case FC_STR: /* an enum's value: its name */
		return stringish(t) || (t->kind == TY_INT && t->enum_named);
	case FC_BUF:
		return t->kind == TY_BUF;
	default:
		return false;
	}
}

const char *fmt_expected_word(const FmtPiece *p)
{
	return p->conv == FC_STR ? "string" : p->conv == FC_BUF ? "buffer" : "integer";
}

const char *fmt_type_word(const Type *t)
{
	static const struct {
		TypeKind kind;
		const char *word;
	} words[] = {
		{TY_INT, "integer"}, {TY_TUPLE, "tuple"}, {TY_BUF, "buffer"}, {TY_RECORD, "record"},
		{TY_ARRAY, "array"}, {TY_COUNT, "count"}, {TY_SUM, "sum"}, {TY_MIN, "min"},
		{TY_MAX, "max"}, {TY_AVG, "avg"}, {TY_STATS, "stats"}, {TY_HIST, "hist"},
		{TY_LHIST, "lhist"},
	};
	if (stringish(t))
		return "string";
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (words[i].kind == t->kind)
			return words[i].word;
	return "none";
}
