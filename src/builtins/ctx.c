/* The functions that reach into the probe's context or the kernel:
 * cgroup_path, reg, debugf, override, signal (0.26's signal_thread), path, skboutput, unwatch;
 * each one's type rule and code generation (cgroup_path's value is
 * printed by its type, runtime/value_format.c; skboutput's packets are
 * written by runtime/skb_capture.c). */
#include <signal.h>
#include <stddef.h>
#include <string.h>

#include "../compile/codegen.h"
#include "../compile/codegen_ctype.h"
#include "../compile/sema_hooks.h"
#include "builtins.h"

/* cgroup_path(id[, "hierarchy filter"]): paths found when printed */
static bool check_cgroup_path(Sema *s, Expr *c)
{
	if (!sema_arg_kind(s, c, 0, TY_INT))
		return false;
	Expr *f = c->args.n > 1 ? c->args.v[1] : NULL;
	if (f && f->kind != E_STR && sema_hooks(s)->arg_kind_first) {
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

/* reg("ip"): the register's offset in pt_regs, in c->aux */
static bool check_reg(Sema *s, Expr *c)
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

static void gen_reg(Gen *g, const Expr *e)
{
	emit(g, I_LDX(BPF_DW, BPF_REG_0, R_CTX, e->aux));
}

/* a register holds an address of the probe's side (bpftrace's tag) */
static int reg_addrspace(const Sema *s, const Expr *c)
{
	(void)c;
	return sema_probe_addrspace(s);
}

/* debugf(fmt, ...): bpf_trace_printk to the kernel's trace buffer, which
 * takes at most three arguments: integers and strings */
static bool check_debugf(Sema *s, Expr *c)
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

/* bpf_trace_printk(fmt, size, a1, a2, a3), the format from the read-only
 * strings map; a string argument is passed as the address of its scratch
 * copy. */
static void gen_debugf(Gen *g, const Expr *e)
{
	const Expr *f = e->args.v[0];
	int n = e->args.n - 1, mark = g->scratch_top, off[3];
	for (int i = 0; i < n; i++) {
		const Expr *a = e->args.v[i + 1];
		if (a->type->kind == TY_STR) {
			off[i] = gen_mem(g, a);
			continue;
		}
		off[i] = scratch_alloc(g, 8);
		gen_int(g, a);
		emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, off[i]);
	}
	for (int i = 0; i < n; i++) {
		if (e->args.v[i + 1]->type->kind == TY_STR)
			emit_scratch_ptr(g, BPF_REG_3 + i, off[i]);
		else
			emit_ldx(g, BPF_DW, BPF_REG_3 + i, R_SCR, off[i]);
	}
	emit_ld_map_value(g, BPF_REG_1, R_RODATA, script_rodata_add(g->sc, f->sval, f->slen));
	emit(g, I_MOV64_IMM(BPF_REG_2, (int)f->slen + 1));
	emit_call(g, BPF_FUNC_trace_printk);
	g->scratch_top = mark;
}

/* override(rc): bpf_override_return, kprobes only, and unsafe */
static bool check_override(Sema *s, Expr *c)
{
	if (!s->sc->opt.unsafe)
		return sema_error(s, c->loc, "override() is an unsafe function being used in safe mode");
	if (!s->spec->prov->can_override)
		return sema_error(s, c->loc, "override can only be used with kprobes.");
	return sema_arg_kind(s, c, 0, TY_INT);
}

static void gen_override(Gen *g, const Expr *e)
{
	gen_int(g, e->args.v[0]);
	emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_0));
	emit(g, I_MOV64_REG(BPF_REG_1, R_CTX));
	emit_call(g, BPF_FUNC_override_return);
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
static bool check_signal(Sema *s, Expr *c)
{
	const Provider *p = s->spec->prov;
	Expr *a = c->args.v[0];
	if (!s->sc->opt.unsafe)
		return sema_error(s, c->loc, "%s() is an unsafe function being used in safe mode\n"
				  "hint: --unsafe allows it", c->name);
	if (!p->can_signal)
		return sema_error(s, c->loc, "%s can not be used with \"%s\" probes", c->name, p->name);
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

/* -k reports a failure (a kernel thread, an exiting task) */
static void gen_send_signal(Gen *g, const Expr *e, int helper)
{
	if (e->aux)
		emit(g, I_MOV64_IMM(BPF_REG_0, e->aux));
	else
		gen_int(g, e->args.v[0]);
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
	emit_call(g, helper);
	gen_helper_check(g, helper);
}

static void gen_signal(Gen *g, const Expr *e)
{
	gen_send_signal(g, e, BPF_FUNC_send_signal);
}

/* 0.26's signal_thread(SIG): to the traced thread, not its process */
static void gen_signal_thread(Gen *g, const Expr *e)
{
	gen_send_signal(g, e, BPF_FUNC_send_signal_thread);
}

/* path(p[, size]): the path of a struct path through bpf_d_path.  The
 * kernel lets tracing programs (fentry/fexit on the functions it allows,
 * and iterators) call it, with a pointer it trusts: one loaded straight
 * from the probe's context (gen_btf_ptr), such as an iterator's
 * ctx->file->f_path or fentry's args.file->f_path.  bpftrace names the
 * probe types by its version's words (`probes`); 0.26 takes a size, a
 * literal that replaces max_strlen. */
static bool check_path_as(Sema *s, Expr *c, const char *probes)
{
	int size = s->sc->opt.strlen_max;
	if (c->args.n > 1) {
		const Expr *n = c->args.v[1];
		if (n->kind != E_INT || (int64_t)n->ival < 0 || n->ival > INT32_MAX)
			return sema_error(s, c->loc, "path: invalid size value, need non-negative literal");
		size = (int)n->ival;
	}
	if (s->spec->prov->prog_type != BPF_PROG_TYPE_TRACING || s->spec->prov->is_special)
		return sema_error(s, c->loc, "The path function can only be used with %s probes", probes);
	Expr *p = c->args.v[0];
	if (!sema_expr(s, p))
		return false;
	if (!type_is_ptr(p->type) && p->type->kind != TY_RECORD)
		return sema_error(s, c->loc, "path() only supports pointer or record argument (%s "
				  "provided)", bpf_kind(p->type));
	c->type = ty_str(s, size);
	return true;
}

static bool check_path(Sema *s, Expr *c)
{
	return check_path_as(s, c, "'kfunc', 'kretfunc', 'iter'");
}

static bool check_path26(Sema *s, Expr *c)
{
	return check_path_as(s, c, "'fentry', 'fexit', 'iter'");
}

/* bpf_d_path writes the path, NUL-terminated; one longer than the buffer
 * keeps its end (the kernel fills the buffer from the back).  A NULL
 * pointer in the chain (an iterator's file) leaves the string empty. */
static void gen_path(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	emit_memzero(g, dst_off, dt->size);
	int skip = label_new(g);
	gen_btf_ptr(g, e->args.v[0], skip);
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
	emit_scratch_ptr(g, BPF_REG_2, dst_off);
	emit(g, I_MOV64_IMM(BPF_REG_3, e->type->size < dt->size ? e->type->size : dt->size));
	emit_call(g, BPF_FUNC_d_path);
	label_place(g, skip);
}

/* skboutput(path, skb, length, offset): the first `length` bytes of the
 * skb's data go to the pcap file `path`, from `offset` on (runtime/
 * skb_capture.c).  The kernel offers bpf_skb_output to BPF tracing programs
 * (kfunc/kretfunc) only: elsewhere bpftrace 0.17's words, which its feature
 * probe prints, and why.  Its value is the helper's: 0, or a negative errno
 * as a uint32. */
static bool check_skboutput(Sema *s, Expr *c)
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

/* bpf_skb_output(skb, perf array, len << 32 | BPF_F_CURRENT_CPU, record,
 * sizeof record) sends the record, then the first len bytes of the skb's
 * data; the runtime writes bytes offset..len of them to the path's pcap
 * file.  r0: the helper's result, as a uint32.  The skb is loaded last,
 * straight into r1: the verifier wants the BTF pointer the tracing
 * program's context gave. */
static void gen_skboutput(Gen *g, const Expr *e)
{
	bool streams = g->sc->traced_events; /* packets do not use the ring buffer */
	EventDesc *ev = event_new(g, EV_SKBOUTPUT, 0);
	g->sc->traced_events = streams;
	ev->text = e->args.v[0]->sval;
	ev->size = sizeof(SkbRecord);
	int mark = g->scratch_top;
	int rec = scratch_alloc(g, sizeof(SkbRecord));
	emit_st(g, BPF_DW, R_SCR, rec + offsetof(SkbRecord, id), g->sc->events.n - 1);
	gen_int(g, e->args.v[2]);
	emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_0, 32)); /* a length past 32 bits is not one */
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, rec + offsetof(SkbRecord, len));
	gen_int(g, e->args.v[3]);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, rec + offsetof(SkbRecord, offset));
	emit_call(g, BPF_FUNC_ktime_get_ns);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, rec + offsetof(SkbRecord, ns));
	gen_int(g, e->args.v[1]);
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
	emit_ld_map(g, BPF_REG_2, R_PERFBUF, 0);
	emit_ldx(g, BPF_DW, BPF_REG_3, R_SCR, rec + offsetof(SkbRecord, len));
	emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_3, 32));
	emit_ld_imm64(g, BPF_REG_4, BPF_F_CURRENT_CPU);
	emit(g, I_ALU64_REG(BPF_OR, BPF_REG_3, BPF_REG_4));
	emit_scratch_ptr(g, BPF_REG_4, rec);
	emit(g, I_MOV64_IMM(BPF_REG_5, sizeof(SkbRecord)));
	emit_call(g, BPF_FUNC_skb_output);
	gen_cast_r0(g, e->type);
	g->scratch_top = mark;
}

/* unwatch(addr): stop watching addr (every watchpoint on it), as bpftrace;
 * the runtime does it on the event */
static bool check_unwatch(Sema *s, Expr *c)
{
	return sema_arg_kind(s, c, 0, TY_INT);
}

static void gen_unwatch(Gen *g, const Expr *e)
{
	gen_args_event(g, EV_UNWATCH, e, 0);
}

static const FuncDef ctx_funcs[] = {
	{"cgroup_path", FK_EXPR, 1, 2, check_cgroup_path, .gen_into = builtin_gen_int_into /* the runtime looks up the id's paths */},
	{"reg", FK_EXPR, 1, 1, check_reg, .gen_int = gen_reg, .addrspace = reg_addrspace},
	{"debugf", FK_STMT, 1, 64, check_debugf, .gen_stmt = gen_debugf},
	{"override", FK_STMT, 1, 1, check_override, .gen_stmt = gen_override},
	{"signal", FK_STMT, 1, 1, check_signal, .gen_stmt = gen_signal},
	{"signal_thread", FK_STMT, 1, 1, check_signal, .gen_stmt = gen_signal_thread,
	 .sets = FSET_BT_STDLIB},
	{"path", FK_EXPR, 1, 1, check_path, .gen_into = gen_path},
	{"path", FK_EXPR, 1, 2, check_path26, .gen_into = gen_path, .sets = FSET_BT_STDLIB},
	{"skboutput", FK_VAR, 4, 4, check_skboutput, .gen_int = gen_skboutput},
	{"unwatch", FK_STMT, 1, 1, check_unwatch, .gen_stmt = gen_unwatch},
};
BUILTINS(ctx_funcs)
