/* Type rules of the functions that reach into the probe's context or the
 * kernel: cgroup_path, reg, debugf, override, signal, path, skboutput,
 * unwatch; one row each in sema_call.c's table. */
#include <signal.h>
#include <string.h>

#include "sema.h"
#include "sema_call_int.h"

/* cgroup_path(id[, "hierarchy filter"]): paths found when printed */
bool sema_check_cgroup_path(Sema *s, Expr *c)
{
	if (!sema_arg_kind(s, c, 0, TY_INT))
		return false;
	Expr *f = c->args.n > 1 ? c->args.v[1] : NULL;
	if (f && f->kind != E_STR && s->sc->opt.dialect == DIALECT_BPFTRACE) { /* its words */
		if (!sema_expr(s, f))
			return false;
		if (f->type->kind != TY_STR)
			return sema_error_late(s, c->loc, "cgroup_path() only supports string arguments "
					       "(%s provided)", bpf_kind(f->type));
		return sema_error(s, f->loc, "cgroup_path() argument 2 must be a string literal");
	}
	if (f && !sema_arg_literal_str(s, c, 1))
		return false;
	c->type = ty_simple(s, TY_CGROUP_PATH, 8);
	c->type->fmt = c->args.n > 1 ? c->args.v[1]->sval : NULL;
	return true;
}

/* Registers reg() names: x86-64 struct pt_regs in field order, 8 bytes
 * each.  The context of kprobe/uprobe programs is a pt_regs, and that of
 * perf-event programs (profile, interval, software, watchpoint) starts
 * with one. */
static const char *const pt_regs_fields[] = {
	"r15", "r14", "r13", "r12", "bp", "bx", "r11", "r10", "r9",    "r8", "ax",
	"cx",  "dx",  "si",  "di",  "orig_ax", "ip", "cs", "flags", "sp", "ss",
};

int pt_regs_offset(const char *reg)
{
	for (size_t i = 0; i < sizeof(pt_regs_fields) / sizeof(pt_regs_fields[0]); i++)
		if (!strcmp(pt_regs_fields[i], reg))
			return (int)i * 8;
	return -1;
}

/* reg() or uaddr() in a probe that has no use for it: bpftrace 0.17 says
 * so after the argument's own errors and then checks the argument as well
 * (reg($u) in BEGIN: $u, the probe type, the literal); false to stop */
bool sema_bt_wrong_probe(Sema *s, Expr *c)
{
	if (s->all && c->args.v[0]->kind != E_STR)
		(void)sema_expr(s, c->args.v[0]);
	sema_error(s, c->loc, "%s can not be used with \"%s\" probes", c->name, s->spec->prov->name);
	return s->all;
}

bool sema_check_reg(Sema *s, Expr *c)
{
	const Provider *p = s->spec->prov;
	bool here = !p->is_special && (p->prog_type == BPF_PROG_TYPE_KPROBE ||
				       p->prog_type == BPF_PROG_TYPE_PERF_EVENT);
	if (!here && !sema_bt_wrong_probe(s, c))
		return false;
	if (!sema_arg_literal_str(s, c, 0))
		return false;
	c->aux = pt_regs_offset(c->args.v[0]->sval);
	if (c->aux < 0)
		return sema_error(s, c->args.v[0]->loc, "'%s' is not a valid register on this "
				  "architecture (x86_64)", c->args.v[0]->sval);
	if (!here)
		return false;
	c->type = ty_int(s, 64, false);
	return true;
}

/* debugf(fmt, ...): bpf_trace_printk to the kernel's trace buffer, which
 * takes at most three arguments: integers and strings */
bool sema_check_debugf(Sema *s, Expr *c)
{
	if (!sema_check_format(s, c, 1))
		return false;
	if (c->args.n > 4)
		return sema_error(s, c->loc, "debugf: Cannot use more than 3 conversion specifiers");
	for (int i = 1; i < c->args.n; i++) {
		const Type *t = c->args.v[i]->type;
		if (t->kind != TY_INT && t->kind != TY_STR && (t->kind != TY_NONE || s->strict))
			return sema_error(s, c->args.v[i]->loc, "debugf() prints integers and strings "
					  "only (bpf_trace_printk)");
	}
	if (s->warn)
		sema_warn(s, c->loc, "The debugf() builtin is not recommended for production use. For "
			  "more information see bpf_trace_printk in bpf-helpers(7).");
	return true;
}

/* override(rc): bpf_override_return, kprobes only, and unsafe */
bool sema_check_override(Sema *s, Expr *c)
{
	if (!s->sc->opt.unsafe)
		return sema_error(s, c->loc, "override() is an unsafe function being used in safe mode");
	if (!s->spec->prov->can_override)
		return sema_error(s, c->loc, "override can only be used with kprobes.");
	return sema_arg_kind(s, c, 0, TY_INT);
}

/* A signal's number from its name, "KILL" or "SIGKILL" (any case), or 0 */
static int signal_number(const char *name)
{
	if (!strncasecmp(name, "SIG", 3))
		name += 3;
	for (int i = 1; i < NSIG; i++) {
		const char *abbrev = sigabbrev_np(i);
		if (abbrev && *name && !strcasecmp(abbrev, name))
			return i;
	}
	return 0;
}

/* signal(SIG): bpf_send_signal to the current task, unsafe, in probes that
 * run in a task's context; a name or a literal number is checked here
 * (aux = the number), any other integer at run time (aux = 0) */
bool sema_check_signal(Sema *s, Expr *c)
{
	const Provider *p = s->spec->prov;
	Expr *a = c->args.v[0];
	if (!s->sc->opt.unsafe)
		return sema_error(s, c->loc, "signal() is an unsafe function being used in safe mode\n"
				  "hint: --unsafe allows it");
	if (!p->can_signal)
		return sema_error(s, c->loc, "signal can not be used with \"%s\" probes", p->name);
	c->aux = 0;
	if (a->kind == E_STR) {
		c->aux = signal_number(a->sval);
		if (!c->aux)
			return sema_error(s, c->loc, "%s is not a valid signal", a->sval);
		return true;
	}
	if (a->kind == E_INT && (a->ival < 1 || a->ival > 64))
		return sema_error(s, c->loc, "%lld is not a valid signal, allowed range: [1,64]",
				  (long long)a->ival);
	if (!sema_expr(s, a))
		return false;
	if (a->type->kind != TY_INT && (a->type->kind != TY_NONE || s->strict))
		return sema_error(s, c->loc, "signal only accepts string literals or integers");
	c->aux = a->kind == E_INT ? (int)a->ival : 0;
	return true;
}

/* path(p): the path of a struct path * through bpf_d_path, which only
 * BPF tracing programs (kfunc/kretfunc) may call, on the functions the
 * kernel allows it in (the verifier says which not). */
bool sema_check_path(Sema *s, Expr *c)
{
	if (s->spec->prov->prog_type != BPF_PROG_TYPE_TRACING || s->spec->prov->is_special)
		return sema_error(s, c->loc, "The path function can only be used with 'kfunc', "
				  "'kretfunc', 'iter' probes");
	if (!sema_arg_kind(s, c, 0, TY_INT))
		return false;
	c->type = ty_str(s, s->sc->opt.strlen_max);
	return true;
}

/* skboutput(path, skb, length, offset): the first `length` bytes of the
 * skb's data go to the pcap file `path`, from `offset` on (runtime/
 * skb_capture.c).  The kernel offers bpf_skb_output to BPF tracing programs
 * (kfunc/kretfunc) only: elsewhere bpftrace 0.17's words, which its feature
 * probe prints, and why.  Its value is the helper's: 0, or a negative errno
 * as a uint32. */
bool sema_check_skboutput(Sema *s, Expr *c)
{
	const Provider *p = s->spec->prov;
	if (p->prog_type != BPF_PROG_TYPE_TRACING || p->is_special)
		return sema_error(s, c->loc, "BPF_FUNC_skb_output is not available for your kernel "
				  "version\nhint: the kernel offers bpf_skb_output to kfunc/kretfunc "
				  "probes only, not to %s probes", p->name);
	if (!sema_arg_literal_str(s, c, 0))
		return false;
	if (!c->args.v[0]->slen)
		return sema_error(s, c->args.v[0]->loc, "skboutput() needs a file name");
	Expr *skb = c->args.v[1];
	if (!sema_expr(s, skb))
		return false;
	if (!type_is_ptr(skb->type) && (skb->type->kind != TY_NONE || s->strict))
		return sema_error(s, skb->loc, "skboutput() only supports pointer arguments (%s "
				  "provided)", bpf_kind(skb->type));
	if (!sema_arg_kind(s, c, 2, TY_INT) || !sema_arg_kind(s, c, 3, TY_INT))
		return false;
	c->type = ty_int(s, 32, false);
	return true;
}

/* unwatch(addr): stop watching addr (every watchpoint on it), as bpftrace */
bool sema_check_unwatch(Sema *s, Expr *c)
{
	return sema_arg_kind(s, c, 0, TY_INT);
}
