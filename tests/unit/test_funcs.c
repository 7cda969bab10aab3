/* The functions and builtins added for bpftrace 0.17 parity (strncmp,
 * strcontains, bswap, strerror, pton, macaddr, cgroup_path, numaid,
 * username, ...): the types sema gives them, the errors it reports (exact
 * message and line:col), and what codegen emits for them.  Their output on
 * the real kernel is checked by tests/runtime/cases/fn_*.bt and against
 * bpftrace by tests/compat/cases/. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "syms_check.h"
#include "compile_check.h"
#include "compile/script.h"
#include "bt/generation_bt.h"
#include "compile/sema.h"

#define TP "tracepoint:syscalls:sys_enter_getppid"

static Options make_opts(bool unsafe)
{
	Options o = {.sym = &test_syms, .strlen_max = 64, .map_keys_max = 4096, .self_pid = 4242, .unsafe = unsafe};
	frontend_use(&bt_generation_named("0.17")->fe, &o, NULL);
	return o;
}

static Compiled compile_text(const char *text)
{
	Options o = make_opts(false);
	return compile_with(text, &o);
}

/* The type of the expression of statement i of the first probe. */
static const Type *stmt_type(const Compiled *c, int i)
{
	const StmtList *b = &c->prog->probes[0]->body;
	const Stmt *st = b->v[i];
	return st->expr ? st->expr->type : NULL;
}

static const struct {
	const char *prog;
	int line, col;
	const char *msg;
} errs[] = {
	{"BEGIN { @ = strncmp(1, \"a\", 1); }", 1, 21,
	 "strncmp() only supports string arguments (integer provided)"},
	{"BEGIN { $n = 2; @ = strncmp(\"a\", \"b\", $n); }", 1, 21,
	 "strncmp() expects a integer literal (integer provided)"},
	{"BEGIN { @ = strncmp(\"a\", \"b\"); }", 1, 13, "strncmp() requires 3 arguments (2 provided)"},
	{"BEGIN { @ = strcontains(\"a\", 2); }", 1, 30,
	 "strcontains() only supports string arguments (integer provided)"},
	{"BEGIN { @ = bswap(\"ab\"); }", 1, 13, "bswap() only supports integer arguments (string provided)"},
	{"BEGIN { print(strerror(\"a\")); }", 1, 24,
	 "strerror() only supports integer arguments (string provided)"},
	{"BEGIN { @[strerror(1)] = count(); }", 1, 11,
	 "invalid mapkey argument type: strerror() text cannot be a map key"},
	{"BEGIN { @[cgroup_path(1)] = count(); }", 1, 11,
	 "invalid mapkey argument type: cgroup_path() text cannot be a map key"},
	{"BEGIN { print(cgroup_path(1, 2)); }", 1, 15,
	 "cgroup_path() only supports string arguments (integer provided)"},
	{"BEGIN { $s = \"1.2.3.4\"; print(pton($s)); }", 1, 36, "pton() expects a string literal argument"},
	{"BEGIN { print(pton(\"1.2.3\")); }", 1, 20, "pton(): invalid IPv4 address \"1.2.3\""},
	{"BEGIN { print(pton(\"::g\")); }", 1, 20, "pton(): invalid IPv6 address \"::g\""},
	{"BEGIN { print(macaddr(\"abcdef\")); }", 1, 23, "macaddr() does not support literal string arguments"},
	{"BEGIN { print(macaddr(pton(\"::1\"))); }", 1, 23, "macaddr() argument must be 6 bytes in size"},
	{"BEGIN { print(macaddr((1, 2))); }", 1, 23,
	 "macaddr() takes a pointer or a 6-byte array (tuple provided)"},
	{"BEGIN { print(reg(\"sp\")); }", 1, 15, "reg can not be used with \"BEGIN\" probes"},
	{TP " { print(reg(\"ip\")); }", 1, 47, "reg can not be used with \"tracepoint\" probes"},
	{"profile:hz:99 { print(reg(\"foo\")); }", 1, 27,
	 "'foo' is not a valid register on this architecture (x86_64)"},
	{"BEGIN { debugf(\"%d %d %d %d\", 1, 2, 3, 4); }", 1, 9,
	 "debugf: Cannot use more than 3 conversion specifiers"},
	{"BEGIN { debugf(\"%s\", ksym(1)); }", 1, 22, "debugf() prints integers and strings only "
	 "(bpf_trace_printk)"},
	{"BEGIN { override(1); }", 1, 9, "override() is an unsafe function being used in safe mode"},
	{TP " { sarg0 }", 1, 41, "The sarg0 builtin can only be used with 'kprobes' and 'uprobes' probes"},
	{"BEGIN { sarg10 }", 1, 9, "Unknown identifier: 'sarg10'"},
	{TP " { ctx }", 1, 41, "Use args instead of ctx in tracepoint"},
	{"END { ctx }", 1, 7, "invalid program type\nhint: ctx is a struct pt_regs * in kprobe, "
	 "uprobe and usdt probes, a struct bpf_perf_event_data * in profile, interval, software, "
	 "hardware and watchpoint probes, the iterator's record in iter probes"},
	{"profile:hz:99," TP " { ctx }", 1, 55, "ctx cannot be used in different BPF program types: "
	 "BPF_PROG_TYPE_PERF_EVENT and BPF_PROG_TYPE_TRACEPOINT"},
	{"profile:hz:99 { @[ctx] = 1 }", 1, 17, "context cannot be used as a map key"},
	{"profile:hz:99 { @x = ctx }", 1, 20, "context cannot be assigned to a map"},
	{"profile:hz:99 { print(ctx) }", 1, 17, "(ctx) struct bpf_perf_event_data * type passed to "
	 "print() is not printable"},
	{"profile:hz:99 { $x = (int8 *)ctx }", 1, 22, "Integer pointer casts are not supported for "
	 "type: ctx"},
	{"BEGIN { $r = skboutput(\"a\", (struct sk_buff *)0, 1, 1); }", 1, 14, "BPF_FUNC_skb_output is "
	 "not available for your kernel version\nhint: the kernel offers bpf_skb_output to "
	 "kfunc/kretfunc probes only, not to BEGIN probes"},
	{TP " { $r = skboutput(\"a\", (struct sk_buff *)0, 1, 1); }", 1, 46, "BPF_FUNC_skb_output is "
	 "not available for your kernel version\nhint: the kernel offers bpf_skb_output to "
	 "kfunc/kretfunc probes only, not to tracepoint probes"},
	{"BEGIN { skboutput(\"a\", (struct sk_buff *)0, 1, 1); }", 1, 9, "skboutput() should be "
	 "assigned to a variable"},
	{"BEGIN { @m = skboutput(\"a\", (struct sk_buff *)0, 1, 1); }", 1, 14, "skboutput() should be "
	 "assigned to a variable"},
	{"BEGIN { printf(\"%d\", skboutput(\"a\", (struct sk_buff *)0, 1, 1)); }", 1, 22,
	 "skboutput() should be assigned to a variable"},
	{"BEGIN { $r = skboutput(\"a\", (struct sk_buff *)0, 1); }", 1, 14, "skboutput() requires 4 "
	 "arguments (3 provided)"},
	{TP " { path(1); }", 1, 41, "The path function can only be used with 'kfunc', 'kretfunc', "
	 "'iter' probes"},
};

/* unsafe errors */
static void test_unsafe_errors(void)
{
	Options o = make_opts(true);
	expect_error("BEGIN { override(1); }", &o, 0, 0, "override can only be used with kprobes.");
}

static void test_errors(void)
{
	Options o = make_opts(false);
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		expect_error(errs[i].prog, &o, errs[i].line, errs[i].col, errs[i].msg);
}

static void test_types(void)
{
	Compiled r = compile_text("BEGIN { strncmp(comm, \"a\", 1); strcontains(comm, \"x\"); "
				  "bswap((int16)1); bswap((uint8)1); bswap(1); strerror(1); pton(\"::1\"); "
				  "pton(\"1.2.3.4\"); macaddr(0); cgroup_path(1, \"cpu*\"); numaid; username; }");
	CHECK(r.sc != NULL);
	if (!r.sc) {
		fprintf(stderr, "  %s\n", r.err.msg);
		return;
	}
	CHECK(stmt_type(&r, 0)->kind == TY_INT && stmt_type(&r, 1)->kind == TY_INT);
	CHECK(stmt_type(&r, 2)->bits == 16 && !stmt_type(&r, 2)->is_signed);
	CHECK(stmt_type(&r, 3)->bits == 8 && !stmt_type(&r, 3)->is_signed);
	CHECK(stmt_type(&r, 4)->bits == 64);
	CHECK(stmt_type(&r, 5)->kind == TY_STRERROR);
	CHECK(stmt_type(&r, 6)->kind == TY_ARRAY && stmt_type(&r, 6)->count == 16);
	CHECK(stmt_type(&r, 7)->kind == TY_ARRAY && stmt_type(&r, 7)->size == 4);
	CHECK(stmt_type(&r, 8)->kind == TY_MACADDR);
	CHECK(stmt_type(&r, 9)->kind == TY_CGROUP_PATH && !strcmp(stmt_type(&r, 9)->fmt, "cpu*"));
	CHECK(stmt_type(&r, 10)->kind == TY_INT && stmt_type(&r, 10)->bits == 32);
	CHECK(stmt_type(&r, 11)->kind == TY_USERNAME);
	compiled_free(&r);
}

/* The first instruction of the BEGIN program with this code, or -1. */
static int find_insn(const Script *sc, uint8_t code, int32_t imm)
{
	const ProgCode *p = sc->progs.v[0];
	for (int i = 0; i < p->ninsns; i++)
		if (p->insns[i].code == code && p->insns[i].imm == imm)
			return i;
	return -1;
}

static void test_codegen(void)
{
	Compiled r = compile_text("BEGIN { @a = bswap((uint16)1); @b = bswap((uint32)1); "
				  "@c = bswap(1); @d = bswap((uint8)1); @n = numaid; }");
	CHECK(r.sc != NULL);
	if (r.sc) {
		uint8_t end = BPF_ALU | BPF_END | BPF_TO_BE;
		CHECK(find_insn(r.sc, end, 16) >= 0);
		CHECK(find_insn(r.sc, end, 32) >= 0);
		CHECK(find_insn(r.sc, end, 64) >= 0);
		CHECK(find_insn(r.sc, end, 8) < 0); /* one byte: nothing to swap */
		CHECK(find_insn(r.sc, BPF_JMP | BPF_CALL, BPF_FUNC_get_numa_node_id) >= 0);
	}
	compiled_free(&r);
	/* debugf: bpf_trace_printk with the format's size (NUL included) in r2 */
	r = compile_text("BEGIN { debugf(\"a%d %s\\n\", 1, comm); }");
	CHECK(r.sc != NULL);
	if (r.sc) {
		int call = find_insn(r.sc, BPF_JMP | BPF_CALL, BPF_FUNC_trace_printk);
		CHECK(call >= 0);
		CHECK(find_insn(r.sc, BPF_ALU64 | BPF_MOV | BPF_K, 8) >= 0 &&
		      find_insn(r.sc, BPF_ALU64 | BPF_MOV | BPF_K, 8) < call);
		CHECK(r.sc->warnings.n == 1);
	}
	compiled_free(&r);
	/* reg() in a perf-event program: a load from the context at pt_regs' offset */
	r = compile_text("profile:hz:99 { @ = reg(\"sp\"); }");
	CHECK(r.sc != NULL);
	if (r.sc) {
		const ProgCode *p = r.sc->progs.v[0];
		bool found = false;
		for (int i = 0; i < p->ninsns; i++)
			found |= p->insns[i].code == (BPF_LDX | BPF_MEM | BPF_DW) &&
				 p->insns[i].src_reg == BPF_REG_6 && p->insns[i].off == 152;
		CHECK(found);
	}
	compiled_free(&r);
}

/* every name has one row per dialect set; a second row is found (last:
 * it leaves the table with the duplicate) */
static void test_registry(void)
{
	static const FuncDef twice[] = {{.name = "strncmp", .kind = FK_EXPR}};
	CHECK(builtin_duplicate() == NULL);
	CHECK(func_find("strncmp") != NULL);
	builtin_register(twice, 1);
	CHECK(builtin_duplicate() != NULL && !strcmp(builtin_duplicate(), "strncmp"));
}

int main(void)
{
	test_errors();
	test_unsafe_errors();
	test_types();
	test_codegen();
	test_registry();
	return check_done("test_funcs");
}
