/* Builtin variables: a table of names and their types, and where each may
 * be used. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lang/sym_types.h"
#include "../sym/dwarf_args.h"
#include "../lang/ctypes.h"
#include "sema_hooks.h"

static const BuiltinDef builtins[] = {
	{"pid", B_PID, TY_INT, 64, false},        {"tid", B_TID, TY_INT, 64, false},
	{"uid", B_UID, TY_INT, 64, false},        {"gid", B_GID, TY_INT, 64, false},
	{"cpu", B_CPU, TY_INT, 64, false},        {"comm", B_COMM, TY_STR, 16, false},
	{"nsecs", B_NSECS, TY_INT, 64, false},    {"elapsed", B_ELAPSED, TY_INT, 64, false},
	{"cgroup", B_CGROUP, TY_INT, 64, false},  {"curtask", B_CURTASK, TY_INT, 64, false},
	{"rand", B_RAND, TY_INT, 64, false},      {"probe", B_PROBE, TY_STR, 0, false},
	{"kstack", B_KSTACK, TY_KSTACK, 8, false}, {"ustack", B_USTACK, TY_USTACK, 16, false},
	{"retval", B_RETVAL, TY_INT, 64, true},   {"args", B_ARGS, TY_CTX, 0, false},
	{"cpid", B_CPID, TY_INT, 32, false},      {"func", B_FUNC, TY_STR, 0, false},
	{"numaid", B_NUMAID, TY_INT, 32, false},  {"username", B_USERNAME, TY_USERNAME, 8, false},
	{"ctx", B_CTX, TY_INT, 64, false},
	{"locals", B_LOCALS, TY_CTX, 0, false},
};

bool builtin_var_named(const char *name, unsigned sets)
{
	for (size_t i = 0; i < sizeof(builtins) / sizeof(*builtins); i++)
		if (!strcmp(builtins[i].name, name))
			return true;
	return builtin_var_find(name, sets, true) || builtin_var_find(name, sets, false);
}

/* a family's variable: in_sets, one of an optional set the dialect sees
 * (bpftrace 0.26's jiffies; before the core's own: its nsecs); else one in
 * no set (python/: pystack), after the core's own */
static const BuiltinDef *family_builtin_find(const Sema *s, const char *name, bool in_sets)
{
	return builtin_var_find(name, sema_hooks(s)->func_sets, in_sets);
}

/* the dialect's own builtin (D's probe names and id) */
static const BuiltinDef *dialect_builtin_find(Sema *s, Expr *e)
{
	const SemaHooks *h = sema_hooks(s);
	for (int i = 0; i < h->nbuiltins; i++)
		if (!strcmp(h->builtins[i].name, e->name)) {
			e->aux = i; /* B_DPROBE: the part (prov, mod, func, name) */
			return &h->builtins[i];
		}
	return NULL;
}

/* argN: N in 0..9; sargN (stack arguments): N in 0..9, one digit */
static int arg_index(const char *name, const char *prefix)
{
	size_t p = strlen(prefix);
	if (strncmp(name, prefix, p) || !name[p] || strlen(name) > p + (*prefix == 's' ? 1 : 2))
		return -1;
	char *end;
	long n = strtol(name + p, &end, 10);
	return *end || n < 0 || n > 9 ? -1 : (int)n;
}

/* Size of the `probe` string: the longest probe name, so that one map keyed
 * by probe serves every probe. */
static int probe_name_size(Sema *s)
{
	size_t max = 0;
	for (int p = 0; p < s->sc->ast->nprobes; p++)
		for (int i = 0; i < s->sc->specs[p].n; i++) {
			size_t n = strlen(s->sc->specs[p].v[i].name);
			max = n > max ? n : max;
		}
	return (int)((max + 1 + 7) & ~(size_t)7);
}

/* Size of the `func` string: the longest function name of the probes. */
static int func_name_size(Sema *s)
{
	size_t max = 0;
	for (int p = 0; p < s->sc->ast->nprobes; p++)
		for (int i = 0; i < s->sc->specs[p].n; i++) {
			const char *f = s->sc->specs[p].v[i].func;
			size_t n = f ? strlen(f) : 0;
			max = n > max ? n : max;
		}
	return (int)((max + 1 + 7) & ~(size_t)7);
}

/* bpftrace's name of a probe's program type (BEGIN/END have none) */
static const char *prog_type_name(const Provider *p)
{
	if (p->is_special)
		return NULL;
	switch (p->prog_type) {
	case BPF_PROG_TYPE_KPROBE: return "BPF_PROG_TYPE_KPROBE";
	case BPF_PROG_TYPE_TRACEPOINT: return "BPF_PROG_TYPE_TRACEPOINT";
	case BPF_PROG_TYPE_PERF_EVENT: return "BPF_PROG_TYPE_PERF_EVENT";
	case BPF_PROG_TYPE_TRACING: return "BPF_PROG_TYPE_TRACING";
	case BPF_PROG_TYPE_RAW_TRACEPOINT: return "BPF_PROG_TYPE_RAW_TRACEPOINT";
	default: return "BPF_PROG_TYPE_UNSPEC";
	}
}

/* the index of the probe being analysed in the program */
static int probe_index(const Sema *s)
{
	for (int p = 0; p < s->sc->ast->nprobes; p++)
		if (s->sc->ast->probes[p] == s->probe)
			return p;
	return -1;
}

/* ctx is what the program is given: pt_regs (kprobe, uprobe, usdt),
 * bpf_perf_event_data (profile, interval, software, hardware, watchpoint),
 * an iterator's record; one program type for all the probe's attach points */
static bool check_ctx(Sema *s, Expr *e)
{
	const Provider *prov = s->spec->prov;
	const char *first = prog_type_name(prov);
	int p = probe_index(s);
	for (int i = 0; p >= 0 && i < s->sc->specs[p].n; i++) {
		const char *other = prog_type_name(s->sc->specs[p].v[i].prov);
		if (first && other && strcmp(first, other))
			return sema_error(s, e->loc, "ctx cannot be used in different BPF program "
					  "types: %s and %s", first, other);
	}
	if (prov->args == ARGS_FIELDS) /* its record is args */
		return sema_error(s, e->loc, "Use args instead of ctx in %s", prov->name);
	if (prov->ctx != CTX_NONE)
		return true;
	return sema_error(s, e->loc, "invalid program type\nhint: ctx is a struct pt_regs * in "
			  "kprobe, uprobe and usdt probes, a struct bpf_perf_event_data * in profile, "
			  "interval, software, hardware and watchpoint probes, the iterator's record in "
			  "iter probes");
}

static bool check_context(Sema *s, Expr *e, const BuiltinDef *b)
{
	const Provider *prov = s->spec->prov;
	switch (b->id) {
	case B_ARG:
		if (sema_hooks(s)->arg_elsewhere && sema_hooks(s)->arg_elsewhere(s, e->aux))
			return true;
		if (prov->ctx_arg_offset(s->spec, e->aux) < 0)
			return sema_error(s, e->loc, "%s is not available in %s probes%s", e->name,
					  prov->name, prov->args == ARGS_FIELDS
							  ? " (use args->FIELD; sonde -lv lists them)" : "");
		return true;
	case B_RETVAL:
		if (prov->ctx_arg_offset(s->spec, -1) < 0)
			return sema_error(s, e->loc, "retval is only available in return probes");
		return true;
	case B_ARGS:
		if (s->spec->uevent)
			return true;
		if (prov->args == ARGS_DWARF || s->spec->dwarf)
			return sema_uprobe_args(s, e);
		if (prov->args != ARGS_FIELDS)
			return sema_error(s, e->loc, "args is only available in tracepoint and uprobe "
					  "probes, not in %s", prov->name);
		return true;
	case B_LOCALS:
		return sema_uprobe_locals(s, e);
	case B_CPID:
		if (!s->sc->opt.cpid)
			return sema_error(s, e->loc, "cpid is only available when a command is run with -c");
		return true;
	case B_SARG: /* read from the stack: kernel or user by the probe type */
		if (!prov->stack_args)
			return sema_error(s, e->loc, "The %s builtin can only be used with 'kprobes' and "
					  "'uprobes' probes", e->name);
		return true;
	case B_CTX:
		return check_ctx(s, e);
	case B_FUNC:
		if (!prov->has_func)
			return sema_error(s, e->loc, "func is only available in uprobes and kprobes");
		return true;
	default:
		return true;
	}
}

/* BPFTRACE_NO_USER_SYMBOLS=1: bpftrace's func in a uprobe or uretprobe is
 * the instruction pointer as a user symbol (so an address, unresolved) */
static bool func_is_address(const Sema *s)
{
	return s->sc->opt.no_user_symbols && s->spec->prov->space == SPACE_USER;
}

#define BUILTIN_PREFIX "__builtin_"

/* X is also __builtin_X where the dialect says so (bpftrace 0.26, whose
 * standard library defines X as a macro of __builtin_X) */
static void builtin_unprefix(const Sema *s, Expr *e)
{
	size_t n = strlen(BUILTIN_PREFIX);
	if (sema_hooks(s)->vars_as_calls && !strncmp(e->name, BUILTIN_PREFIX, n) && e->name[n])
		e->name += n;
}

/* sargN's N, when the dialect has sargN; else -1 */
static int sarg_index(const Sema *s, const char *name)
{
	return sema_hooks(s)->no_sarg ? -1 : arg_index(name, "sarg");
}

bool sema_builtin_known(Sema *s, Expr *e)
{
	builtin_unprefix(s, e);
	if (arg_index(e->name, "arg") >= 0 || sarg_index(s, e->name) >= 0)
		return true;
	int aux = e->aux;
	bool known = family_builtin_find(s, e->name, true) || dialect_builtin_find(s, e) ||
		     family_builtin_find(s, e->name, false);
	e->aux = aux;
	for (size_t i = 0; !known && i < sizeof(builtins) / sizeof(builtins[0]); i++)
		known = !strcmp(builtins[i].name, e->name);
	return known;
}

bool sema_builtin(Sema *s, Expr *e)
{
	const BuiltinDef *b = NULL;
	builtin_unprefix(s, e);
	int argn = arg_index(e->name, "arg"), sargn = sarg_index(s, e->name);
	static const BuiltinDef argdef = {"arg", B_ARG, TY_INT, 64, false};
	static const BuiltinDef sargdef = {"sarg", B_SARG, TY_INT, 64, false};
	if (argn >= 0 || sargn >= 0) {
		b = argn >= 0 ? &argdef : &sargdef;
		e->aux = argn >= 0 ? argn : sargn;
	}
	if (!b)
		b = family_builtin_find(s, e->name, true);
	if (!b)
		b = dialect_builtin_find(s, e);
	for (size_t i = 0; !b && i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (!strcmp(builtins[i].name, e->name))
			b = &builtins[i];
	if (!b)
		b = family_builtin_find(s, e->name, false);
	if (!b && sema_ctype_const(s, e)) /* an enum constant or #define */
		return true;
	if (!b && cdefs_defined(s->sc->cdefs, e->name))
		return sema_error(s, e->loc, "'%s' is a macro whose value is not a constant sonde can "
				  "evaluate (only integer constant expressions are)", e->name);
	if (!b)
		return sema_error(s, e->loc, "Unknown identifier: '%s'", e->name);
	if (!check_context(s, e, b))
		return false;
	e->aux2 = b->id;
	int p = probe_index(s);
	if (p >= 0 && (b->id == B_PROBE || (b->id == B_ARGS && s->spec->prov->args == ARGS_FIELDS)))
		s->sc->expands[p] = true;
	if (b->id == B_FAMILY)
		e->auxp = (void *)b; /* its code, for codegen */
	if (b->check)
		return b->check(s, e);
	/* no rule of its own: the row's columns say its type */
	switch (b->kind) {
	case TY_INT:
		e->type = b->id == B_CURTASK ? sema_ctype_curtask(s) : ty_int(s, b->size, b->is_signed);
		if (b->truth) /* the dialect's type of a truth value */
			e->type = sema_truth_type(s);
		if (b->id == B_CTX) { /* struct bpf_iter__task *, ... from BTF */
			char rec[64];
			snprintf(rec, sizeof(rec), "bpf_iter__%s", s->spec->func);
			e->type = ty_int(s, 64, false);
			e->type->pointee = btf_lazy_record(s->sc->opt.sym, "struct", rec);
		}
		Type *rt = b->id == B_RETVAL && s->spec->dwarf ? type_of_return(s->sc->opt.sym, s->spec->dwarf) : NULL;
		if (rt && rt->kind == TY_INT) /* kretfunc: the BTF return type */
			e->type = rt->pointee ? rt : ty_int(s, rt->bits, rt->is_signed);
		if (b->id == B_CTX && s->spec->prov->ctx != CTX_ITER) /* the registers */
			e->type->pointee = btf_lazy_record(s->sc->opt.sym, "struct", s->spec->prov->ctx == CTX_PERF
							   ? "bpf_perf_event_data" : "pt_regs");
		if (b->id == B_CTX)
			e->type->ctx = true;
		break;
	case TY_STR:
		if (b->id == B_FUNC && func_is_address(s)) {
			e->type = ty_simple(s, TY_USYM, 16);
			s->sc->uses_usym = true;
			break;
		}
		e->type = ty_str(s, b->id == B_PROBE ? probe_name_size(s)
				    : b->id == B_FUNC ? func_name_size(s) : b->size);
		break;
	case TY_KSTACK:
	case TY_USTACK:
		e->type = ty_simple(s, b->kind, b->size);
		e->type->stack_depth = 127;
		e->type->stack_mode = sema_stack_mode(s, b->kind == TY_USTACK, e->loc);
		s->sc->uses_kstack |= b->kind == TY_KSTACK;
		s->sc->uses_ustack |= b->kind == TY_USTACK;
		break;
	default:
		e->type = ty_simple(s, b->kind, b->size);
	}
	return true;
}

/* the stack mode of a kstack/ustack that names none: the run's (bpftrace
 * 0.26's stack_mode config); build ids are a user stack's only */
StackMode sema_stack_mode(Sema *s, bool user, Loc loc)
{
	StackMode mode = s->sc->opt.stack_mode;
	if (mode != STACK_BUILD_ID || user)
		return mode;
	sema_warn(s, loc, "'build_id' stack mode can only be used for ustack. Falling back to 'raw' mode.");
	return STACK_RAW;
}
