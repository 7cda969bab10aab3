/* bpftrace 0.26.1's `import` (lang/parse_import.c): a .bt file's macros,
 * map declarations and probes join the program, a directory's files in
 * name order, each file once, paths relative to the importing file; an
 * imported item's places are in its own file (Loc.file, named by the
 * Source's table: errors print FILE:LINE:COL); C definitions of imported
 * .bt and .h files join the program's; 0.26's errors (a missing file, an
 * unknown type, a config block); .bpf.c, which sonde does not compile,
 * says so at the import statement. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compile_check.h"
#include "syms_check.h"
#include "bt/generation_bt.h"

static const BtGeneration *g026, *g017;
static char dir[64];

static void write_file(const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* text parsed as the script dir/main.bt */
static Program *parse_main(const BtGeneration *g, const char *text, Error *err)
{
	static char name[128];
	snprintf(name, sizeof(name), "%s/main.bt", dir);
	Source src = {name, text};
	memset(err, 0, sizeof(*err));
	return parse_program_opts(&src, g->fe.parse, err);
}

static void expect_error_has(const char *text, const char *want)
{
	Error err;
	Program *p = parse_main(g026, text, &err);
	if (p || !strstr(err.msg, want) || err.loc.line != 1 || err.loc.col != 1) {
		check_failed++;
		fprintf(stderr, "FAIL: %s\n  got:  %d:%d: %s\n  want: 1:1: ...%s...\n", text,
			err.loc.line, err.loc.col, err.set ? err.msg : "(no error)", want);
	} else {
		check_passed++;
	}
	program_free(p);
}

static void test_import_file(void)
{
	Error err;
	Program *p = parse_main(g026, "import \"lib/a.bt\";\nimport \"lib/a.bt\";\n"
				      "BEGIN { @ = add_one(1); }", &err);
	CHECK(p != NULL);
	if (p) {
		CHECK(p->nmacros == 1 && p->nimported == 1 && p->nmap_decls == 1);
		/* expanded: 1 + 1, its place in a.bt (the first file imported) */
		Expr *e = p->probes[0]->body.v[0]->expr;
		CHECK(e->kind == E_BINOP && e->loc.file == 1 && e->loc.line == 2 && e->loc.col == 22);
		Source a = source_at(&p->src, e->loc);
		CHECK(a.name && strstr(a.name, "/lib/a.bt") && a.text && !strncmp(a.text, "// helpers", 10));
		program_free(p);
	}
	/* a directory: its .bt files, an imported file's own imports
	 * relative to it */
	p = parse_main(g026, "import \"lib\"; BEGIN { @ = add_two(1); }", &err);
	CHECK(p && p->nmacros == 2 && p->nimported == 3);
	program_free(p);
	/* an imported file's probes come first, placed in their file */
	p = parse_main(g026, "import \"probes\";\nBEGIN { }", &err);
	CHECK(p && p->nprobes == 2);
	if (p && p->nprobes == 2) {
		CHECK(p->probes[0]->loc.file == 1 && p->probes[0]->loc.line == 2);
		CHECK(p->probes[1]->loc.file == 0 && p->probes[1]->loc.line == 2);
	}
	program_free(p);
}

/* an error in an imported file: its place there, printed with the file's
 * name, line and text (the caller's table keeps the text past the parse) */
static void test_error_place(void)
{
	char name[128], out[512] = "";
	snprintf(name, sizeof(name), "%s/main.bt", dir);
	SourceFiles files = {0};
	Source src = {name, "import \"syntax.bt\";\nBEGIN { }", &files};
	Error err = {0};
	Program *p = parse_program_opts(&src, g026->fe.parse, &err);
	CHECK(!p && err.loc.file == 1 && err.loc.line == 1 && err.loc.col == 10 &&
	      !strncmp(err.msg, "syntax error", 12));
	FILE *f = fmemopen(out, sizeof(out) - 1, "w");
	if (f) {
		diag_print(f, &src, &err);
		fclose(f);
	}
	char want[256];
	snprintf(want, sizeof(want), "%s/syntax.bt:1:10-11: ERROR: syntax error", dir);
	CHECK(!strncmp(out, want, strlen(want)) && strstr(out, "\nmacro f( { }\n         ^\n"));
	if (strncmp(out, want, strlen(want)))
		fprintf(stderr, "  got: %s\n", out);
	source_files_free(&files);
}

static void test_import_errors(void)
{
	/* 0.26's words */
	char want[256];
	snprintf(want, sizeof(want), "Unable to find suitable path for import\nHINT: checked: %s/nope.bt",
		 dir);
	expect_error_has("import \"nope.bt\"; BEGIN { }", want);
	expect_error_has("import \"lib/notes.txt\"; BEGIN { }", "unknown import type: \"notes.txt\"");
	expect_error_has("import \"c/f.bpf.c\"; BEGIN { }",
			 "sonde does not compile C functions into the BPF program (.bpf.c)");
	Error err;
	/* a config block in an imported file: at the block, in that file */
	Program *p = parse_main(g026, "import \"cfg.bt\"; BEGIN { }", &err);
	CHECK(!p && err.loc.file == 1 && err.loc.line == 1 &&
	      !strcmp(err.msg, "invalid `config` within import"));
	program_free(p);
	p = parse_main(g026, "BEGIN { }\nimport \"lib\";", &err);
	CHECK(!p && err.loc.line == 2 &&
	      !strcmp(err.msg, "imports must come before the probes, macros and map declarations"));
	program_free(p);
	/* 0.17 has no import */
	p = parse_main(g017, "import \"lib\"; BEGIN { }", &err);
	CHECK(p == NULL && err.set);
	program_free(p);
}

/* text as dir/main.bt, compiled as 0.26 */
static Compiled compile_main(const char *text)
{
	Options o = {.strlen_max = 64, .map_keys_max = 4096, .self_pid = 4242,
		     .sema = g026->fe.sema, .codegen = g026->fe.codegen, .sym = &test_syms};
	Compiled c = {0};
	c.prog = parse_main(g026, text, &c.err);
	if (c.prog)
		c.sc = compile_program(c.prog, &o, &c.err);
	return c;
}

/* C in imported files: a .h file's and a .bt file's definitions are the
 * program's, after its own; an error in them is placed in their file */
static void test_import_c(void)
{
	Compiled c = compile_main("struct own { int a; };\nimport \"c/x.h\";\nimport \"c/defs.bt\";\n"
				  "BEGIN { @a = sizeof(struct s) + X_N; @b = qsize(); "
				  "@c = sizeof(struct own); }");
	CHECK(c.sc != NULL);
	if (!c.sc)
		fprintf(stderr, "  got: %d:%d: %s\n", c.err.loc.line, c.err.loc.col, c.err.msg);
	CHECK(c.prog && c.prog->nimport_headers == 1 && c.prog->nimport_cdefs == 1);
	compiled_free(&c);
	/* without the import the names are unknown */
	c = compile_main("BEGIN { @a = X_N; }");
	CHECK(c.sc == NULL);
	compiled_free(&c);
	c = compile_main("import \"c/badc.bt\";\nBEGIN { }");
	CHECK(c.sc == NULL && c.err.loc.file == 1 && c.err.loc.line == 2);
	compiled_free(&c);
}

static void make_files(void)
{
	char sub[128];
	snprintf(sub, sizeof(sub), "%s/lib", dir);
	mkdir(sub, 0755);
	snprintf(sub, sizeof(sub), "%s/probes", dir);
	mkdir(sub, 0755);
	snprintf(sub, sizeof(sub), "%s/c", dir);
	mkdir(sub, 0755);
	write_file("lib/a.bt", "// helpers\nmacro add_one(x) { x + 1 }\nlet @h = lruhash(10);\n");
	write_file("lib/b.bt", "import \"a.bt\";\nmacro add_two(x) { add_one(add_one(x)) }\n");
	write_file("lib/notes.txt", "not imported\n");
	write_file("probes/p.bt", "// a probe\nBEGIN { @b = 1; }\n");
	write_file("cfg.bt", "config = { max_map_keys = 10 }\n");
	write_file("c/x.h", "struct s { int a; };\n#define X_N 5\n");
	write_file("c/f.bpf.c", "int f(int v) { return v; }\n");
	write_file("c/defs.bt", "struct q { long a; long b; };\n#define QN 3\n"
				"macro qsize() { sizeof(struct q) * QN }\n");
	write_file("c/badc.bt", "struct r { int a; };\nstruct t { int @ };\n");
	write_file("syntax.bt", "macro f( { }\n");
}

int main(void)
{
	g026 = bt_generation_named("0.26.1");
	g017 = bt_generation_named("0.17");
	snprintf(dir, sizeof(dir), "/tmp/sonde-import-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	make_files();
	test_import_file();
	test_import_errors();
	test_import_c();
	test_error_place();
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	int rc = system(cmd); /* the files made above */
	(void)rc;
	return check_done("test_import_bt26");
}
