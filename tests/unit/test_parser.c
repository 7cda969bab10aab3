/* Parser tests: syntax forms, precedence, attach point splitting, C
 * definitions, literals, exact error messages/locations and hostile input. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "bt/generation_bt.h"
#include "lang/ast.h"

/* ---- helpers ---- */

static Program *parse(const char *text, Error *err)
{
	Source src = { "test", text };
	memset(err, 0, sizeof(*err));
	return parse_program_opts(&src, bt_generation_named("0.17")->fe.parse, err);
}

/* Compact S-expression form of an expression, for precedence checks. */
static void sexpr(StrBuf *b, const Expr *e);

static void sexpr_list(StrBuf *b, const ExprList *l)
{
	for (int i = 0; i < l->n; i++) {
		sb_putc(b, ' ');
		sexpr(b, l->v[i]);
	}
}

static void sexpr_str(StrBuf *b, const Expr *e)
{
	sb_putc(b, '"');
	for (size_t i = 0; i < e->slen; i++) {
		unsigned char c = (unsigned char)e->sval[i];
		if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
			sb_printf(b, "\\x%02x", c);
		else
			sb_putc(b, (char)c);
	}
	sb_putc(b, '"');
}

static void sexpr(StrBuf *b, const Expr *e)
{
	switch (e->kind) {
	case E_INT: sb_printf(b, "%llu", (unsigned long long)e->ival); return;
	case E_STR: sexpr_str(b, e); return;
	case E_BUILTIN: sb_puts(b, e->name); return;
	case E_POSPARAM: sb_printf(b, "$%llu", (unsigned long long)e->ival); return;
	case E_POSCOUNT: sb_puts(b, "$#"); return;
	case E_VAR: sb_printf(b, "$%s", e->name); return;
	case E_MAP:
		if (!e->args.n) {
			sb_printf(b, "@%s", e->name);
			return;
		}
		sb_printf(b, "(@%s", e->name);
		break;
	case E_CALL: sb_printf(b, "(call %s", e->name); break;
	case E_BINOP: sb_printf(b, "(%s", op_str(e->op)); break;
	case E_UNOP: sb_printf(b, "(u%s", op_str(e->op)); break;
	case E_TERNARY: sb_puts(b, "(?"); break;
	case E_FIELD: sb_printf(b, "(%s%s", e->arrow ? "->" : ".", e->name); break;
	case E_INDEX: sb_puts(b, "([]"); break;
	case E_CAST: sb_printf(b, "(cast %s", e->name); break;
	case E_TUPLE: sb_puts(b, "(tuple"); break;
	case E_INCDEC:
		sb_printf(b, "(%s%s", e->post ? "post" : "pre", e->op == OP_ADD ? "++" : "--");
		break;
	case E_SIZEOF: sb_printf(b, "(sizeof%s%s", e->name ? " " : "", e->name ? e->name : ""); break;
	case E_RANGE: sb_puts(b, "(.."); break;
	case E_BLOCK: sb_printf(b, "(block %d stmts", e->block.n); break;
	}
	const Expr *kids[] = { e->a, e->b, e->c };
	for (int i = 0; i < 3; i++) {
		if (kids[i]) {
			sb_putc(b, ' ');
			sexpr(b, kids[i]);
		}
	}
	sexpr_list(b, &e->args);
	sb_putc(b, ')');
}

/* Parses "BEGIN { @ = EXPR; }" and returns the S-expression of EXPR, or
 * "ERR L:C msg".  Caller frees. */
static char *expr_of(const char *expr)
{
	StrBuf src = { 0 }, out = { 0 };
	sb_printf(&src, "BEGIN { @ = %s; }", expr);
	Error err;
	Program *p = parse(src.s, &err);
	if (!p) {
		sb_printf(&out, "ERR %d:%d %s", err.loc.line, err.loc.col, err.msg);
	} else {
		sexpr(&out, p->probes[0]->body.v[0]->expr);
		program_free(p);
	}
	sb_free(&src);
	return out.s;
}

#define CHECK_EXPR(expr, want)                                                 \
	do {                                                                   \
		char *g__ = expr_of(expr);                                     \
		CHECK_STR(g__, want);                                          \
		free(g__);                                                     \
	} while (0)

/* Full ast_dump output, or "ERR L:C msg". */
static char *dump_of(const char *text)
{
	Error err;
	Program *p = parse(text, &err);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (p)
		ast_dump(f, p);
	else
		fprintf(f, "ERR %d:%d %s", err.loc.line, err.loc.col, err.msg);
	fclose(f);
	program_free(p);
	return buf;
}

#define CHECK_DUMP(text, want)                                                 \
	do {                                                                   \
		char *g__ = dump_of(text);                                     \
		CHECK_STR(g__, want);                                          \
		free(g__);                                                     \
	} while (0)

/* Asserts a parse error with exact position, length and message. */
#define CHECK_ERR(text, line_, col_, len_, msg_)                                \
	do {                                                                   \
		Error e__;                                                     \
		Program *p__ = parse(text, &e__);                              \
		CHECK(p__ == NULL);                                            \
		program_free(p__);                                             \
		CHECK(e__.set);                                                \
		CHECK_STR(e__.msg, msg_);                                      \
		if (e__.loc.line != (line_) || e__.loc.col != (col_) ||        \
		    e__.loc.len != (len_))                                     \
			fprintf(stderr, "  loc %d:%d+%d for: %s\n",            \
				e__.loc.line, e__.loc.col, e__.loc.len, text); \
		CHECK(e__.loc.line == (line_) && e__.loc.col == (col_) &&      \
		      e__.loc.len == (len_));                                  \
	} while (0)

/* ---- attach points ---- */

static void check_single_ap(const char *ap_src, const char *want)
{
	StrBuf s = { 0 };
	sb_printf(&s, "%s { exit(); }", ap_src);
	Error err;
	Program *p = parse(s.s, &err);
	CHECK(p != NULL);
	if (!p) {
		fprintf(stderr, "  %s: %s\n", s.s, err.msg);
	} else {
		CHECK(p->nprobes == 1 && p->probes[0]->naps == 1);
		CHECK_STR(p->probes[0]->aps[0].text, want);
		CHECK(p->probes[0]->body.n == 1);
	}
	program_free(p);
	sb_free(&s);
}

static void test_attach_points(void)
{
	static const char *const aps[] = {
		"BEGIN", "END", "tracepoint:syscalls:sys_enter_openat",
		"t:sched:sched_*", "tracepoint:syscalls:sys_enter_*",
		"kprobe:vfs_read", "kretprobe:do_sys_open",
		"uprobe:/bin/bash:readline",
		"uretprobe:/usr/lib/x86_64-linux-gnu/libc.so.6:malloc",
		"uprobe:libc:malloc", "u:/bin/bash:0x1234", "uprobe:/bin/x:func+16",
		"usdt:/usr/bin/python3.11:python:gc__start", "interval:s:1",
		"interval:ms:100", "profile:hz:99", "software:page-faults:100",
		"rawtracepoint:sched_switch", "watchpoint:0x1234:8:w",
		"kprobe:ext4_*", "*:foo", "uprobe:./a.out:main", "hardware:cache-misses:1000000",
		"uprobe:testprogs/x:f", "ur:a/b/c:f", "usdt:lib/x.so:p:n", "BEG$1", "interval:ms:$1",
	};
	for (size_t i = 0; i < sizeof(aps) / sizeof(aps[0]); i++)
		check_single_ap(aps[i], aps[i]);
	check_single_ap("uprobe:\"/path with space/x\":f", "uprobe:/path with space/x:f");
	check_single_ap("BEGIN/* c */", "BEGIN");
	CHECK_DUMP("uprobe:a/b:f/pid/{}", "Program\n uprobe:a/b:f\n  pred\n   builtin: pid\n");

	Error err;
	Program *p = parse("kprobe:a, kprobe:b,\n  // comment\n  kprobe:c ,kprobe:d\n"
			   "{ @ = 1 }\ntracepoint:x:y{}", &err);
	CHECK(p && p->nprobes == 2);
	if (p && p->nprobes == 2) {
		Probe *pr = p->probes[0];
		CHECK(pr->naps == 4);
		CHECK_STR(pr->aps[2].text, "kprobe:c");
		CHECK(pr->aps[2].loc.line == 3 && pr->aps[2].loc.col == 3 &&
		      pr->aps[2].loc.len == 8);
		CHECK_STR(pr->aps[3].text, "kprobe:d");
		CHECK(pr->loc.line == 1 && pr->loc.col == 1);
		CHECK(p->probes[1]->naps == 1 && p->probes[1]->body.n == 0);
		CHECK_STR(p->probes[1]->aps[0].text, "tracepoint:x:y");
	}
	program_free(p);

	CHECK_DUMP("BEGIN{}END{}", "Program\n BEGIN\n END\n");
	CHECK_DUMP("BEGIN\n{\n}\n\n END { } ", "Program\n BEGIN\n END\n");
}

static void test_predicates(void)
{
	const char *want = "Program\n kprobe:f\n  pred\n   ==\n    builtin: pid\n    int: 1\n"
			   "  call: exit\n";
	CHECK_DUMP("kprobe:f /pid == 1/ { exit() }", want);
	CHECK_DUMP("kprobe:f / pid == 1 / { exit() }", want);
	CHECK_DUMP("kprobe:f /pid==1/{exit()}", want);
	CHECK_DUMP("kprobe:f\n/pid == 1/\n{ exit() }", want);
	CHECK_DUMP("kprobe:f/pid == 1/{ exit() }", want);
	CHECK_DUMP("kprobe:f /* c */ /pid == 1/ // c\n{ exit() }", want);
	CHECK_DUMP("uprobe:/bin/bash:readline/arg0/{}",
		   "Program\n uprobe:/bin/bash:readline\n  pred\n   builtin: arg0\n");
	CHECK_DUMP("uprobe:/bin/bash:readline /arg0/{}",
		   "Program\n uprobe:/bin/bash:readline\n  pred\n   builtin: arg0\n");
	CHECK_DUMP("kprobe:a,kprobe:b / (a / 2) == 1 / {}",
		   "Program\n kprobe:a\n kprobe:b\n  pred\n   ==\n    /\n     builtin: a\n"
		   "     int: 2\n    int: 1\n");
	/* Division is fine inside call arguments and map keys too. */
	CHECK_DUMP("BEGIN /f(a / 2) && @x[b / 2]/ {}",
		   "Program\n BEGIN\n  pred\n   &&\n    call: f\n     /\n      builtin: a\n"
		   "      int: 2\n    map: @x\n     /\n      builtin: b\n      int: 2\n");
	CHECK_DUMP("BEGIN /$1 > 0 ? 1 : 0/ {}",
		   "Program\n BEGIN\n  pred\n   ?:\n    >\n     param: $1\n     int: 0\n"
		   "    int: 1\n    int: 0\n");
}

static void test_c_defs(void)
{
	Error err;
	Program *p = parse("#include <linux/sched.h>\n#define X \\\n  1\n"
			   "struct foo { int a; struct { int b; } c; /* ; } */ };\n"
			   "typedef int myint;\nenum e { A, B };\n"
			   "BEGIN { @ = sizeof(struct foo); }", &err);
	CHECK(p != NULL);
	if (p) {
		CHECK_STR(p->c_defs, "#include <linux/sched.h>\n#define X \\\n  1\n"
				     "struct foo { int a; struct { int b; } c; /* ; } */ };\n"
				     "typedef int myint;\nenum e { A, B };\n");
		CHECK(p->c_defs_loc.line == 1 && p->c_defs_loc.col == 1);
		CHECK(p->nprobes == 1);
	}
	program_free(p);

	p = parse("\n  // leading comment\n  struct s { char x[4]; };\nBEGIN {}", &err);
	CHECK(p && p->c_defs && !strcmp(p->c_defs, "struct s { char x[4]; };\n"));
	CHECK(p && p->c_defs_loc.line == 3 && p->c_defs_loc.col == 3);
	program_free(p);

	p = parse("BEGIN {}", &err);
	CHECK(p && p->c_defs == NULL);
	program_free(p);
}

/* ---- statements ---- */

static Program *parse_ok(const char *text)
{
	Error err;
	Program *p = parse(text, &err);
	if (!p)
		fprintf(stderr, "  unexpected error %d:%d %s\n  in: %s\n", err.loc.line,
			err.loc.col, err.msg, text);
	CHECK(p != NULL);
	return p;
}

static void test_statements(void)
{
	Program *p = parse_ok("BEGIN { @x[1, \"a\"] = 1; @ = 2; $v = 3; @c += 1; $v -= 1;"
			      " $v *= 2; $v /= 2; $v %= 2; $v &= 1; $v |= 1; $v ^= 1;"
			      " $v <<= 1; $v >>= 1; @x++; printf(\"%d\\n\", $v);;; break;"
			      " continue; return; { exit() } }");
	if (p) {
		StmtList *b = &p->probes[0]->body;
		static const Op ops[] = { OP_NONE, OP_NONE, OP_NONE, OP_ADD, OP_SUB, OP_MUL,
					  OP_DIV, OP_MOD, OP_BAND, OP_BOR, OP_BXOR, OP_SHL,
					  OP_SHR };
		CHECK(b->n == 19);
		for (int i = 0; i < 13 && i < b->n; i++) {
			CHECK(b->v[i]->kind == S_ASSIGN);
			CHECK(b->v[i]->op == ops[i]);
		}
		if (b->n == 19) {
			CHECK(b->v[0]->target->kind == E_MAP && b->v[0]->target->args.n == 2);
			CHECK_STR(b->v[0]->target->name, "x");
			CHECK_STR(b->v[1]->target->name, "");
			CHECK(b->v[2]->target->kind == E_VAR);
			CHECK_STR(b->v[2]->target->name, "v");
			CHECK(b->v[13]->kind == S_EXPR && b->v[13]->expr->kind == E_INCDEC);
			CHECK(b->v[14]->kind == S_EXPR && b->v[14]->expr->kind == E_CALL);
			CHECK(b->v[14]->expr->args.n == 2);
			CHECK(b->v[15]->kind == S_BREAK && b->v[16]->kind == S_CONTINUE);
			CHECK(b->v[17]->kind == S_RETURN && b->v[17]->expr == NULL);
			CHECK(b->v[18]->kind == S_BLOCK && b->v[18]->body.n == 1);
			CHECK(b->v[0]->loc.line == 1 && b->v[0]->loc.col == 9);
		}
	}
	program_free(p);

	CHECK_DUMP("BEGIN { if ($x) { @a = 1 } else if ($y) { @b = 2; } else { @c = 3 } @d = 4 }",
		   "Program\n BEGIN\n  if\n   variable: $x\n   then\n    =\n     map: @a\n"
		   "     int: 1\n   else\n    if\n     variable: $y\n     then\n      =\n"
		   "       map: @b\n       int: 2\n     else\n      =\n       map: @c\n"
		   "       int: 3\n  =\n   map: @d\n   int: 4\n");
	p = parse_ok("BEGIN { if (1) {} else if (2) {}; }");
	if (p) {
		Stmt *s = p->probes[0]->body.v[0];
		CHECK(s->kind == S_IF && s->els.n == 1 && s->els.v[0]->kind == S_IF);
		CHECK(s->els.v[0]->els.n == 0);
	}
	program_free(p);
	CHECK_DUMP("BEGIN { unroll (3) { @i++ } while ($i < 10) { $i++; if ($i == 5) { break } } }",
		   "Program\n BEGIN\n  unroll\n   int: 3\n   body\n    ++ (post)\n     map: @i\n"
		   "  while\n   <\n    variable: $i\n    int: 10\n   body\n    ++ (post)\n"
		   "     variable: $i\n    if\n     ==\n      variable: $i\n      int: 5\n"
		   "     then\n      break\n");
	CHECK_DUMP("BEGIN { $x; @y; 1 }",
		   "Program\n BEGIN\n  variable: $x\n  map: @y\n  int: 1\n");
	CHECK_DUMP("BEGIN { return 1 }", "Program\n BEGIN\n  return\n   int: 1\n");
	CHECK_DUMP("BEGIN { { { } } }", "Program\n BEGIN\n  block\n   block\n");
	CHECK_DUMP("BEGIN { ; ; }", "Program\n BEGIN\n");
}

/* ---- expressions ---- */

static void test_precedence(void)
{
	CHECK_EXPR("1 + 2 * 3", "(+ 1 (* 2 3))");
	CHECK_EXPR("1 * 2 + 3", "(+ (* 1 2) 3)");
	CHECK_EXPR("1 - 2 - 3", "(- (- 1 2) 3)");
	CHECK_EXPR("8 / 4 / 2", "(/ (/ 8 4) 2)");
	CHECK_EXPR("7 % 3 * 2", "(* (% 7 3) 2)");
	CHECK_EXPR("1 << 2 + 3", "(<< 1 (+ 2 3))");
	CHECK_EXPR("1 < 2 == 3 > 4", "(== (< 1 2) (> 3 4))");
	CHECK_EXPR("1 <= 2 != 3 >= 4", "(!= (<= 1 2) (>= 3 4))");
	CHECK_EXPR("1 & 2 == 2", "(& 1 (== 2 2))");
	CHECK_EXPR("1 | 2 ^ 3 & 4", "(| 1 (^ 2 (& 3 4)))");
	CHECK_EXPR("a || b && c | d", "(|| a (&& b (| c d)))");
	CHECK_EXPR("a && b || c && d", "(|| (&& a b) (&& c d))");
	CHECK_EXPR("a >> 1 << 2", "(<< (>> a 1) 2)");
	CHECK_EXPR("a ? b : c ? d : e", "(? a b (? c d e))");
	CHECK_EXPR("a || b ? c + 1 : d", "(? (|| a b) (+ c 1) d)");
	CHECK_EXPR("a ? b ? 1 : 2 : 3", "(? a (? b 1 2) 3)");
	CHECK_EXPR("-a * b", "(* (u- a) b)");
	CHECK_EXPR("!a && ~b", "(&& (u! a) (u~ b))");
	CHECK_EXPR("- - 1", "(u- (u- 1))");
	CHECK_EXPR("*$p + 1", "(+ (u* $p) 1)");
	CHECK_EXPR("&$x", "(u& $x)");
	CHECK_EXPR("-$x++", "(u- (post++ $x))");
	CHECK_EXPR("++$x", "(pre++ $x)");
	CHECK_EXPR("--@m[1]", "(pre-- (@m 1))");
	CHECK_EXPR("@m[1]--", "(post-- (@m 1))");
	CHECK_EXPR("(1 + 2) * 3", "(* (+ 1 2) 3)");
	CHECK_EXPR("a - -1", "(- a (u- 1))");
	CHECK_EXPR("a-1", "(- a 1)");
	CHECK_EXPR("a*-b", "(* a (u- b))");
	CHECK_EXPR("*curtask->mm", "(u* (->mm curtask))");
}

static void test_postfix_and_primaries(void)
{
	CHECK_EXPR("args->filename", "(->filename args)");
	CHECK_EXPR("args.filename", "(.filename args)");
	CHECK_EXPR("curtask->parent->pid", "(->pid (->parent curtask))");
	CHECK_EXPR("$t.0", "(.0 $t)");
	CHECK_EXPR("$t.1.0", "(.0 (.1 $t))");
	CHECK_EXPR("(1, \"a\").1", "(.1 (tuple 1 \"a\"))");
	CHECK_EXPR("$a[2]", "([] $a 2)");
	CHECK_EXPR("$a->b[1].c", "(.c ([] (->b $a) 1))");
	CHECK_EXPR("@m[1][2]", "([] (@m 1) 2)");
	CHECK_EXPR("@m[1, \"a\", $x]", "(@m 1 \"a\" $x)");
	CHECK_EXPR("@m[(1, 2)]", "(@m (tuple 1 2))");
	CHECK_EXPR("@[1]", "(@ 1)");
	CHECK_EXPR("@", "@");
	CHECK_EXPR("@m [ 1 ]", "(@m 1)");
	CHECK_EXPR("(1, 2, (3, 4))", "(tuple 1 2 (tuple 3 4))");
	CHECK_EXPR("((1))", "1");
	CHECK_EXPR("pid", "pid");
	CHECK_EXPR("kstack", "kstack");
	CHECK_EXPR("kstack(5)", "(call kstack 5)");
	CHECK_EXPR("exit()", "(call exit)");
	CHECK_EXPR("printf (\"%d %s\", pid, comm)", "(call printf \"%d %s\" pid comm)");
	CHECK_EXPR("hist(retval)", "(call hist retval)");
	CHECK_EXPR("str(args->filename, 16)", "(call str (->filename args) 16)");
	CHECK_EXPR("count()", "(call count)");
	CHECK_EXPR("$1 + $12", "(+ $1 $12)");
	CHECK_EXPR("$#", "$#");
	CHECK_EXPR("$my_var1", "$my_var1");
	CHECK_EXPR("(uint8)arg0", "(cast uint8 arg0)");
	CHECK_EXPR("(int64)-1", "(cast int64 (u- 1))");
	CHECK_EXPR("(uint32 *)arg0", "(cast uint32 * arg0)");
	CHECK_EXPR("(int8**)arg0", "(cast int8 ** arg0)");
	CHECK_EXPR("(char *)$p", "(cast char * $p)");
	CHECK_EXPR("(struct task_struct *)curtask", "(cast struct task_struct * curtask)");
	CHECK_EXPR("(union u)$x", "(cast union u $x)");
	CHECK_EXPR("(enum e)1", "(cast enum e 1)");
	CHECK_EXPR("(uint64)$x->f + 1", "(+ (cast uint64 (->f $x)) 1)");
	CHECK_EXPR("((struct s *)arg0)->f", "(->f (cast struct s * arg0))");
	CHECK_EXPR("sizeof(int)", "(sizeof int)");
	CHECK_EXPR("sizeof(struct task_struct)", "(sizeof struct task_struct)");
	CHECK_EXPR("sizeof($x)", "(sizeof $x)");
	CHECK_EXPR("sizeof(1 + 2)", "(sizeof (+ 1 2))");

	Error err;
	Program *p = parse("BEGIN {\n  @m[1] = $x->f;\n}", &err);
	CHECK(p != NULL);
	if (p) {
		Stmt *s = p->probes[0]->body.v[0];
		CHECK(s->target->loc.line == 2 && s->target->loc.col == 3 &&
		      s->target->loc.len == 2);
		CHECK(s->expr->kind == E_FIELD && s->expr->arrow);
		CHECK(s->expr->loc.col == 15 && s->expr->loc.len == 1);
		CHECK(s->expr->a->loc.col == 11 && s->expr->a->loc.len == 2);
	}
	program_free(p);
}

static void test_literals(void)
{
	CHECK_EXPR("0", "0");
	CHECK_EXPR("1_000_000", "1000000");
	CHECK_EXPR("0x10", "16");
	CHECK_EXPR("0XfF", "255");
	CHECK_EXPR("0xdead_beef", "3735928559");
	CHECK_EXPR("0777", "511");
	CHECK_EXPR("1e3", "1000");
	CHECK_EXPR("18446744073709551615", "18446744073709551615");
	CHECK_EXPR("0xffffffffffffffff", "18446744073709551615");
	CHECK_EXPR("\"hello\"", "\"hello\"");
	CHECK_EXPR("\"\"", "\"\"");
	CHECK_EXPR("\"a\\n\\t\\r\\\\\\\"\\'\"", "\"a\\x0a\\x09\\x0d\\x5c\\x22'\"");
	CHECK_EXPR("\"\\x41\\x7a\\101\\0x\"", "\"AzA\\x00x\"");
	CHECK_EXPR("\"\\1\\12\\0123\"", "\"\\x01\\x0a\\x0a3\"");
	CHECK_EXPR("\"// not /* a comment\"", "\"// not /* a comment\"");

	Error err;
	Program *p = parse("BEGIN { @ = \"a\\0b\"; }", &err);
	CHECK(p != NULL);
	if (p) {
		Expr *e = p->probes[0]->body.v[0]->expr;
		CHECK(e->kind == E_STR && e->slen == 3 && !memcmp(e->sval, "a\0b", 4));
		CHECK(e->loc.col == 13 && e->loc.len == 6);
	}
	program_free(p);
}

static void test_dump(void)
{
	CHECK_DUMP("#include <x.h>\n"
		   "tracepoint:syscalls:sys_enter_openat /comm == \"bash\"/ {\n"
		   "  @opens[comm, pid] = count();\n"
		   "  $t = (1, \"x\\001\");\n"
		   "  printf(\"%s %d\\n\", str(args->filename), $t.0);\n"
		   "  $x = sizeof(struct s) + sizeof($t);\n"
		   "  @h = hist((uint8)retval ? -1 : ~2);\n"
		   "  $p = &$x; $y = *$p; $z = !$y; ++@c; @c--;\n"
		   "  $a = $1 + $#;\n"
		   "}\n",
		   "Program\n"
		   " c_defs: #include <x.h>\\n\n"
		   " tracepoint:syscalls:sys_enter_openat\n"
		   "  pred\n   ==\n    builtin: comm\n    string: bash\n"
		   "  =\n   map: @opens\n    builtin: comm\n    builtin: pid\n   call: count\n"
		   "  =\n   variable: $t\n   tuple\n    int: 1\n    string: x\\x01\n"
		   "  call: printf\n   string: %s %d\\n\n   call: str\n    field: ->filename\n"
		   "     builtin: args\n   field: .0\n    variable: $t\n"
		   "  =\n   variable: $x\n   +\n    sizeof: struct s\n    sizeof\n"
		   "     variable: $t\n"
		   "  =\n   map: @h\n   call: hist\n    ?:\n     cast: uint8\n      builtin: retval\n"
		   "     unop: -\n      int: 1\n     unop: ~\n      int: 2\n"
		   "  =\n   variable: $p\n   unop: &\n    variable: $x\n"
		   "  =\n   variable: $y\n   unop: *\n    variable: $p\n"
		   "  =\n   variable: $z\n   unop: !\n    variable: $y\n"
		   "  ++ (pre)\n   map: @c\n  -- (post)\n   map: @c\n"
		   "  =\n   variable: $a\n   +\n    param: $1\n    param: $#\n");
	CHECK_DUMP("BEGIN { $x += 1; $x <<= 2 }",
		   "Program\n BEGIN\n  +=\n   variable: $x\n   int: 1\n"
		   "  <<=\n   variable: $x\n   int: 2\n");
}

/* ---- errors ---- */

static void test_errors(void)
{
	CHECK_ERR("BEGIN { exit(); ", 1, 7, 1, "missing '}' to close '{'");
	CHECK_ERR("BEGIN {\n  if (1) {\n    exit()\n", 2, 10, 1, "missing '}' to close '{'");
	CHECK_ERR("BEGIN { printf(\"abc); }", 1, 16, 1, "unterminated string literal");
	CHECK_ERR("BEGIN { @ = \"a\nb\"; }", 1, 13, 1, "unterminated string literal");
	CHECK_ERR("BEGIN { @x = 1 # 2; }", 1, 16, 1, "invalid character '#'");
	CHECK_ERR("BEGIN { @x = `1; }", 1, 14, 1, "invalid character '`'");
	CHECK_ERR("BEGIN { @x = 1 \x01; }", 1, 16, 1, "invalid character '\\x01'");
	CHECK_ERR("BEGIN { @x[] = 1; }", 1, 12, 1,
		  "syntax error, unexpected ]\nhint: expecting a map key");
	CHECK_ERR("BEGIN { if (1) exit(); }", 1, 16, 4, "expected '{' to start the if body");
	CHECK_ERR("BEGIN { if (1) { } else exit(); }", 1, 25, 4,
		  "expected '{' to start the else body");
	CHECK_ERR("BEGIN { while (1) exit(); }", 1, 19, 4,
		  "expected '{' to start the while body");
	CHECK_ERR("BEGIN { if 1 { } }", 1, 12, 1,
		  "syntax error, unexpected integer, expecting (");
	CHECK_ERR("BEGIN / / { }", 1, 7, 1, "empty predicate");
	/* "//" is a comment, as in bpftrace, so the body goes missing. */
	CHECK_ERR("BEGIN //{ }", 1, 12, 1, "expected '{' to start the probe body");
	CHECK_ERR("BEGIN /pid == 1 { }", 1, 17, 1,
		  "syntax error, unexpected {, expecting end predicate");
	CHECK_ERR("BEGIN { @ = 1 + ; }", 1, 17, 1,
		  "syntax error, unexpected ;\nhint: expecting an expression");
	CHECK_ERR("BEGIN { @ = 1 +", 1, 16, 1,
		  "syntax error, unexpected end of file\nhint: expecting an expression");
	CHECK_ERR("BEGIN { @ = (1 + 2; }", 1, 13, 1, "missing ')' to close '('");
	CHECK_ERR("BEGIN { printf(\"x\", 1 }", 1, 15, 1, "missing ')' to close '('");
	CHECK_ERR("BEGIN { @ = (1 2); }", 1, 16, 1,
		  "syntax error, unexpected integer, expecting ) or \",\"");
	CHECK_ERR("BEGIN { @ = 18446744073709551616; }", 1, 13, 20, "integer literal too large");
	CHECK_ERR("BEGIN { @ = 0x1_0000_0000_0000_0000; }", 1, 13, 23,
		  "integer literal too large");
	CHECK_ERR("BEGIN { @ = 99e99; }", 1, 13, 5, "integer literal too large");
	CHECK_ERR("BEGIN { @ = 12abc; }", 1, 13, 5, "invalid integer literal '12abc'");
	CHECK_ERR("BEGIN { @ = 1_; }", 1, 13, 2, "invalid integer literal '1_'");
	CHECK_ERR("BEGIN { @ = 0x; }", 1, 13, 2, "invalid integer literal '0x'");
	CHECK_ERR("BEGIN { @ = 089; }", 1, 13, 3, "invalid integer literal '089'");
	CHECK_ERR("BEGIN { exit()); }", 1, 15, 1,
		  "syntax error, unexpected ), expecting }");
	CHECK_ERR("BEGIN { @a = 1 @b = 2 }", 1, 16, 2,
		  "syntax error, unexpected map, expecting }");
	CHECK_ERR("BEGIN { @ = (1,); }", 1, 16, 1,
		  "syntax error, unexpected )\nhint: expecting an expression");
	CHECK_ERR("BEGIN { f(1,); }", 1, 13, 1,
		  "syntax error, unexpected )\nhint: expecting an expression");
	CHECK_ERR("BEGIN { @ = 1; /* never closed", 1, 16, 2, "unterminated comment");
	CHECK_ERR("/* never closed", 1, 1, 2, "unterminated comment");
	CHECK_ERR("BEGIN", 1, 6, 1, "expected '{' to start the probe body");
	CHECK_ERR("kprobe:f pid { }", 1, 10, 3, "expected '{' to start the probe body");
	CHECK_ERR("{ exit(); }", 1, 1, 1,
		  "expected an attach point (e.g. tracepoint:sched:sched_switch)");
	CHECK_ERR("kprobe:a, { }", 1, 11, 1,
		  "expected an attach point (e.g. tracepoint:sched:sched_switch)");
	CHECK_ERR("", 1, 1, 1, "expected an attach point (e.g. tracepoint:sched:sched_switch)");
	CHECK_ERR("  // only a comment\n", 2, 1, 1,
		  "expected an attach point (e.g. tracepoint:sched:sched_switch)");
	CHECK_ERR("BEGIN { } )", 1, 11, 1,
		  "expected an attach point (e.g. tracepoint:sched:sched_switch)");
	CHECK_ERR("BEGIN { } #include <x.h>", 1, 11, 1,
		  "C definitions must come before the first probe");
	CHECK_ERR("typedef struct { int a; } x\nBEGIN { }", 1, 1, 7,
		  "unterminated C definition: missing ';'");
	CHECK_ERR("BEGIN { @ = \"\\q\"; }", 1, 14, 2,
		  "invalid escape sequence '\\q' in string literal");
	CHECK_ERR("BEGIN { @ = \"\\xZ\"; }", 1, 14, 2,
		  "invalid escape sequence '\\x': expected hex digits");
	CHECK_ERR("BEGIN { @ = \"\\777\"; }", 1, 14, 4, "octal escape sequence out of range");
	CHECK_ERR("BEGIN { @x + 1 = 2; }", 1, 16, 1, "can only assign to a map or a variable");
	CHECK_ERR("BEGIN { $ = 1; }", 1, 9, 1,
		  "expected a variable name, a number or '#' after '$'");
	CHECK_ERR("BEGIN { @ = $a.; }", 1, 16, 1,
		  "syntax error, unexpected ;\nhint: expecting a field name or tuple index after '.'");
	CHECK_ERR("BEGIN { @ = $a->1; }", 1, 17, 1,
		  "syntax error, unexpected integer\nhint: expecting a field name after '->'");
	CHECK_ERR("BEGIN { @ = a ? b; }", 1, 18, 1,
		  "syntax error, unexpected ;, expecting :");
	CHECK_ERR("BEGIN { @ = (struct)0; }", 1, 20, 1,
		  "syntax error, unexpected )\nhint: expecting a type name");
	CHECK_ERR("BEGIN { @ = sizeof 1; }", 1, 20, 1,
		  "syntax error, unexpected integer\nhint: expecting '(' after 'sizeof'");
	CHECK_ERR("BEGIN { @ = if; }", 1, 13, 2,
		  "syntax error, unexpected if\nhint: expecting an expression");
	CHECK_ERR("BEGIN { else { } }", 1, 9, 4,
		  "syntax error, unexpected else\nhint: expecting an expression");
	CHECK_ERR("BEGIN { @ = $a[1; }", 1, 15, 1, "missing ']' to close '['");
	CHECK_ERR("BEGIN { @ = $a[1, 2]; }", 1, 15, 1, "an index takes one expression");
	CHECK_ERR("BEGIN { @ = \"x\" }\nEND {\n  @ = $99999999999; }", 3, 7, 12,
		  "positional parameter number too large");
	CHECK_ERR("uprobe:\"/bin/x:f { }", 1, 8, 1, "unterminated string literal");
	CHECK_ERR("BEGIN { @ = 1; } END / / {}\n", 1, 22, 1, "empty predicate");
	CHECK_ERR("kprobe:f\x01 { }", 1, 9, 1, "invalid character '\\x01'");
}

/* ---- hostile input ---- */

static void check_fails_with(const char *text, const char *msg)
{
	Error err;
	Program *p = parse(text, &err);
	CHECK(p == NULL);
	CHECK_STR(err.msg, msg);
	program_free(p);
}

static char *repeat_wrap(const char *pre, const char *mid, const char *post, int n)
{
	StrBuf b = { 0 };
	sb_puts(&b, "BEGIN { @ = ");
	for (int i = 0; i < n; i++)
		sb_puts(&b, pre);
	sb_puts(&b, mid);
	for (int i = 0; i < n; i++)
		sb_puts(&b, post);
	sb_puts(&b, "; }");
	return b.s;
}

static void test_deep_nesting(void)
{
	char *s = repeat_wrap("(", "1", ")", 10000);
	check_fails_with(s, "nesting too deep");
	free(s);
	s = repeat_wrap("(", "", "", 10000);
	check_fails_with(s, "nesting too deep");
	free(s);
	s = repeat_wrap("-", "1", "", 10000);
	check_fails_with(s, "nesting too deep");
	free(s);
	s = repeat_wrap("(int8)", "1", "", 10000);
	check_fails_with(s, "nesting too deep");
	free(s);
	s = repeat_wrap("f(", "1", ")", 10000);
	check_fails_with(s, "nesting too deep");
	free(s);
	s = repeat_wrap("@m[", "1", "]", 10000);
	check_fails_with(s, "nesting too deep");
	free(s);
	s = repeat_wrap("1 ? 2 : ", "3", "", 10000);
	check_fails_with(s, "nesting too deep");
	free(s);

	StrBuf b = { 0 };
	sb_puts(&b, "BEGIN ");
	for (int i = 0; i < 10000; i++)
		sb_puts(&b, "{");
	check_fails_with(b.s, "nesting too deep");
	sb_reset(&b);
	sb_puts(&b, "BEGIN { ");
	for (int i = 0; i < 10000; i++)
		sb_puts(&b, "if (1) { ");
	check_fails_with(b.s, "nesting too deep");
	sb_free(&b);

	/* Reasonable depth still parses; long flat chains are not "deep". */
	s = repeat_wrap("(", "1", ")", 50);
	Program *p = parse_ok(s);
	program_free(p);
	free(s);
	s = repeat_wrap("1 + ", "1", "", 20000);
	p = parse_ok(s);
	program_free(p);
	free(s);
}

/* Cheap in-process fuzzing: random bytes and random single-byte mutations
 * of a valid program must never crash (ASan/valgrind catch the rest). */
static void test_garbage(void)
{
	static const char base[] =
		"#include <x.h>\nkprobe:f,uprobe:/a/b:c /pid == 1 && (a/2)/ "
		"{ @m[1, \"s\\n\"] = count(); if ($x) { $t = (1, 2).0; } else { "
		"printf(\"%d\", (uint8 *)arg0->f[1]); } unroll(2) { @x++ } }";
	static const char alphabet[] = "{}()[]/*\"'\\@$#:;,.-+<>=!?&|^~ \n0x1aZ_\t";
	unsigned seed = 12345;
	int ok = 0;
	for (int iter = 0; iter < 20000; iter++) {
		char buf[sizeof(base)];
		memcpy(buf, base, sizeof(base));
		int nmut = 1 + iter % 4;
		for (int m = 0; m < nmut; m++) {
			seed = seed * 1103515245 + 12345;
			size_t pos = (seed >> 8) % (sizeof(base) - 1);
			seed = seed * 1103515245 + 12345;
			buf[pos] = iter % 3 ? alphabet[(seed >> 8) % (sizeof(alphabet) - 1)]
					    : (char)((seed >> 8) & 0xff);
		}
		Error err;
		Program *p = parse(buf, &err);
		ok += p != NULL;
		if (!p && (!err.set || err.loc.line < 1 || err.loc.len < 1))
			CHECK(!"error without a location");
		program_free(p);
	}
	CHECK(ok > 0);
	Program *p = parse_ok(base);
	program_free(p);
}

int main(void)
{
	test_attach_points();
	test_predicates();
	test_c_defs();
	test_statements();
	test_precedence();
	test_postfix_and_primaries();
	test_literals();
	test_dump();
	test_errors();
	test_deep_nesting();
	test_garbage();
	return check_done("test_parser");
}
