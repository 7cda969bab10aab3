/* bpftrace 0.26's percpu_kaddr(name [, cpu]): the address of the kernel's
 * per-CPU variable `name` on this CPU or on CPU `cpu`, a `uint64 *` (cast
 * it to the variable's type); its type rule and code.  The variable is
 * found in the kernel's BTF (a VAR) and handed to the verifier as a BTF id
 * (ld_imm64 BPF_PSEUDO_BTF_ID), which bpf_this_cpu_ptr/bpf_per_cpu_ptr
 * take; the second may return NULL (a CPU the machine lacks). */
#include <bpf/btf.h>

#include "../compile/codegen.h"
#include "../compile/sema_hooks.h"
#include "../sym/btf_load.h"

/* the BTF id of the kernel's variable `name` (aux), or an error */
static bool find_percpu_var(Sema *s, Expr *c)
{
	const Expr *a = c->args.v[0];
	struct btf *b = btf_kernel(s->sc->opt.sym);
	if (!b)
		return sema_error(s, c->loc, "percpu_kaddr() needs the kernel's BTF: %s",
				  btf_error(s->sc->opt.sym));
	int id = btf__find_by_name_kind(b, a->sval, BTF_KIND_VAR);
	if (id <= 0)
		return sema_error(s, a->loc, "Could not resolve variable \"%s\" from BTF", a->sval);
	c->aux = id;
	return true;
}

static bool check_percpu_kaddr(Sema *s, Expr *c)
{
	if (!sema_arg_literal_str(s, c, 0) || (c->args.n > 1 && !sema_arg_int(s, c, 1)))
		return false;
	if (!find_percpu_var(s, c))
		return false;
	c->type = ty_int(s, 64, false);
	c->type->pointee = ty_int(s, 64, false);
	return true;
}

/* r1 = the variable, as the verifier wants it: straight from ld_imm64 */
static void emit_percpu_var(Gen *g, int btf_id)
{
	emit(g, ((struct bpf_insn){.code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
				   .src_reg = BPF_PSEUDO_BTF_ID, .imm = btf_id}));
	emit(g, ((struct bpf_insn){0})); /* imm's high half; 0: vmlinux's BTF */
}

/* bpf_per_cpu_ptr's result may be NULL, and the verifier refuses any
 * arithmetic on such a pointer (a field's offset) until a branch has
 * compared the very register with 0.  The script's own check does not
 * count: `$p != 0` is computed as a value first, then tested.  So r0 is
 * compared here, a branch to the next instruction: on one path it is a
 * pointer, on the other the number 0, and either may be stored, compared
 * and offset (fields are read with bpf_probe_read_kernel, which reads a
 * field of 0 as zeros). */
static void emit_null_split(Gen *g)
{
	int next = label_new(g);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, next);
	label_place(g, next);
}

static void gen_percpu_kaddr(Gen *g, const Expr *e)
{
	if (e->args.n < 2) {
		emit_percpu_var(g, e->aux);
		emit_call(g, BPF_FUNC_this_cpu_ptr);
		return;
	}
	gen_int(g, e->args.v[1]);
	emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_0));
	emit_percpu_var(g, e->aux);
	emit_call(g, BPF_FUNC_per_cpu_ptr);
	emit_null_split(g);
}

static const FuncDef percpu_funcs[] = {
	{"percpu_kaddr", FK_EXPR, 1, 2, check_percpu_kaddr, .gen_int = gen_percpu_kaddr,
	 .sets = FSET_BT_STDLIB},
};
BUILTINS(percpu_funcs)
