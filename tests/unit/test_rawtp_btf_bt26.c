/* bpftrace 0.26's rawtracepoint with BTF arguments (probes/
 * provider_rawtracepoint.c under ProbeRules.rawtp_btf) and socket_cookie()
 * (builtins/socket.c), which needs the BTF socket pointer such a probe
 * gives: the probe's program type and BTF target, args.NAME's types, the
 * code, the errors (message and line:col), and 0.17's raw tracepoint.
 * Their output on the real kernel: tests/runtime/test_bt26_rawtp_btf.sh,
 * bt26's probe.rawtracepoint args and call.socket_cookie rawtracepoint. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compile_check.h"
#include "bt/generation_bt.h"
#include "sym/features.h"
#include "syms_check.h"

static const BtGeneration *g026, *g017;

static Compiled compile_t(const BtGeneration *g, const char *text) { return compile_as_sym(g, text, &test_syms); }
#define expect_gen_error(g, ...) expect_error_as(g, &test_syms, __VA_ARGS__)

static const Type *stmt_type(const Compiled *r, int i)
{
	return r->prog->probes[0]->body.v[i]->expr->type;
}

static void test_rawtp_spec(void)
{
	Compiled r = compile_t(g026, "rawtracepoint:sched_switch { args.next; args.preempt; arg1; }");
	CHECK(r.sc != NULL);
	const ProbeSpec *s = r.sc ? r.sc->progs.v[0]->spec : NULL;
	CHECK(s && s->prov->prog_type == BPF_PROG_TYPE_TRACING && s->attach_type == BPF_TRACE_RAW_TP);
	CHECK(s && s->btf_id > 0 && !strcmp(s->name, "rawtracepoint:vmlinux:sched_switch"));
	if (r.sc) {
		const Type *next = stmt_type(&r, 0);
		CHECK(type_is_ptr(next) && next->pointee->kind == TY_RECORD &&
		      !strcmp(next->pointee->cname, "struct task_struct"));
		CHECK(stmt_type(&r, 1)->kind == TY_INT && stmt_type(&r, 1)->bits == 8);
	}
	compiled_free(&r);
	/* 0.17: a raw tracepoint program, arg0.. only */
	r = compile_t(g017, "rawtracepoint:sched_switch { arg1; }");
	s = r.sc ? r.sc->progs.v[0]->spec : NULL;
	CHECK(s && s->prov->prog_type == BPF_PROG_TYPE_RAW_TRACEPOINT && s->btf_id == 0);
	compiled_free(&r);
	/* a wildcard: the tracepoints BTF has (not the syscalls' format files) */
	r = compile_t(g026, "rawtracepoint:sys_e* { }");
	CHECK(r.sc && r.sc->progs.n == 2);
	compiled_free(&r);
}

static void test_rawtp_errors(void)
{
	expect_gen_error(g026, "rawtracepoint:sched_switch { print(arg4); }", 1, 36,
			 "arg4 is not available in rawtracepoint probes");
	expect_gen_error(g026, "rawtracepoint:sched_switch { print(args.nope); }", 1, 41,
			 "sched_switch has no parameter 'nope'");
	expect_gen_error(g026, "rawtracepoint:nosuchmod:sched_switch { }", 1, 1,
			 "rawtracepoint:nosuchmod:sched_switch: no tracepoint 'sched_switch' in the BTF of "
			 "'nosuchmod' (a module must be loaded: sonde -l 'rawtracepoint:*' lists them)");
	expect_gen_error(g017, "rawtracepoint:sched_switch { print(args.next); }", 1, 36,
			 "args is only available in tracepoint and uprobe probes, not in rawtracepoint");
}

/* how many times program 0 calls helper fn, and whether r1 comes straight
 * from r0 before each (the socket as the context gave it) */
static int cookie_calls(const Script *sc)
{
	const ProgCode *p = sc->progs.v[0];
	int n = 0;
	for (int i = 1; i < p->ninsns; i++)
		n += p->insns[i].code == (BPF_JMP | BPF_CALL) && p->insns[i].src_reg == 0 &&
		     p->insns[i].imm == BPF_FUNC_get_socket_cookie &&
		     p->insns[i - 1].code == (BPF_ALU64 | BPF_MOV | BPF_X) &&
		     p->insns[i - 1].dst_reg == BPF_REG_1 && p->insns[i - 1].src_reg == BPF_REG_0;
	return n;
}

static void test_socket_cookie(void)
{
	Compiled r = compile_t(g026, "rawtracepoint:tcp_probe { socket_cookie(args.sk); }");
	CHECK(r.sc != NULL);
	if (r.sc) {
		const Type *t = stmt_type(&r, 0);
		CHECK(t->kind == TY_INT && t->bits == 64 && !t->is_signed);
		CHECK(cookie_calls(r.sc) == 1);
	}
	compiled_free(&r);
	expect_gen_error(g026, "rawtracepoint:tcp_probe { print(socket_cookie(args.skb)); }", 1, 52,
			 "socket_cookie() only supports 'struct sock *' as the argument "
			 "('struct sk_buff *' provided)");
	expect_gen_error(g026, "rawtracepoint:tcp_probe { print(socket_cookie(1)); }", 1, 47,
			 "socket_cookie() only supports 'struct sock *' as the argument ('int64' provided)");
	expect_gen_error(g026, "tracepoint:sock:inet_sock_set_state { print(socket_cookie(args.skaddr)); }",
			 1, 45, "socket_cookie() needs a socket the kernel can trust (a BTF pointer): "
			 "fentry/fexit and rawtracepoint probes have them, tracepoint probes do not");
	expect_gen_error(g026, "rawtracepoint:tcp_probe { print(socket_cookie()); }", 1, 33,
			 "socket_cookie() requires one argument (0 provided)");
	expect_gen_error(g017, "rawtracepoint:tcp_probe { print(socket_cookie(arg0)); }", 1, 33,
			 "Unknown function: socket_cookie");
}

int main(void)
{
	unsetenv("SONDE_COMPAT");
	g026 = bt_generation_named("0.26");
	g017 = bt_generation_named("0.17");
	if (kernel_tp_btf_errno()) { /* not root, or a kernel without BTF or tp_btf */
		fprintf(stderr, "SKIP test_rawtp_btf_bt26: %s\n", tracing_why(kernel_tp_btf_errno()));
		return check_done("test_rawtp_btf_bt26");
	}
	test_rawtp_spec();
	test_rawtp_errors();
	test_socket_cookie();
	return check_done("test_rawtp_btf_bt26");
}
