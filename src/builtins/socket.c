/* bpftrace 0.26's socket_cookie(sk): the kernel's cookie of a socket
 * (bpf_get_socket_cookie), generated on first use and stable for the
 * socket's life; 0 for a NULL socket.  Its type rule and code.  The kernel
 * offers the helper, on a `struct sock *` it can trust (a BTF pointer), to
 * BPF tracing programs only: fentry/fexit, and rawtracepoint where the
 * tracepoint has BTF (probes/provider_rawtracepoint.c). */
#include <string.h>

#include "../compile/codegen.h"
#include "../compile/sema_hooks.h"

static bool is_sock_ptr(const Type *t)
{
	const Type *p = type_is_ptr(t) ? t->pointee : NULL;
	return p && p->kind == TY_RECORD && p->cname && !strcmp(p->cname, "struct sock");
}

static bool check_socket_cookie(Sema *s, Expr *c)
{
	const Provider *p = s->spec->prov;
	if (p->prog_type != BPF_PROG_TYPE_TRACING || p->is_special)
		return sema_error(s, c->loc, "socket_cookie() needs a socket the kernel can trust (a BTF "
				  "pointer): fentry/fexit and rawtracepoint probes have them, %s probes "
				  "do not", p->name);
	Expr *sk = c->args.v[0];
	if (!sema_expr(s, sk))
		return false;
	if (!is_sock_ptr(sk->type)) {
		char buf[128];
		return sema_error(s, sk->loc, "socket_cookie() only supports 'struct sock *' as the "
				  "argument ('%s' provided)", type_name(sk->type, buf, sizeof(buf)));
	}
	c->type = ty_int(s, 64, false);
	return true;
}

/* The socket is loaded last, straight into r1: the verifier wants the BTF
 * pointer the tracing program's context gave. */
static void gen_socket_cookie(Gen *g, const Expr *e)
{
	gen_int(g, e->args.v[0]);
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
	emit_call(g, BPF_FUNC_get_socket_cookie);
}

static const FuncDef socket_funcs[] = {
	{"socket_cookie", FK_EXPR, 1, 1, check_socket_cookie, .gen_int = gen_socket_cookie,
	 .sets = FSET_BT_STDLIB},
};
BUILTINS(socket_funcs)
