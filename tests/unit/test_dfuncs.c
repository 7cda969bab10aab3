/* D subroutines (compile/dfunc_*.c): compiled in the D dialect and run on
 * the real kernel (BEGIN through BPF_PROG_TEST_RUN), their printed results
 * compared with what DTrace gives; the type errors in DTrace's words; and
 * that a bpftrace script does not see them.  The runtime part needs root
 * (skipped otherwise); tests/dtrace has the same cases as D scripts. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "syms_check.h"
#include "compile/script.h"
#include "compile/sema.h"
#include "bt/generation_bt.h"
#include "runtime/runtime.h"
#include "dtrace/runtime_d.h"
#include "dtrace/dtrace.h"

static bool unsafe;          /* -w */
static int nspec, specsize;   /* -x nspec, -x specsize (0: DTrace's) */

static const Frontend *bt017(void) { return &bt_generation_named("0.17")->fe; }

/* text parsed by bpftrace 0.17's grammar, compiled by fe's hooks */
static Script *compile_d(const char *text, Program **prog, Error *err, const Frontend *fe,
			 int strsize)
{
	Source src = {"test", text};
	*prog = parse_program_opts(&src, bt017()->parse, err);
	if (!*prog)
		return NULL;
	Options o = {.sym = &test_syms, .strlen_max = strsize, .map_keys_max = 4096,
		     .self_pid = getpid(), .unsafe = unsafe, .nspec = nspec,
		     .specsize = specsize};
	frontend_use(fe, &o, NULL);
	return compile_program(*prog, &o, err);
}

/* The output of running `text` (its BEGIN ends with exit(0)), or NULL. */
static char *run_d(const char *text, int strsize)
{
	Program *prog;
	Error err = {0};
	Script *sc = compile_d(text, &prog, &err, &d_frontend, strsize);
	if (!sc) {
		fprintf(stderr, "compile failed: %s\n  %s\n", err.msg, text);
		program_free(prog);
		return NULL;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	RunOpts ro = {.quiet = true, .out = f, .cat_bytes_max = 10240,
		      .fe = d_frontend.rt};
	int rc = runtime_run(sc, &ro);
	fclose(f);
	script_free(sc);
	program_free(prog);
	if (rc) {
		free(buf);
		return NULL;
	}
	if (len && buf[len - 1] == '\n') /* the newline dtrace(1) ends every run with */
		buf[len - 1] = 0;
	return buf;
}

static void expect_out(const char *body, const char *want)
{
	char text[2048];
	snprintf(text, sizeof(text), "BEGIN { %s exit(0); }", body);
	char *got = run_d(text, 256);
	CHECK_STR(got, want);
	if (!got || strcmp(got, want))
		fprintf(stderr, "  program: %s\n", text);
	free(got);
}

/* printf("%s|", f(...)) for each case, one line */
static void test_strings(void)
{
	expect_out("printf(\"%d %d %d\\n\", strlen(\"hello\"), strlen(\"\"), strlen(\"0123456789\"));",
		   "5 0 10\n");
	expect_out("printf(\"%s|%s|%s|\\n\", strjoin(\"foo\", \"bar\"), strjoin(\"\", \"x\"), "
		   "strjoin(\"x\", \"\"));", "foobar|x|x|\n");
}

static void test_substr(void)
{
	expect_out("printf(\"%s|%s|%s|%s|%s|%s|%s|%s|\\n\", substr(\"hello\", 1), "
		   "substr(\"hello\", 1, 3), substr(\"hello\", -2), substr(\"hello\", -7, 3), "
		   "substr(\"hello\", 10), substr(\"hello\", 1, -1), substr(\"hello\", 0, 0), "
		   "substr(\"hello\", -9));",
		   "ello|ell|lo|h||ell||hello|\n");
}

static void test_index(void)
{
	expect_out("printf(\"%d %d %d %d %d\\n\", index(\"hello\", \"l\"), rindex(\"hello\", \"l\"), "
		   "index(\"hello\", \"z\"), index(\"hello\", \"l\", 3), rindex(\"hello\", \"l\", 2));",
		   "2 3 -1 3 2\n");
	expect_out("printf(\"%d %d %d %d %d %d\\n\", index(\"\", \"\"), index(\"abc\", \"\", 5), "
		   "rindex(\"abc\", \"\", -1), rindex(\"abc\", \"\"), index(\"abc\", \"abcd\"), "
		   "rindex(\"abcabc\", \"bc\", 100));",
		   "0 3 0 3 -1 4\n");
	expect_out("printf(\"%s|%s|%s|%s|%s|\\n\", strstr(\"hello\", \"ll\"), strstr(\"hello\", \"z\"), "
		   "strchr(\"hello\", 108), strrchr(\"hello\", 108), strchr(\"hello\", 122));",
		   "llo||llo|lo||\n");
}

static void test_paths(void)
{
	expect_out("printf(\"%s|%s|%s|%s|%s|%s|%s|\\n\", basename(\"/usr/bin/sh\"), basename(\"/\"), "
		   "basename(\"\"), basename(\"a\"), basename(\"a/b/\"), basename(\"///\"), "
		   "basename(\"/a\"));",
		   "sh|/|.|a|b|/|a|\n");
	expect_out("printf(\"%s|%s|%s|%s|%s|%s|%s|\\n\", dirname(\"/usr/bin/sh\"), dirname(\"/\"), "
		   "dirname(\"\"), dirname(\"a\"), dirname(\"a/b/\"), dirname(\"//a//b//\"), "
		   "dirname(\"/a\"));",
		   "/usr/bin|/|.|.|a|//a|/|\n");
}

static void test_case_lltostr(void)
{
	expect_out("printf(\"%s|%s|\\n\", toupper(\"Hello, world!\"), tolower(\"HeLLo [Z]\"));",
		   "HELLO, WORLD!|hello [z]|\n");
	expect_out("printf(\"%s|%s|%s|%s|%s|%s|%s|\\n\", lltostr(123), lltostr(-45), lltostr(0), "
		   "lltostr(255, 16), lltostr(8, 8), lltostr(5, 2), lltostr(0, 16));",
		   "123|-45|0|0xff|010|101|0x0|\n");
	expect_out("printf(\"%s|%s|\\n\", lltostr(-9223372036854775807 - 1), "
		   "lltostr(-1, 16));",
		   "-9223372036854775808|0xffffffffffffffff|\n");
}

/* strjoin keeps strsize - 1 bytes */
static void test_truncation(void)
{
	char *got = run_d("BEGIN { printf(\"%s|\\n\", strjoin(\"abcdef\", \"ghijkl\")); exit(0); }", 8);
	CHECK_STR(got, "abcdefg|\n");
	free(got);
}

static const struct {
	const char *prog, *msg;
} d_errs[] = {
	{"BEGIN { @ = strlen(1); }",
	 "strlen( ) argument #1 is incompatible with prototype:\n\tprototype: const char *\n"
	 "\t argument: int"},
	{"BEGIN { @ = strlen(\"a\", \"b\"); }", "strlen( ) prototype mismatch: 2 args passed, 1 expected"},
	{"BEGIN { @ = substr(\"a\"); }", "substr( ) prototype mismatch: 1 arg passed, at least 2 expected"},
	{"BEGIN { @ = substr(\"a\", \"b\"); }",
	 "substr( ) argument #2 is incompatible with prototype:\n\tprototype: int\n\t argument: string"},
	{"BEGIN { @ = lltostr(1, 40); }", "lltostr( ) base must be from 2 to 36"},
};

static void test_errors(void)
{
	for (size_t i = 0; i < sizeof(d_errs) / sizeof(d_errs[0]); i++) {
		Program *prog;
		Error err = {0};
		Script *sc = compile_d(d_errs[i].prog, &prog, &err, &d_frontend, 256);
		CHECK(sc == NULL);
		CHECK_STR(err.msg, d_errs[i].msg);
		script_free(sc);
		program_free(prog);
	}
	/* bpftrace's language does not have them */
	Program *prog;
	Error err = {0};
	Script *sc = compile_d("BEGIN { @ = strlen(\"a\"); }", &prog, &err, bt017(), 64);
	CHECK(sc == NULL);
	CHECK_STR(err.msg, "Unknown function: strlen");
	script_free(sc);
	program_free(prog);
	Error err2 = {0};
	sc = compile_d("BEGIN { @ = strtoll(\"1\"); }", &prog, &err2, bt017(), 64);
	CHECK(sc == NULL);
	CHECK_STR(err2.msg, "Unknown function: strtoll");
	script_free(sc);
	program_free(prog);
}

static void test_misc(void)
{
	expect_out("printf(\"%x %x %llx %x %x %llx\\n\", htons(0x1234), htonl(0x12345678), "
		   "htonll(0x0102030405060708), ntohs(0xabcd12), ntohl(1), ntohll(0xff));",
		   "3412 78563412 807060504030201 12cd 1000000 ff00000000000000\n");
	char text[256];
	snprintf(text, sizeof(text), "BEGIN { printf(\"%%d %%d %%d %%d\\n\", progenyof(%d), "
		 "progenyof(%d), progenyof(1), progenyof(999999999)); exit(0); }", getpid(), getppid());
	char *got = run_d(text, 256);
	CHECK_STR(got, "1 1 1 0\n");
	free(got);
	/* rand(): an int; two draws in a row differ almost always */
	expect_out("$a = rand(); $b = rand(); $c = rand(); printf(\"%d\\n\", $a != $b || $b != $c);",
		   "1\n");
}

/* strtoll, getmajor/getminor, cleanpath, and sym()/mod() of address 0 */
static void test_num_path_sym(void)
{
	expect_out("printf(\"%d %d %d %d %d\\n\", strtoll(\"0x1f\", 16), strtoll(\" -12z\"), "
		   "strtoll(\"zz\", 36), strtoll(\"777\", 8), strtoll(\"0x1f\"));",
		   "31 -12 1295 511 0\n");
	expect_out("printf(\"%d %d %d\\n\", getmajor(0x800003), getminor(0x800003), "
		   "getminor(0x12345678));", "8 3 284280\n");
	expect_out("printf(\"%s|%s|%s|%s|%s|\\n\", cleanpath(\"/a/../b/./\"), cleanpath(\"a/..\"), "
		   "cleanpath(\"../x//y/\"), cleanpath(\"/..\"), cleanpath(\"\"));",
		   "/b|.|../x/y|/||\n");
	expect_out("sym(0); mod(0); printf(\"|\\n\");",
		   "  0x0                                                 0x0"
		   "                                               |\n");
}

static volatile sig_atomic_t got_usr1;
static void on_usr1(int sig)
{
	(void)sig;
	got_usr1++;
}

/* raise() signals the process that fired the probe: BEGIN runs in ours */
static void test_destructive(void)
{
	Program *prog;
	Error err = {0};
	Script *sc = compile_d("BEGIN { raise(10); }", &prog, &err, &d_frontend, 256);
	CHECK(sc == NULL);
	CHECK_STR(err.msg, "could not enable tracing: Destructive actions not allowed");
	script_free(sc);
	program_free(prog);
	signal(SIGUSR1, on_usr1);
	unsafe = true;
	expect_out("raise(10); printf(\"raised\\n\");", "raised\n");
	unsafe = false;
	CHECK(got_usr1 == 1);
}

/* stderr of f(arg) */
static char *capture_stderr(char *(*f)(const char *, int), const char *text, char **out)
{
	fflush(stderr);
	FILE *tmp = tmpfile();
	int saved = dup(2);
	dup2(fileno(tmp), 2);
	*out = f(text, 256);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	long n = ftell(tmp);
	char *buf = calloc(1, (size_t)n + 1);
	rewind(tmp);
	if (fread(buf, 1, (size_t)n, tmp) != (size_t)n)
		buf[0] = 0;
	fclose(tmp);
	return buf;
}

/* The clauses below are one probe's (bpftrace's language, which runs
 * these tests before the D front end, allows one BEGIN): a child calls
 * getppid() every 20 ms until the script exits, and each "P" in the
 * text becomes that probe, so a firing runs every clause in order. */
static void expect_prog(const char *clauses, const char *want, const char *want_err)
{
	pid_t child = fork();
	if (child == 0) {
		for (;;) {
			syscall(SYS_getppid);
			usleep(20000);
		}
	}
	char probe[128], text[4096];
	/* one firing with every clause attached (BEGIN runs once all are):
	 * D's exit() lets later firings run until it is seen */
	snprintf(probe, sizeof(probe),
		 "tracepoint:syscalls:sys_enter_getppid /pid == %d && @go == 1 && @done == 0/", child);
	size_t n = (size_t)snprintf(text, sizeof(text), "BEGIN { @go = 1; } ");
	for (const char *c = clauses; *c && n + sizeof(probe) < sizeof(text); c++) {
		if (*c == 'P' && (c == clauses || c[-1] == '}' || c[-1] == ' ')) {
			n += (size_t)snprintf(text + n, sizeof(text) - n, "%s", probe);
			continue;
		}
		text[n++] = *c;
	}
	text[n] = 0;
	snprintf(text + n, sizeof(text) - n, " %s { @done = 1; delete(@go); }", probe);
	char *got, *err = capture_stderr(run_d, text, &got);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	/* the maps the clauses share print (empty) at the end */
	size_t len = got ? strlen(got) : 0;
	while (got && len > 1 && got[len - 1] == '\n' && got[len - 2] == '\n')
		got[--len] = 0;
	CHECK_STR(got, want);
	CHECK_STR(err, want_err);
	if (!got || strcmp(got, want) || strcmp(err, want_err))
		fprintf(stderr, "  program: %s\n  got %zu bytes, want %zu\n", text, got ? strlen(got) : 0, strlen(want));
	free(got);
	free(err);
}

/* speculations: the clauses of one probe (BEGIN here) in order */
static void test_speculation(void)
{
	expect_prog("P { @s = speculation(); printf(\"id %d\\n\", @s); }"
		    "P { speculate(@s); printf(\"speculated %d\\n\", 1); }"
		    "P { printf(\"not speculated\\n\"); }"
		    "P { speculate(@s); printf(\"speculated %d\\n\", 2); }"
		    "P { commit(@s); }"
		    "P { printf(\"end\\n\"); delete(@s); exit(0); }",
		    "id 1\nnot speculated\nspeculated 1\nspeculated 2\nend\n", "");
	/* discarded data is never printed; the buffer is free again after it */
	expect_prog("P { @s = speculation(); @t = speculation(); printf(\"ids %d %d\\n\", @s, @t); }"
		    "P { speculate(@s); printf(\"discarded\\n\"); }"
		    "P { discard(@s); @u = speculation(); printf(\"again %d\\n\", @u); }"
		    "P { speculate(@u); printf(\"kept\\n\"); }"
		    "P { commit(@u); } P { commit(@u); } P { discard(@u); }"
		    "P { delete(@s); delete(@t); delete(@u); exit(0); }",
		    "ids 1 0\nagain 1\nkept\n", "");
	/* speculate(0) and an inactive id record nothing; nspec 2 gives two */
	nspec = 2;
	expect_prog("P { @a = speculation(); @b = speculation(); @c = speculation(); "
		    "printf(\"%d %d %d\\n\", @a, @b, @c); }"
		    "P { speculate(0); printf(\"zero\\n\"); }"
		    "P { speculate(2); printf(\"two\\n\"); }"
		    "P { commit(2); }"
		    "P { speculate(2); printf(\"inactive\\n\"); }"
		    "P { commit(2); } P { delete(@a); delete(@b); delete(@c); exit(0); }",
		    "1 2 0\ntwo\n", "");
	nspec = 0;
	/* past specsize: the clause's record is dropped, the clause ends */
	specsize = 30; /* records of 16 bytes, then 24 */
	expect_prog("P { @s = speculation(); }"
		    "P { speculate(@s); printf(\"%d\\n\", 1); @n = 1; }"
		    "P { speculate(@s); printf(\"%d %d\\n\", 2, 3); @m = 1; }"
		    "P { commit(@s); }"
		    "P { printf(\"counts %d %d\\n\", @n, @m); delete(@s); delete(@n); delete(@m); exit(0); }",
		    "1\ncounts 1 0\n", "dtrace: 1 speculative drop\n");
	specsize = 0;
}

static const struct {
	const char *prog, *msg;
} spec_errs[] = {
	{"BEGIN { speculate(1); speculate(1); }", "speculate( ) may not follow speculate( )"},
	{"BEGIN { printf(\"x\"); speculate(1); }",
	 "speculate( ) may not follow data-recording actions"},
	{"BEGIN { commit(1); speculate(1); }", "speculate( ) may not follow commit( )"},
	{"BEGIN { commit(1); commit(1); }", "commit( ) may not follow commit( )"},
	{"BEGIN { printf(\"x\"); commit(1); }", "commit( ) may not follow data-recording actions"},
	{"BEGIN { commit(1); printf(\"x\"); }", "data-recording actions may not follow commit( )"},
	{"BEGIN { speculate(1); @a = count(); }", "aggregating actions may not follow speculate( )"},
	{"BEGIN { speculate(1); exit(0); }", "exit( ) may not follow speculate( )"},
	{"BEGIN { speculate(); }", "speculate( ) prototype mismatch: 0 args passed, 1 expected"},
};

static void test_spec_errors(void)
{
	for (size_t i = 0; i < sizeof(spec_errs) / sizeof(spec_errs[0]); i++) {
		Program *prog;
		Error err = {0};
		Script *sc = compile_d(spec_errs[i].prog, &prog, &err, &d_frontend, 256);
		CHECK(sc == NULL);
		CHECK_STR(err.msg, spec_errs[i].msg);
		script_free(sc);
		program_free(prog);
	}
}

int main(void)
{
	test_errors();
	test_spec_errors();
	if (geteuid() != 0) {
		printf("test_dfuncs: runtime cases need root: skipped\n");
		return check_done("test_dfuncs");
	}
	test_strings();
	test_substr();
	test_index();
	test_paths();
	test_case_lltostr();
	test_truncation();
	test_misc();
	test_num_path_sym();
	test_destructive();
	test_speculation();
	return check_done("test_dfuncs");
}
