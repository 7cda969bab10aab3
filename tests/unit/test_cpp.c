/* The text preprocessor of `sonde dtrace -C` (src/lang/cpp.h): expansions,
 * line map and errors; then a differential run of the cases in tests/dtrace/cpp
 * through cpp(1) -P and sonde's, compared token for token (skipped, with
 * a message, when cpp is not installed).
 * `test_cpp FILE` prints sonde's preprocessed FILE (for looking at one). */
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "lang/cpp.h"

static const CppOpts plain = {0};

/* the output of text, or the error as "LINE:COL: MSG" */
static char *pp(const char *text)
{
	CppOut out;
	CppError err;
	static char buf[1024];
	if (!cpp_run(text, "t.d", &plain, &out, &err)) {
		snprintf(buf, sizeof(buf), "%d:%d: %s", err.line, err.col, err.msg);
		return buf;
	}
	snprintf(buf, sizeof(buf), "%s", out.text);
	cpp_out_free(&out);
	return buf;
}

static void test_expansions(void)
{
	CHECK_STR(pp("#define MAX(a,b) ((a)>(b)?(a):(b))\nx = MAX(1, y);"), "\nx = ((1)>(y)?(1):(y));\n");
	CHECK_STR(pp("#define S(x) #x\nS(a \"b\" c)"), "\n\"a \\\"b\\\" c\"\n");
	CHECK_STR(pp("#define C(a,b) a##b\nC(self,x) C(,y) C(z,)"), "\nselfx y z\n");
	CHECK_STR(pp("#define f f + 1\nf"), "\nf + 1\n");
	CHECK_STR(pp("#define NEG -1\n-NEG"), "\n- -1\n");
	CHECK_STR(pp("#define P syscall\nP::read:entry"), "\nsyscall::read:entry\n");
	CHECK_STR(pp("#define V(f, ...) f(__VA_ARGS__)\nV(g, 1, 2) V(h)"), "\ng(1, 2) h()\n");
	CHECK_STR(pp("#define X 1\n\"X\" /* X */ X"), "\n\"X\" 1\n");
	CHECK_STR(pp("#if defined(A) || 2 > 1\nyes\n#else\nno\n#endif"), "\nyes\n");
	CHECK_STR(pp("a\n\n\nb __LINE__"), "a\n\n\nb 4\n");
}

static void test_errors(void)
{
	CHECK_STR(pp("#define F(a,b) a\nF(1"), "2:4: unterminated argument list invoking macro \"F\"");
	CHECK_STR(pp("#define F(a,b) a\nF(1)"), "2:4: macro \"F\" requires 2 arguments, but only 1 given");
	CHECK_STR(pp("#define F(a) a\nF(1,\n2)"), "3:2: macro \"F\" passed 2 arguments, but takes just 1");
	CHECK_STR(pp("\n#error stop here"), "2:2: #error stop here");
	CHECK_STR(pp("#if 1\n"), "1:0: unterminated #if");
	CHECK_STR(pp("#include \"no-such.h\""), "1:10: no-such.h: No such file or directory");
	CHECK_STR(pp("#foo"), "1:2: invalid preprocessing directive #foo");
	/* cpp goes on after a misplaced #else: every one is reported */
	CppOut out;
	CppError err;
	CHECK(!cpp_run("#if 1\n#else\n#else\n#endif\n#else\nx\n", "t.d", &plain, &out, &err));
	CHECK(err.line == 3 && !strcmp(err.msg, "#else after #else"));
	CHECK_STR(err.more, "t.d:1: error: the conditional began here\n    1 | #if 1\n      | \n"
			    "t.d:5:2: error: #else without #if\n    5 | #else\n      |  ^~~~\n");
}

/* limits: errors, never a crash or a run without end */
static void test_limits(void)
{
	StrBuf b = {0};
	sb_puts(&b, "#define f(x) x\n");
	for (int i = 0; i < 2000; i++)
		sb_puts(&b, "f(");
	for (int i = 0; i < 2000; i++)
		sb_putc(&b, ')');
	CHECK(strstr(pp(b.s), "macro expansion ") != NULL); /* too large or too deep */
	sb_reset(&b);
	/* each macro doubles the one before: 2^40 tokens */
	sb_puts(&b, "#define a0 x x\n");
	for (int i = 1; i <= 40; i++)
		sb_printf(&b, "#define a%d a%d a%d\n", i, i - 1, i - 1);
	sb_puts(&b, "a40\n");
	CHECK(strstr(pp(b.s), "macro expansion too large") != NULL);
	sb_reset(&b);
	sb_puts(&b, "#if ");
	for (int i = 0; i < 5000; i++)
		sb_putc(&b, '(');
	CHECK(strstr(pp(b.s), "#if expression nested more than 256 deep") != NULL);
	sb_free(&b);
}

/* an #include'd file's lines map back to it */
static void test_line_map(void)
{
	char dir[] = "/tmp/test_cppXXXXXX";
	if (!mkdtemp(dir))
		return;
	char path[256];
	snprintf(path, sizeof(path), "%s/inc.h", dir);
	FILE *f = fopen(path, "w");
	fputs("#define ONE 1\nint_in_header\n", f);
	fclose(f);
	const char *inc[] = {dir};
	CppOpts o = {.include_dirs = inc, .ninclude_dirs = 1};
	CppOut out;
	CppError err;
	CHECK(cpp_run("a\n#include <inc.h>\nb ONE\n", "t.d", &o, &out, &err));
	CppLine l = cpp_origin(&out, 1);
	CHECK(l.line == 1 && !strcmp(l.file, "t.d"));
	int n = 0;
	for (int i = 1; i <= out.nlines; i++) {
		l = cpp_origin(&out, i);
		n += l.line == 2 && !strcmp(l.file, path);
	}
	CHECK(n == 1);
	CHECK(strstr(out.text, "int_in_header") && strstr(out.text, "b 1"));
	l = cpp_origin(&out, out.nlines);
	CHECK(l.line == 3 && !strcmp(l.file, "t.d"));
	cpp_out_free(&out);
	unlink(path);
	rmdir(dir);
}

/* a header whose first #ifndef closes before its end (glibc's
 * bits/typesizes.h) is read again under another guard; a wide character
 * in #if; <stddef.h> from sonde's own, part of it on request */
static void test_headers(void)
{
	char dir[] = "/tmp/test_cppXXXXXX";
	if (!mkdtemp(dir))
		return;
	char path[256];
	snprintf(path, sizeof(path), "%s/sizes.h", dir);
	FILE *f = fopen(path, "w");
	fputs("#ifndef OUTER\n#error no\n#endif\n#ifndef SIZES\n#define SIZES\nsizes_read\n#endif\n", f);
	fclose(f);
	const char *inc[] = {dir};
	CppOpts o = {.include_dirs = inc, .ninclude_dirs = 1, .system_headers = true};
	CppOut out;
	CppError err;
	CHECK(cpp_run("#define OUTER\n#include <sizes.h>\n", "t.d", &o, &out, &err));
	CHECK(strstr(out.text, "sizes_read") != NULL);
	cpp_out_free(&out);
	CHECK(cpp_run("#if L'\\0' - 1 > 0\nunsigned\n#else\nsigned\n#endif\n", "t.d", &o, &out, &err));
	CHECK(strstr(out.text, "signed") && !strstr(out.text, "unsigned"));
	cpp_out_free(&out);
	CHECK(cpp_run("#define __need_size_t\n#include <stddef.h>\n", "t.d", &o, &out, &err));
	CHECK(strstr(out.text, "size_t") && !strstr(out.text, "ptrdiff_t"));
	cpp_out_free(&out);
	CHECK(cpp_run("#include <stddef.h>\n#include <stdarg.h>\nNULL", "t.d", &o, &out, &err));
	CHECK(strstr(out.text, "ptrdiff_t") && strstr(out.text, "__builtin_va_list") &&
	      strstr(out.text, "((void *)0)"));
	cpp_out_free(&out);
	unlink(path);
	rmdir(dir);
}

/* white space between tokens only where it separates two word characters
 * or two punctuators: what cpp and sonde may write differently */
static char *normalize(const char *s)
{
	char *o = malloc(strlen(s) + 1), *p = o;
	char prev = 0;
	bool gap = false;
	for (; *s; s++) {
		if (isspace((unsigned char)*s)) {
			gap = true;
			continue;
		}
		bool w = isalnum((unsigned char)*s) || *s == '_', pw = isalnum((unsigned char)prev) || prev == '_';
		if (gap && prev && w == pw)
			*p++ = ' ';
		*p++ = *s;
		prev = *s;
		gap = false;
	}
	*p = 0;
	return o;
}

/* a command's output, or NULL if it failed */
static char *run_cmd(const char *cmd)
{
	FILE *f = popen(cmd, "r");
	StrBuf b = {0};
	char buf[4096];
	size_t n;
	while (f && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		sb_putn(&b, buf, n);
	if (f && pclose(f) != 0) {
		sb_free(&b);
		return NULL;
	}
	return b.s ? b.s : xstrdup("");
}

static char *run_cpp(const char *path)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "cpp -P -undef -std=c99 -D__SUNW_D=1 -D__linux %s 2>/dev/null", path);
	return run_cmd(cmd);
}

static void diff_one(const char *path)
{
	char *text = read_file_all(path, NULL), *want = run_cpp(path);
	const char *defs[] = {"D__SUNW_D=1", "D__linux"};
	CppOpts o = {.defines = defs, .ndefines = 2};
	CppOut out;
	CppError err;
	if (!text || !want || !cpp_run(text, path, &o, &out, &err)) {
		fprintf(stderr, "%s: %s\n", path, want ? err.msg : "cpp failed");
		CHECK(!"preprocessed");
	} else {
		char *a = normalize(want), *b = normalize(out.text);
		if (strcmp(a, b))
			fprintf(stderr, "%s differs:\n  cpp:   %s\n  sonde: %s\n", path, a, b);
		CHECK(!strcmp(a, b));
		free(a);
		free(b);
		cpp_out_free(&out);
	}
	free(text);
	free(want);
}

static void test_against_cpp(void)
{
	if (system("cpp --version >/dev/null 2>&1") != 0) {
		printf("cpp(1) is not installed (Debian package cpp): differential cases skipped\n");
		return;
	}
	DIR *d = opendir("tests/dtrace/cpp");
	struct dirent *e;
	int n = 0;
	while (d && (e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l < 3 || strcmp(e->d_name + l - 2, ".d"))
			continue;
		char path[512];
		snprintf(path, sizeof(path), "tests/dtrace/cpp/%s", e->d_name);
		diff_one(path);
		n++;
	}
	if (d)
		closedir(d);
	CHECK(n > 0);
}

/* system headers read whole (dtrace -C): the same tokens as gcc's cpp
 * with __GNUC__ undefined, as dtrace runs it */
static void test_system_against_cpp(void)
{
	static const char *const headers[] = {"sys/types.h", "sys/socket.h", "netinet/in.h",
					      "sys/stat.h", "time.h", "stdint.h", "linux/types.h"};
	if (system("cpp --version >/dev/null 2>&1") != 0 || access("/usr/include/stdio.h", R_OK) != 0) {
		printf("cpp(1) or glibc's headers not installed: system header cases skipped\n");
		return;
	}
	CppOpts o = {.predefine = true, .system_headers = true};
	for (size_t i = 0; i < sizeof(headers) / sizeof(headers[0]); i++) {
		char text[128], cmd[256];
		snprintf(text, sizeof(text), "#include <%s>\n", headers[i]);
		snprintf(cmd, sizeof(cmd), "printf '%%s' '%s' | cpp -P -std=gnu99 -U__GNUC__ 2>/dev/null", text);
		char *want = run_cmd(cmd);
		CppOut out;
		CppError err;
		if (!want || !cpp_run(text, "t.d", &o, &out, &err)) {
			fprintf(stderr, "%s: %s\n", headers[i], want ? err.msg : "cpp failed");
			CHECK(!"preprocessed");
			free(want);
			continue;
		}
		char *a = normalize(want), *b = normalize(out.text);
		if (strcmp(a, b))
			fprintf(stderr, "<%s> differs from cpp's\n", headers[i]);
		CHECK(!strcmp(a, b));
		free(a);
		free(b);
		free(want);
		cpp_out_free(&out);
	}
}

int main(int argc, char **argv)
{
	if (argc == 2) {
		char *text = read_file_all(argv[1], NULL);
		CppOut out;
		CppError err;
		if (!text || !cpp_run(text, argv[1], &(CppOpts){.predefine = true}, &out, &err)) {
			if (text)
				cpp_error_print(stderr, &err);
			return 1;
		}
		fputs(out.text, stdout);
		cpp_out_free(&out);
		free(text);
		return 0;
	}
	test_expansions();
	test_errors();
	test_limits();
	test_line_map();
	test_headers();
	test_against_cpp();
	test_system_against_cpp();
	return check_done("cpp");
}
