/* C types: the C-declaration parser (layouts, errors with locations) and
 * the BTF import (task_struct's members against libbpf's raw BTF). */
#include <bpf/btf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "syms_check.h"
#include "lang/cdecl_int.h"
#include "lang/ctypes.h"

static Arena arena;

static CDefs *parse(const char *text, Error *err)
{
	CDefs *d = arena_alloc(&arena, sizeof(CDefs));
	d->arena = &arena;
	d->sym = &test_syms;
	memset(err, 0, sizeof(*err));
	if (!cdefs_parse(d, text, (Loc){1, 1, 1}, NULL, (Loc){0}, err))
		return NULL;
	return d;
}

static const Field *field(Type *rec, const char *name)
{
	int n;
	const Field *f = type_fields(rec, &n);
	for (int i = 0; i < n; i++)
		if (!strcmp(f[i].name, name))
			return &f[i];
	return NULL;
}

static void test_layout(void)
{
	Error e;
	CDefs *d = parse("#define N (2 * 4)\n"
			 "enum color { RED, GREEN = 5, BLUE };\n"
			 "struct in { short x; char c; };\n"
			 "typedef struct in in_t;\n"
			 "struct foo { int a; char name[10]; long c; unsigned d:3, e:5; int arr[3];\n"
			 "  struct foo *next; union { int u1; char u2; }; in_t ins[N]; enum color col;\n"
			 "  struct { int deep; } named; void (*fn)(int); }\n"
			 "struct nosemi { char c; unsigned long x }\n"
			 "struct chars { char s[4]; unsigned char u[4]; }\n"
			 "BEGIN { }", &e);
	CHECK(d != NULL);
	if (!d) {
		fprintf(stderr, "%s\n", e.msg);
		return;
	}
	Type *foo = cdefs_find(d, CN_STRUCT, "foo");
	CHECK(foo && foo->kind == TY_RECORD);
	if (!foo)
		return;
	CHECK(foo->size == 104);
	Type *nosemi = cdefs_find(d, CN_STRUCT, "nosemi"); /* last member without ';' */
	CHECK(nosemi && nosemi->size == 16 && field(nosemi, "x")->offset == 8);
	Type *chars = cdefs_find(d, CN_STRUCT, "chars"); /* char[N] a string, unsigned an array */
	CHECK(chars && field(chars, "s")->type->kind == TY_STR && field(chars, "u")->type->kind == TY_ARRAY);
	CHECK(field(foo, "name")->offset == 4 && field(foo, "name")->type->kind == TY_STR);
	CHECK(field(foo, "c")->offset == 16);
	CHECK(field(foo, "d")->offset == 24 && field(foo, "d")->bit_width == 3);
	CHECK(field(foo, "e")->offset == 24 && field(foo, "e")->bit_off == 3);
	CHECK(field(foo, "arr")->offset == 28 && field(foo, "arr")->type->count == 3);
	CHECK(field(foo, "next")->offset == 40 && field(foo, "next")->type->pointee == foo);
	CHECK(field(foo, "ins")->offset == 52 && field(foo, "ins")->type->count == 8);
	CHECK(field(foo, "col")->offset == 84);
	CHECK(field(foo, "named")->offset == 88);
	CHECK(field(foo, "fn")->offset == 96);
	int64_t v;
	CHECK(cdefs_const(d, "BLUE", &v) && v == 6);
	CHECK(cdefs_const(d, "N", &v) && v == 8);
	Type *in = cdefs_find(d, CN_TYPEDEF, "in_t");
	CHECK(in && in->size == 4);
	char buf[64];
	CHECK_STR(type_name(field(foo, "next")->type, buf, sizeof(buf)), "struct foo *");
	char err[200];
	Type *t = ctype_parse_name(d, &arena, "struct foo *", err, sizeof(err));
	CHECK(t && t->pointee == foo);
	t = ctype_parse_name(d, &arena, "int64 *", err, sizeof(err));
	CHECK(t && type_is_ptr(t) && t->pointee->bits == 64);
	char sug[100];
	ctype_suggest(foo, "nmae", sug, sizeof(sug));
	CHECK(strstr(sug, "'name'") != NULL);
}

typedef struct Bad {
	const char *text;
	int line, col;
	const char *msg;
} Bad;

static const Bad bad[] = {
	{"struct a { int x int y; }\n", 1, 18, "expected ';' after a member, found 'int'"},
	{"struct a { int x; int x; };", 1, 23, "duplicate member 'x'"},
	{"struct a { foo_t x; };", 1, 12, "unknown type 'foo_t'"},
	{"struct a { int f(int); };", 1, 16, "function declarations are not supported"},
	{"#define MAX(a, b) a\n", 1, 9, "macros with arguments are not supported"},
	{"typedef int f(void) { return 1; }", 1, 13, "function declarations are not supported"},
	{"struct a { int x[-1]; };", 1, 17, "array size -1 is out of range"},
	{"struct a { int x : 40; };", 1, 16, "bitfield 'x' is wider (40 bits) than its type"},
	{"struct a { struct b y; };", 1, 21, "member 'y' has incomplete type struct b"},
	{"struct a { int x; /* open", 1, 19, "unterminated comment"},
	{"enum e { A = B };", 1, 14, "'B' is not a constant"},
	{"#include \"no/such.h\"\n", 1, 1, "#include \"no/such.h\": no such file"},
	{"#pragmaX\n", 1, 2, "unsupported preprocessor directive"},
	{"#include <no/such/x.h>\n", 1, 10, "'no/such/x.h' file not found"},
	{"#define A 1\n#ifdef A\nstruct a { int x; };\n", 2, 1, "unterminated conditional directive"},
	{"#endif\n", 1, 1, "#endif without #if"},
	{"#ifdef\n#endif\n", 1, 1, "#ifdef needs a macro name"},
	{"#ifndef NOPE\n#error stop here\n#endif\n", 2, 1, "#error stop here"},
	{"#if 1 +\n#endif\n", 1, 8, "expected a constant, found end of input"},
	{"struct a { int x; }; struct a { int y; };", 1, 29, "struct a is defined twice"},
	{"struct a { int x; @", 1, 19, "unexpected character '@'"},
};

static void test_errors(void)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		Error e;
		CDefs *d = parse(bad[i].text, &e);
		CHECK(d == NULL);
		if (d || strncmp(e.msg, bad[i].msg, strlen(bad[i].msg)) || e.loc.line != bad[i].line ||
		    e.loc.col != bad[i].col) {
			check_failed++;
			fprintf(stderr, "FAIL: %s\n  got:  %d:%d: %s\n  want: %d:%d: %s\n", bad[i].text,
				e.loc.line, e.loc.col, e.msg, bad[i].line, bad[i].col, bad[i].msg);
		} else {
			check_passed++;
		}
	}
}

/* #if/#ifdef/#ifndef/#elif/#else: branches not taken are skipped whole
 * (an #include there is never opened) */
static void test_conditionals(void)
{
	Error e;
	CDefs *d = parse("#define A\n#ifdef A\n#define X 1\n#else\n#define X 2\n#endif\n"
			 "#if defined(A) && X == 1 || 0\n#define Y 3\n#elif 1\n#define Y 4\n#endif\n"
			 "#ifdef NOPE\n#ifdef A\n#define Z 1\n#endif\n#include <no/such.h>\n"
			 "struct s { int x; };\n#elif !defined NOPE && X >= 1\n#define Z 2\n#else\n"
			 "#define Z 3\n#endif\n#undef X\n#ifndef X\nstruct s { int y; };\n#endif\n", &e);
	CHECK(d != NULL);
	if (!d) {
		fprintf(stderr, "%s\n", e.msg);
		return;
	}
	int64_t v;
	CHECK(cdefs_const(d, "Y", &v) && v == 3);
	CHECK(cdefs_const(d, "Z", &v) && v == 2);
	CHECK(!cdefs_const(d, "X", &v) && cdefs_defined(d, "A") && !cdefs_defined(d, "X"));
	Type *s = cdefs_find(d, CN_STRUCT, "s");
	CHECK(s && field(s, "y") && !field(s, "x"));
}

/* <system> headers: their #define constants, evaluated on use */
static void test_system_header(void)
{
	char path[256];
	CDefs none = {0};
	if (!cd_system_header(&none, "sys/socket.h", path, sizeof(path))) {
		printf("no sys/socket.h: system header checks skipped\n");
		return;
	}
	Error e;
	CDefs *d = parse("#include <sys/socket.h>\n#include <fcntl.h>\n", &e);
	CHECK(d != NULL);
	int64_t v;
	CHECK(d && cdefs_const(d, "AF_INET", &v) && v == 2);
	CHECK(d && cdefs_const(d, "AF_INET6", &v) && v == 10);
	CHECK(d && cdefs_const(d, "O_CREAT", &v) && v == 0100);
	/* glibc's enumerators (SOCK_NONBLOCK is an enumerator plus a
	 * self-referring #define), auto-incremented ones too (SHUT_WR) */
	CHECK(d && cdefs_const(d, "SOCK_NONBLOCK", &v) && v == 04000);
	CHECK(d && cdefs_const(d, "SHUT_WR", &v) && v == 1);
}

/* D's declarations (cdefs_parse_decls), as a header's text reaches them
 * after cpp: externs and prototypes accepted, a function's body skipped,
 * gcc's words and types, packed records, constants with sizeof and casts */
static void test_d_decls(void)
{
	Error e = {0};
	CDefs *d = arena_alloc(&arena, sizeof(CDefs));
	d->arena = &arena;
	d->sym = &test_syms;
	bool ok = cdefs_parse_decls(d,
		"extern int daylight;\n"
		"extern char *strcpy (char *__restrict __dest, const char *__restrict __src)\n"
		"     __attribute__ ((__nothrow__)) __asm__ (\"\" \"strcpy\");\n"
		"int getentropy (void *__buffer, unsigned long __length);\n"
		"static inline unsigned short __bswap_16 (unsigned short __bsx)\n"
		"{ return ((__bsx >> 8) & 0xff) | ((__bsx & 0xff) << 8); }\n"
		"__extension__ typedef long long int quad_t;\n"
		"typedef long double _Float64x; typedef __builtin_va_list va_list;\n"
		"typedef struct { unsigned long v[(1024 / (8 * sizeof (unsigned long int)))]; } sigset_t;\n"
		"typedef struct { long fds[1024 / (8 * (int) sizeof (long))]; } fd_set;\n"
		"struct pk { char a; int b; short c; } __attribute__((packed));\n"
		"struct flex { int n; struct { } empty; int v[]; };\n"
		"_Static_assert (sizeof (int) == 4, \"int\");\n"
		"typedef void sighandler_fn (int);\n"
		"typedef unsigned __int128 u128; typedef double _Complex cdouble;\n"
		"enum { ISUPPER = (0) < 8 ? ((1 << (0)) << 8) : ((1 << (0)) >> 8) };\n", &e);
	CHECK(ok);
	if (!ok) {
		fprintf(stderr, "%d:%d: %s\n", e.loc.line, e.loc.col, e.msg);
		return;
	}
	Type *t;
	CHECK((t = cdefs_find(d, CN_TYPEDEF, "quad_t")) && type_csize(t) == 8);
	CHECK((t = cdefs_find(d, CN_TYPEDEF, "_Float64x")) && t->size == 16);
	CHECK((t = cdefs_find(d, CN_TYPEDEF, "va_list")) && t->size == 24);
	CHECK((t = cdefs_find(d, CN_TYPEDEF, "sigset_t")) && t->size == 128);
	CHECK((t = cdefs_find(d, CN_TYPEDEF, "fd_set")) && t->size == 128);
	CHECK((t = cdefs_find(d, CN_STRUCT, "pk")) && t->size == 7 && field(t, "c")->offset == 5);
	CHECK((t = cdefs_find(d, CN_STRUCT, "flex")) && t->size == 4 && field(t, "v")->offset == 4);
	CHECK((t = cdefs_find(d, CN_TYPEDEF, "u128")) && t->size == 16);
	CHECK((t = cdefs_find(d, CN_TYPEDEF, "cdouble")) && t->size == 16);
	int64_t v;
	CHECK(cdefs_const(d, "ISUPPER", &v) && v == 256);
	static const struct {
		const char *text, *msg;
		int line, col;
	} bad[] = {
		{"static int x;", "specified storage class not appropriate in D", 1, 1},
		{"\nint;", "useless declaration", 2, 1},
		{"extern int f(int) { return 1;", "unterminated function body", 1, 19},
		{"typedef struct { int a[sizeof(struct nope)]; } t;", "sizeof of an incomplete type", 1, 31},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CDefs *b = arena_alloc(&arena, sizeof(CDefs));
		b->arena = &arena;
		b->sym = &test_syms;
		memset(&e, 0, sizeof(e));
		CHECK(!cdefs_parse_decls(b, bad[i].text, &e));
		if (strcmp(e.msg, bad[i].msg) || e.loc.line != bad[i].line || e.loc.col != bad[i].col)
			fprintf(stderr, "FAIL: %s\n  got:  %d:%d: %s\n  want: %d:%d: %s\n", bad[i].text,
				e.loc.line, e.loc.col, e.msg, bad[i].line, bad[i].col, bad[i].msg);
		CHECK(!strcmp(e.msg, bad[i].msg) && e.loc.line == bad[i].line && e.loc.col == bad[i].col);
	}
}

/* BTF import: task_struct members, against libbpf's own reading */
static void test_btf(void)
{
	if (access(BTF_VMLINUX, R_OK) != 0) {
		printf("no %s: BTF checks skipped\n", BTF_VMLINUX);
		return;
	}
	Type *ts = btf_find_type(&test_syms, "struct", "task_struct");
	CHECK(ts && ts->kind == TY_RECORD);
	if (!ts)
		return;
	struct btf *raw = btf__parse(BTF_VMLINUX, NULL);
	int id = btf__find_by_name_kind(raw, "task_struct", BTF_KIND_STRUCT);
	const struct btf_type *bt = btf__type_by_id(raw, (__u32)id);
	CHECK(ts->size == (int)bt->size);
	const char *names[] = {"pid", "tgid", "comm", "real_parent", "files", "mm"};
	const struct btf_member *m = btf_members(bt);
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		int want = -1;
		for (int i = 0; i < btf_vlen(bt); i++)
			if (!strcmp(btf__name_by_offset(raw, m[i].name_off), names[k]))
				want = (int)btf_member_bit_offset(bt, (__u32)i) / 8;
		const Field *f = field(ts, names[k]);
		CHECK(f && f->offset == want);
	}
	CHECK(field(ts, "comm")->type->kind == TY_STR && field(ts, "comm")->type->size == 16);
	CHECK(type_is_ptr(field(ts, "real_parent")->type) &&
	      field(ts, "real_parent")->type->pointee->kind == TY_RECORD);
	CHECK(field(ts, "pid")->type->bits == 32 && field(ts, "pid")->type->is_signed);
	/* lazy: the same struct by name, resolved on first use */
	Type *lz = btf_lazy_record(&test_syms, "struct", "task_struct");
	CHECK(type_record_size(lz) == ts->size);
	/* a kernel typedef in a script's struct */
	Error e;
	CDefs *d = parse("struct s { u32 a; pid_t p; struct task_struct *t; struct list_head l; }", &e);
	CHECK(d != NULL);
	if (!d)
		fprintf(stderr, "%s\n", e.msg);
	if (d) {
		Type *s = cdefs_find(d, CN_STRUCT, "s");
		CHECK(s->size == 32 && field(s, "l")->offset == 16);
	}
	btf__free(raw);
	/* -lv: a struct pointer's layout, one member a line; nothing for others */
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	ctype_print_layout(&test_syms, fp, "const struct task_struct *", "  ");
	ctype_print_layout(&test_syms, fp, "int", "  ");
	ctype_print_layout(&test_syms, fp, "struct nosuch_zz *", "  ");
	fclose(fp);
	char want[64];
	snprintf(want, sizeof(want), "\n  +%-5d int32 pid\n", field(ts, "pid")->offset);
	CHECK(buf && strstr(buf, want) && strstr(buf, " comm\n") && buf[0] == ' ');
	free(buf);
}

int main(void)
{
	test_layout();
	test_errors();
	test_conditionals();
	test_system_header();
	test_d_decls();
	test_btf();
	arena_free(&arena);
	return check_done("test_ctypes");
}
