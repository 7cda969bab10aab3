/* printf formats.  Expected output comes from bpftrace 0.17 running
 * BEGIN { printf("<FORMAT>\n", ARGS); exit(); } */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "syms_check.h"
#include "runtime/output.h"

static Type t_i64 = {.kind = TY_INT, .size = 8, .bits = 64, .is_signed = true};
static Type t_u8 = {.kind = TY_INT, .size = 8, .bits = 8};
static Type t_str = {.kind = TY_STR, .size = 16};
static Type t_buf = {.kind = TY_BUF, .size = 8 + 8};
static Type t_inet = {.kind = TY_INET, .size = 24};
static Type t_ksym = {.kind = TY_KSYM, .size = 8};
static Type t_usym = {.kind = TY_USYM, .size = 16};
static Type t_kstack = {.kind = TY_KSTACK, .size = 8};
static Type t_ts = {.kind = TY_TIMESTAMP, .size = 8, .fmt = "%H"};
static Type t_tuple = {.kind = TY_TUPLE, .size = 8};
static Type t_count = {.kind = TY_COUNT, .size = 8};

static const OutCtx octx = {.fmt = OUT_TEXT, .sym = &test_syms};

/* Render fmt with n args of the given types; returns a static string. */
static const char *render(const char *fmt, int n, const Type *const *types,
			  const void *const *args)
{
	static StrBuf sb;
	Fmt f;
	int off;
	char err[128];
	sb_reset(&sb);
	if (!fmt_parse(fmt, strlen(fmt), &f, &off, err, sizeof(err)))
		return "(parse error)";
	if (f.nargs != n) {
		fmt_free(&f);
		return "(nargs)";
	}
	fmt_render(&sb, &octx, &f, types, args);
	fmt_free(&f);
	sb_putn(&sb, "", 0);
	return sb.s;
}

static const char *r_int(const char *fmt, int64_t v)
{
	static int64_t x;
	x = v;
	const Type *t[] = {&t_i64};
	const void *a[] = {&x};
	return render(fmt, 1, t, a);
}

static const char *r_str(const char *fmt, const char *s)
{
	static char x[16];
	memset(x, 0, sizeof(x));
	memcpy(x, s, strnlen(s, sizeof(x)));
	const Type *t[] = {&t_str};
	const void *a[] = {x};
	return render(fmt, 1, t, a);
}

static int nargs(const char *fmt)
{
	Fmt f;
	int off;
	char err[128];
	fmt_parse(fmt, strlen(fmt), &f, &off, err, sizeof(err));
	int n = f.nargs;
	fmt_free(&f);
	return n;
}

static void test_ints(void)
{
	CHECK_STR(r_int("<%hhu>", 300), "<44>");
	CHECK_STR(r_int("<%hhd>", 300), "<44>");
	CHECK_STR(r_int("<%hu>", 300), "<300>");
	CHECK_STR(r_int("<%hd>", 300), "<300>");
	CHECK_STR(r_int("<%u>", 300), "<300>");
	CHECK_STR(r_int("<%lu>", 300), "<300>");
	CHECK_STR(r_int("<%llu>", 300), "<300>");
	CHECK_STR(r_int("<%x>", 300), "<12c>");
	CHECK_STR(r_int("<%X>", 300), "<12C>");
	CHECK_STR(r_int("<%o>", 300), "<454>");
	CHECK_STR(r_int("<%08x>", 300), "<0000012c>");
	CHECK_STR(r_int("<%-5d>", 300), "<300  >");
	CHECK_STR(r_int("<%5.3d>", 300), "<  300>");
	CHECK_STR(r_int("<%c>", 300), "<,>");
	CHECK_STR(r_int("<%p>", 300), "<0x12c>");
	CHECK_STR(r_int("<%jd>", 300), "<300>");
	CHECK_STR(r_int("<%zd>", 300), "<300>");
	CHECK_STR(r_int("<%td>", 300), "<300>");
	CHECK_STR(r_int("<%lld>", 300), "<300>");
	CHECK_STR(r_int("<%lx>", 300), "<12c>");
	CHECK_STR(r_int("<%hhx>", 300), "<2c>");
	CHECK_STR(r_int("<%5.2x>", 300), "<  12c>");
	CHECK_STR(r_int("<%-08d>", 300), "<300     >");
	CHECK_STR(r_int("<%00d>", 7), "<7>");
	CHECK_STR(r_int("<%.12d>", 7), "<000000000007>");
	CHECK_STR(r_int("<%.0d>", 300), "<300>");
	CHECK_STR(r_int("<%lp>", 65), "<0x41>");
	CHECK_STR(r_int("<%ho>", 65), "<101>");
	CHECK_STR(r_int("<%lX>", 65), "<41>");
	CHECK_STR(r_int("<%zu>", 65), "<65>");
	CHECK_STR(r_int("<%tx>", 65), "<41>");
	CHECK_STR(r_int("<%jo>", 65), "<101>");
	CHECK_STR(r_int("<%5.2c>", 65), "<    A>");
	CHECK_STR(r_int("<%5.2p>", 65), "< 0x41>");
	CHECK_STR(r_int("<%-5p>", 65), "<0x41 >");
	CHECK_STR(r_int("<%.2c>", 65), "<A>");
}

/* printf("%d|%u|%x|%ld|%lu|%lx|%c|%hhd|%hd|%jd|%zu|%td|%o|%p|%p\n",
 *        1099511627781, -1, -1, 1099511627781, -1, -1, 0x4142, 255, 40000,
 *        -1, -1, -1, -1, -1, 0): no length modifier reads 32 bits, as C. */
static void test_widths(void)
{
	int64_t v[] = {1099511627781LL, -1, -1, 1099511627781LL, -1, -1, 0x4142, 255, 40000,
		       -1, -1, -1, -1, -1, 0};
	const Type *t[15];
	const void *a[15];
	for (int i = 0; i < 15; i++)
		t[i] = &t_i64, a[i] = &v[i];
	CHECK_STR(render("%d|%u|%x|%ld|%lu|%lx|%c|%hhd|%hd|%jd|%zu|%td|%o|%p|%p\n", 15, t, a),
		  "5|4294967295|ffffffff|1099511627781|18446744073709551615|ffffffffffffffff|B|-1|"
		  "-25536|-1|18446744073709551615|-1|37777777777|0xffffffffffffffff|(nil)\n");
	/* printf("%5c|%-3c|%c\n", 65, 66, 0): a NUL char prints nothing */
	int64_t c[] = {65, 66, 0};
	const Type *ct[] = {&t_i64, &t_i64, &t_i64};
	const void *ca[] = {&c[0], &c[1], &c[2]};
	CHECK_STR(render("%5c|%-3c|%c\n", 3, ct, ca), "    A|B  |\n");
	/* printf("%s|%d\n", "ab", (uint8)200) */
	char ab[16] = "ab";
	int64_t u = 200;
	const Type *st[] = {&t_str, &t_u8};
	const void *sa[] = {ab, &u};
	CHECK_STR(render("%s|%d\n", 2, st, sa), "ab|200\n");
}

static void test_strings(void)
{
	CHECK_STR(r_str("<%s>", "hello"), "<hello>");
	CHECK_STR(r_str("<%-s>", "hello"), "<hello>");
	CHECK_STR(r_str("<%10.3s>", "hello"), "<       hel>");
	CHECK_STR(r_str("<%.10s>", "hello"), "<hello>");
	CHECK_STR(r_str("<%0s>", "hello"), "<hello>");
	CHECK_STR(r_str("<%05s>", "hello"), "<hello>");
	CHECK_STR(r_str("<%.3s>", "hello"), "<hel>");
	CHECK_STR(r_str("<%-10s|>", "hi"), "<hi        |>");
	/* a string that fills its whole slot has no NUL */
	char full[16];
	memcpy(full, "0123456789abcdef", 16);
	const Type *t[] = {&t_str};
	const void *a[] = {full};
	CHECK_STR(render("%s|%5s", 2, (const Type *const[]){&t_str, &t_str},
			 (const void *const[]){full, full}),
		  "0123456789abcdef|0123456789abcdef");
	CHECK_STR(render("[%s]", 1, t, a), "[0123456789abcdef]");
	/* %s of other string-like values: ntop, ksym(0), usym */
	struct {
		int64_t fam;
		unsigned char b[16];
	} in = {2, {127, 0, 0, 1}};
	int64_t zero[2] = {0, 0}, addr[2] = {4096, 1};
	CHECK_STR(render("<%s>", 1, (const Type *const[]){&t_inet}, (const void *const[]){&in}),
		  "<127.0.0.1>");
	CHECK_STR(render("<%s>", 1, (const Type *const[]){&t_ksym}, (const void *const[]){zero}),
		  "<0>");
	CHECK_STR(render("%s|%s\n", 2, (const Type *const[]){&t_usym, &t_usym},
			 (const void *const[]){addr, zero}),
		  "0x1000|0\n");
}

/* %r: bare is a hex-escaped buffer; with flags it reaches C as is. */
static void test_buf(void)
{
	struct {
		int64_t n;
		char d[8];
	} b = {5, "a\nb\\\""}, abc = {3, "abc"};
	CHECK_STR(render("%r|\n", 1, (const Type *const[]){&t_buf}, (const void *const[]){&b}),
		  "a\\x0ab\\\"|\n");
	CHECK_STR(render("<%r>", 1, (const Type *const[]){&t_buf}, (const void *const[]){&abc}),
		  "<abc>");
	CHECK_STR(render("<%10r>", 1, (const Type *const[]){&t_buf}, (const void *const[]){&abc}),
		  "<%10r>");
	CHECK_STR(render("<%-r>", 1, (const Type *const[]){&t_buf}, (const void *const[]){&abc}),
		  "<%-r>");
	CHECK_STR(render("<%.2r>", 1, (const Type *const[]){&t_buf}, (const void *const[]){&abc}),
		  "<%.2r>");
}

/* bpftrace does not know %%, + # space flags, * widths: they are
 * text, so a format using them takes fewer arguments. */
static void test_not_conversions(void)
{
	const char *none[] = {"%#x", "%#o", "%+d", "% d", "%Lf", "%y", "%*d",
			      "%5", "%", "%ls", "%hs", "%lc", "%e", "%n", "%a", "%K", "%#s",
			      "%hhhd", "%lllu", "%.d", "%--5d", "%-0-5d", "%hhc", "%hc", "%lr",
			      "%hhs", "%5.d", "%ll", "%hl5d", "%-+5d", "a%%%%b", "%-%"};
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		if (nargs(none[i]) != 0)
			fprintf(stderr, "format %s\n", none[i]);
		CHECK(nargs(none[i]) == 0);
	}
	CHECK(nargs("%%d") == 1);
	CHECK(nargs("%10r") == 1);
	/* no arguments: printed untouched, %% included */
	const char *raw[] = {"<%y>\n", "<%>\n", "<100%>\n", "<%5%>\n", "<%+d>\n",
			     "<% d>\n", "<%-%>\n", "<a%%%%b>\n", "<%%%>\n", "<%hhhd>\n"};
	for (size_t i = 0; i < sizeof(raw) / sizeof(raw[0]); i++)
		CHECK_STR(render(raw[i], 0, NULL, NULL), raw[i]);
}

/* Text before a conversion goes through C printf; text after the last
 * conversion does not.  All with the argument 7. */
static void test_segments(void)
{
	CHECK_STR(r_int("<a%%b %d>", 7), "<a%b 7>");
	CHECK_STR(r_int("<%d a%%b>", 7), "<7 a%%b>");
	CHECK_STR(r_int("<%d %y>", 7), "<7 %y>");
	CHECK_STR(r_int("<%d %>", 7), "<7 %>");
	CHECK_STR(r_int("<%d %%>", 7), "<7 %%>");
	CHECK_STR(r_int("<%d 100%%>", 7), "<7 100%%>");
	/* %i is sonde's addition (bpftrace 0.17 prints it as text) */
	CHECK_STR(r_int("<%d %i>", 7), "(nargs)");
	CHECK(nargs("%i") == 1 && nargs("%li") == 1);
	CHECK_STR(r_int("<%d %5%>", 7), "<7 %5%>");
	CHECK_STR(r_int("<%%%d>", 7), "<%7>");
	CHECK_STR(r_int("<%d%%%%>", 7), "<7%%%%>");
	CHECK_STR(r_int("<%d %+d>", 7), "<7 %+d>");
	CHECK_STR(r_int("<%y %d>", 7), "<%y 7>");
	CHECK_STR(r_int("<%5% %d>", 7), "<% 7>");
	CHECK_STR(r_int("<% %d>", 7), "<%d>");
	CHECK_STR(r_int("<%-% %d>", 7), "<% 7>");
	CHECK_STR(r_int("<x% %d>", 7), "<x%d>");
}

static void test_accepts(void)
{
	Fmt f;
	int off;
	char err[64];
	fmt_parse("%d%s%p%r%c%x", 12, &f, &off, err, sizeof(err));
	CHECK(f.npieces == 6);
	const FmtPiece *d = &f.pieces[0], *s = &f.pieces[1], *p = &f.pieces[2], *r = &f.pieces[3],
		       *c = &f.pieces[4], *x = &f.pieces[5];
	CHECK(d->conv == FC_INT && s->conv == FC_STR && p->conv == FC_PTR && r->conv == FC_BUF);
	CHECK(c->conv == FC_INT && c->spec == 'c' && x->is_unsigned_conv && !d->is_unsigned_conv);
	CHECK(fmt_accepts(d, &t_i64) && !fmt_accepts(d, &t_str) && !fmt_accepts(d, &t_ksym));
	CHECK(fmt_accepts(p, &t_i64) && !fmt_accepts(p, &t_str) && !fmt_accepts(c, &t_str));
	CHECK(fmt_accepts(s, &t_str) && fmt_accepts(s, &t_inet) && fmt_accepts(s, &t_ksym));
	CHECK(fmt_accepts(s, &t_usym) && fmt_accepts(s, &t_kstack) && fmt_accepts(s, &t_ts));
	CHECK(!fmt_accepts(s, &t_i64) && !fmt_accepts(s, &t_tuple) && !fmt_accepts(s, &t_buf));
	CHECK(fmt_accepts(r, &t_buf) && !fmt_accepts(r, &t_str) && !fmt_accepts(x, &t_buf));
	CHECK_STR(fmt_expected_word(s), "string");
	CHECK_STR(fmt_expected_word(r), "buffer");
	CHECK_STR(fmt_expected_word(p), "integer");
	CHECK_STR(fmt_type_word(&t_tuple), "tuple");
	CHECK_STR(fmt_type_word(&t_ksym), "string");
	CHECK_STR(fmt_type_word(&t_count), "count"); /* bpftrace 0.17: "(count supplied)" */
	CHECK_STR(d->word, "%d");
	CHECK_STR(r->word, "%r");
	fmt_free(&f);
	/* %rx and %rh: buffers in hex */
	fmt_parse("%rx%rh", 6, &f, &off, err, sizeof(err));
	CHECK(f.npieces == 2 && f.nargs == 2 && f.pieces[0].conv == FC_BUF && f.pieces[1].conv == FC_BUF);
	CHECK(f.pieces[0].buf_mode == 'x' && f.pieces[1].buf_mode == 'h' && f.pieces[0].plain);
	CHECK_STR(f.pieces[1].word, "%rh");
	fmt_free(&f);
	/* pieces: literal, conversion, literal */
	fmt_parse("a%%b%-5ld!%%", 12, &f, &off, err, sizeof(err));
	CHECK(f.npieces == 3 && f.nargs == 1);
	CHECK_STR(f.pieces[0].text, "a%b");
	CHECK_STR(f.pieces[1].text, "%-5lld");
	CHECK_STR(f.pieces[1].word, "%ld"); /* as written, for messages */
	CHECK_STR(f.pieces[2].text, "!%%");
	fmt_free(&f);
}

/* 500,000 lines a second is the target.  The time is reported, not
 * checked: on a loaded machine wall time says nothing about the code
 * (bench/run.sh and bench/dtrace.sh time printf end to end). */
static void test_speed(void)
{
	Fmt f;
	int off;
	char err[64];
	const char *fmt = "%-6d %-16s %-6d %s\n";
	fmt_parse(fmt, strlen(fmt), &f, &off, err, sizeof(err));
	int64_t pid = 1234, fd = 3;
	char comm[16] = "bash", path[16] = "/etc/passwd";
	const Type *t[] = {&t_i64, &t_str, &t_i64, &t_str};
	const void *a[] = {&pid, comm, &fd, path};
	StrBuf sb = {0};
	struct timespec t0, t1;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	for (int i = 0; i < 500000; i++) {
		sb_reset(&sb);
		fmt_render(&sb, &octx, &f, t, a);
	}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	CHECK_STR(sb.s, "1234   bash             3      /etc/passwd\n");
	fprintf(stderr, "test_printf: 500000 renders in %.3f s of CPU\n", secs);
	sb_free(&sb);
	fmt_free(&f);
}

int main(void)
{
	test_ints();
	test_widths();
	test_strings();
	test_buf();
	test_not_conversions();
	test_segments();
	test_accepts();
	test_speed();
	return check_done("test_printf");
}
