/* The functions that make a value from an address, a number or a name:
 * str, buf, ksym, usym, kaddr, uaddr, cgroupid, kptr, uptr, ntop,
 * syscall_name; each one's type rule, code generation and bpftrace's tag
 * of the memory it points into (sema_addrspace.c).  ksym's, usym's,
 * ntop's, buf's and syscall_name's values are printed by their types
 * (runtime/value_format.c). */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "../sym/cgroup_paths.h"
#include "../sym/elf_syms.h"
#include "../sym/ksyms.h"
#include "../compile/codegen.h"
#include "../compile/sema_hooks.h"
#include "builtins.h"

static Type *str_type(Sema *s)
{
	return ty_str(s, s->sc->opt.strlen_max);
}

static Type *ksym_type(Sema *s)
{
	return ty_simple(s, TY_KSYM, 8);
}

static Type *usym_type(Sema *s)
{
	return ty_simple(s, TY_USYM, 16);
}

static Type *ntop_type(Sema *s)
{
	return ty_simple(s, TY_INET, 24);
}


/* bpftrace's tags: kernel memory (buf, kaddr, kptr), user memory (uaddr,
 * uptr); str() keeps its operand's (str($1) is copied to the stack) */
static int in_kernel(const Sema *s, const Expr *c)
{
	(void)s;
	(void)c;
	return AS_KERNEL;
}

static int in_user(const Sema *s, const Expr *c)
{
	(void)s;
	(void)c;
	return AS_USER;
}

static int str_addrspace(const Sema *s, const Expr *c)
{
	(void)s;
	if (!c->args.n)
		return AS_NONE;
	return c->args.v[0]->kind == E_POSPARAM ? AS_KERNEL : c->args.v[0]->addrspace;
}

/* kptr(p), uptr(p): only the type changes, the address is the argument;
 * one function each, so that str() knows kptr()'s (is_kptr) */
static void gen_kptr(Gen *g, const Expr *e)
{
	gen_int(g, e->args.v[0]);
}

static void gen_uptr(Gen *g, const Expr *e)
{
	gen_int(g, e->args.v[0]);
}

/* bpftrace's words: str() reads memory, a value already a string is refused
 * (str(comm)).  The call keeps its type: a variable it is assigned to
 * still has one, as in bpftrace. */
static bool str_arg_error(Sema *s, Expr *c, const Expr *a)
{
	char tb[128];
	c->type = str_type(s);
	return sema_error(s, c->loc, "str() expects an integer or a pointer type as first argument "
			  "(%s provided)", type_name(a->type, tb, sizeof(tb)));
}

/* args->F of a tracepoint's __data_loc string: an integer (its offset) to
 * bpftrace, which str() reads; sonde reads it as a string either way */
static bool is_data_loc(const Sema *s, const Expr *a)
{
	if (a->kind != E_FIELD || a->a->type->kind != TY_CTX || s->spec->uevent ||
	    s->spec->prov->args != ARGS_FIELDS)
		return false;
	const TpField *f = tp_format_field(&s->spec->tp, a->name);
	return f && f->is_data_loc;
}


static bool check_str(Sema *s, Expr *c)
{
	Expr *a = c->args.v[0];
	int size = s->sc->opt.strlen_max;
	Expr *len = c->args.n == 2 ? c->args.v[1] : NULL;
	bool literal_len = len && (len->kind == E_INT || (len->kind == E_UNOP && len->op == OP_NEG &&
							    len->a->kind == E_INT));
	c->aux2 = len && !literal_len; /* a length computed at run time (string[STRLEN]) */
	if (c->aux2 && a->kind != E_POSPARAM) {
		if (!sema_int_operand(s, c, 1))
			return false;
	} else if (len) {
		int64_t n;
		if (!sema_arg_literal_int(s, c, 1, &n))
			return false;
		if (n < 0) /* str(p, 0) is "", as bpftrace's */
			return sema_error(s, c->args.v[1]->loc, "str(): the length must not be negative");
		if (n < size)
			size = (int)n + 1;
	}
	if (a->kind == E_POSPARAM) {
		c->aux = 1; /* a constant: the parameter's text */
		c->type = ty_str(s, size);
		return true;
	}
	if (!sema_expr(s, a))
		return false;
	if (a->type->kind == TY_STR && sema_hooks(s)->str_needs_address && !is_data_loc(s, a))
		return str_arg_error(s, c, a);
	if (a->type->kind == TY_STR) {
		if (c->aux2)
			return sema_arg_literal_int(s, c, 1, &(int64_t){0});
		c->aux = 2; /* already a string: str() truncates/copies */
		c->type = ty_str(s, a->type->size < size ? a->type->size : size);
		return true;
	}
	if (a->type->kind != TY_INT && (s->strict || a->type->kind != TY_NONE) &&
	    sema_hooks(s)->str_needs_address)
		return str_arg_error(s, c, a);
	if (!sema_arg_int(s, c, 0))
		return false;
	c->type = ty_str(s, size);
	return true;
}

/* Options.str_fills: when the read filled the buffer (r0 = size, the NUL
 * at its end), its last byte is read again as the string's own byte, a
 * NUL if the string was size - 1 long; the source address is at r10+src */
static void gen_str_fill(Gen *g, int dst_off, int size, int helper, int src)
{
	int done = label_new(g);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_0, size, done);
	emit_scratch_ptr(g, BPF_REG_1, dst_off + size - 1);
	emit(g, I_MOV64_IMM(BPF_REG_2, 1));
	emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_10, src));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, size - 1));
	emit_call(g, helper);
	label_place(g, done);
}

static void gen_str(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	const Expr *a = e->args.v[0];
	if (e->aux == 1) { /* str($N): the parameter's text */
		const Options *o = &g->sc->opt;
		const char *p = a->ival >= 1 && (int)a->ival <= o->nparams ? o->params[a->ival - 1] : "";
		int n = (int)strlen(p) < dt->size ? (int)strlen(p) : dt->size - 1;
		emit_store_bytes(g, dst_off, p, n);
		emit_memzero(g, dst_off + n, dt->size - n);
		return;
	}
	if (e->aux == 2) {
		int mark = g->scratch_top, src = gen_mem(g, a);
		gen_copy_value(g, R_SCR, src, a->type, dst_off, dt);
		g->scratch_top = mark;
		return;
	}
	/* zero first: a large zeroing is a helper call that clobbers r1-r5 */
	emit_memzero(g, dst_off, dt->size);
	gen_int(g, a);
	if (e->aux2) { /* str(p, n): n + 1 bytes (with the NUL), at most the type's */
		emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, dst_off); /* p, while n is computed */
		gen_int(g, e->args.v[1]);
		emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_0, 1));
		emit(g, I_JMP_IMM(BPF_JLE, BPF_REG_0, e->type->size, 1));
		emit(g, I_MOV64_IMM(BPF_REG_0, e->type->size));
		emit(g, I_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 1));
		emit(g, I_MOV64_IMM(BPF_REG_0, 1));
		emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_0));
		emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, dst_off));
		emit_st(g, BPF_DW, R_SCR, dst_off, 0);
	} else {
		emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_0));
		emit(g, I_MOV64_IMM(BPF_REG_2, e->type->size));
	}
	emit_scratch_ptr(g, BPF_REG_1, dst_off);
	/* the legacy helper reads user or kernel memory by address, which is
	 * what a tracer wants for pointers whose origin it cannot know; user
	 * memory where the probe says so (bpftrace's choice, named by -kk);
	 * kernel memory only where the script says so with kptr() (a user
	 * address reads as "", as in bpftrace) */
	bool kptr = a->kind == E_CALL && a->func && a->func->gen_int == gen_kptr;
	bool user = cg_user_addr(g, a->type), fills = g->sc->opt.str_fills && !e->aux2 &&
							e->args.n == 1;
	int helper = user ? BPF_FUNC_probe_read_user_str
		     : kptr ? BPF_FUNC_probe_read_kernel_str
			    : BPF_FUNC_probe_read_str;
	int src = fills ? stack_push(g) : 0;
	if (fills)
		emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_3, src));
	emit_call(g, helper);
	gen_helper_check(g, helper);
	if (fills) {
		gen_str_fill(g, dst_off, dt->size, user ? BPF_FUNC_probe_read_user
						    : kptr ? BPF_FUNC_probe_read_kernel
							   : BPF_FUNC_probe_read, src);
		stack_pop(g);
	}
}

static bool check_ksym(Sema *s, Expr *c)
{
	if (!sema_arg_int(s, c, 0))
		return false;
	c->type = ksym_type(s);
	return true;
}

/* the first argument as a number (ksym's address, syscall_name's number,
 * strerror's errno, cgroup_path's id): the runtime prints it by its type */
void builtin_gen_int_into(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	(void)dt;
	gen_int(g, e->args.v[0]);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, dst_off);
}

void builtin_gen_ksym_into(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	builtin_gen_int_into(g, e, dst_off, dt);
}

/* syscall_name(nr): the number, printed as the system call's name */
static bool check_syscall_name(Sema *s, Expr *c)
{
	if (!sema_arg_int(s, c, 0))
		return false;
	c->type = ty_simple(s, TY_SYSCALL, 8);
	return true;
}

static bool check_kaddr(Sema *s, Expr *c)
{
	if (!sema_arg_literal_str(s, c, 0))
		return false;
	uint64_t a = ksym_any_addr(s->sc->opt.sym, c->args.v[0]->sval);
	if (!a)
		return sema_error(s, c->args.v[0]->loc, "Failed to resolve kernel symbol: %s\n"
				  "hint: /proc/kallsyms has no such symbol (most data symbols appear "
				  "there only with CONFIG_KALLSYMS_ALL)", c->args.v[0]->sval);
	c->ival = a;
	c->type = ty_int(s, 64, false);
	return true;
}

/* kaddr, uaddr, cgroupid: a constant the check resolved (c->ival) */
static void gen_constant(Gen *g, const Expr *e)
{
	emit_ld_imm64(g, BPF_REG_0, e->ival);
}

/* cgroupid("/sys/fs/cgroup/unified/a"): resolved now, a constant */
static bool check_cgroupid(Sema *s, Expr *c)
{
	if (!sema_arg_literal_str(s, c, 0))
		return false;
	uint64_t id;
	if (!cgroup_id_of_path(c->args.v[0]->sval, &id))
		return sema_error(s, c->args.v[0]->loc, "Failed to get `cgroupid` for path: \"%s\": %s",
				  c->args.v[0]->sval, strerror(errno));
	c->ival = (int64_t)id;
	c->type = ty_int(s, 64, false);
	return true;
}

static bool check_usym(Sema *s, Expr *c)
{
	if (!sema_arg_int(s, c, 0))
		return false;
	c->type = usym_type(s);
	s->sc->uses_usym = true;
	return true;
}

/* the address, then the process it belongs to */
void builtin_gen_usym_into(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	(void)dt;
	gen_int(g, e->args.v[0]);
	gen_usym_store(g, dst_off);
}

/* uaddr("sym"): the address of a function or data symbol of the probe's
 * binary (uprobe/usdt), as a user pointer to a signed integer of the
 * symbol's size (1, 2, 4 bytes; else 8), as bpftrace types it: `*uaddr("x")`
 * reads it, and a cast retypes it. */
static bool check_uaddr(Sema *s, Expr *c)
{
	const ProbeSpec *sp = s->spec;
	bool here = sp->prov->space == SPACE_USER && sp->target;
	if (!here && !sema_bt_wrong_probe(s, c))
		return false;
	if (!sema_arg_literal_str(s, c, 0))
		return false;
	/* bpftrace looks in the probe's binary: none outside uprobes */
	const ElfSym *sym = here ? usym_lookup(s->sc->opt.sym, sp->target, c->args.v[0]->sval) : NULL;
	if (!sym)
		return sema_error(s, c->loc, "Could not resolve symbol: %s:%s", here ? sp->target : "",
				  c->args.v[0]->sval);
	c->ival = sym->addr;
	int bits = sym->size == 1 || sym->size == 2 || sym->size == 4 ? (int)sym->size * 8 : 64;
	c->type = ty_int(s, 64, false);
	c->type->pointee = ty_int(s, bits, true);
	c->type->user = true;
	return true;
}

/* buf(ptr, n): n bytes read from an address (a literal sets the size; an
 * expression is bounded by BPFTRACE_STRLEN).  buf(value[, n]): the bytes
 * of an array (n defaults to its size) or of a string (n required, as in
 * bpftrace); c->aux2 marks that form, c->ival holds n. */
static bool check_buf(Sema *s, Expr *c)
{
	Expr *a = c->args.v[0], *n = c->args.n > 1 ? c->args.v[1] : NULL;
	if (!sema_expr(s, a))
		return false;
	if (a->type->kind == TY_NONE && !s->strict) {
		c->type = a->type;
		return true;
	}
	bool value = a->type->kind == TY_ARRAY || a->type->kind == TY_STR;
	char tb[128];
	type_name(a->type, tb, sizeof(tb));
	if (!value && a->type->kind != TY_INT)
		return sema_error(s, a->loc, "buf() argument 1 must be an integer, an array or a "
				  "string, not %s", tb);
	if (!n && a->type->kind != TY_ARRAY) /* bpftrace's words */
		return sema_error_late(s, c->loc, "buf() expects a length argument for non-array type %s",
				  a->type->kind == TY_STR ? "string" : tb);
	int64_t size = value ? a->type->size : s->sc->opt.strlen_max;
	if (n)
		sema_posparam_fold(s, n);
	if (n && n->kind == E_INT) {
		if ((int64_t)n->ival < 1 || n->ival > (1 << 20))
			return sema_error(s, n->loc, "buf(): the length must be from 1 to 1048576");
		size = (int64_t)n->ival; /* past a value's end: zeros */
	} else if (n && value) {
		return sema_error(s, n->loc, "buf(): the length of a buffer of %s must be a literal",
				  a->type->kind == TY_STR ? "a string" : "an array");
	} else if (n && !sema_int_operand(s, c, 1)) {
		return false;
	}
	c->aux = n && n->kind != E_INT; /* a length computed at run time */
	c->aux2 = value;
	c->ival = (uint64_t)size;
	c->type = ty_simple(s, TY_BUF, 8 + (int)((size + 7) & ~7));
	return true;
}

/* buf(ptr, n): length, then the bytes (zeroed first: a short read and the
 * padding must not leak stale scratch bytes into map keys) */
static void gen_buf(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	int cap = e->type->size - 8;
	emit_memzero(g, dst_off, dt->size);
	if (e->aux2) { /* the bytes of an array or string value */
		int mark = g->scratch_top, src = gen_mem(g, e->args.v[0]);
		emit_st(g, BPF_DW, R_SCR, dst_off, (int)e->ival);
		int vsize = e->args.v[0]->type->size;
		emit_memcpy(g, dst_off + 8, R_SCR, src, (int)e->ival < vsize ? (int)e->ival : vsize);
		g->scratch_top = mark;
		return;
	}
	if (!e->aux)
		cap = (int)e->ival; /* exactly the literal length */
	if (e->aux) {
		int done = label_new(g);
		gen_int(g, e->args.v[1]);
		emit_jmp_imm(g, BPF_JSLE, BPF_REG_0, cap, done);
		emit(g, I_MOV64_IMM(BPF_REG_0, cap));
		label_place(g, done);
		int ok = label_new(g);
		emit_jmp_imm(g, BPF_JSGE, BPF_REG_0, 0, ok);
		emit(g, I_MOV64_IMM(BPF_REG_0, 0));
		label_place(g, ok);
		emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, dst_off);
	} else {
		emit_ld_imm64(g, BPF_REG_0, (uint64_t)cap);
		emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, dst_off);
	}
	gen_int(g, e->args.v[0]);
	emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_0));
	if (e->aux) { /* bounds again for the verifier, after the reload */
		int skip = label_new(g);
		emit_ldx(g, BPF_DW, BPF_REG_2, R_SCR, dst_off);
		emit_jmp_imm(g, BPF_JLE, BPF_REG_2, cap, skip);
		emit(g, I_MOV64_IMM(BPF_REG_2, 0));
		label_place(g, skip);
	} else {
		emit(g, I_MOV64_IMM(BPF_REG_2, cap));
	}
	emit_scratch_ptr(g, BPF_REG_1, dst_off + 8);
	/* the legacy helper reads user or kernel memory by address */
	emit_call(g, BPF_FUNC_probe_read);
	gen_helper_check(g, BPF_FUNC_probe_read);
}

/* ntop([af,] addr): addr an integer (IPv4) or an array of 4 or 16 bytes
 * (IPv4 or IPv6 by its size: c->aux2) */
static bool check_ntop(Sema *s, Expr *c)
{
	int last = c->args.n - 1;
	for (int i = 0; i < last; i++)
		if (!sema_arg_int(s, c, i))
			return false;
	Expr *a = c->args.v[last];
	if (!sema_expr(s, a))
		return false;
	c->aux2 = 0;
	bool bytes = a->type->kind == TY_STR || (a->type->kind == TY_ARRAY &&
						 type_csize(a->type->pointee) == 1);
	if (bytes && (a->type->size == 4 || a->type->size == 16))
		c->aux2 = a->type->size;
	else if ((a->type->kind == TY_STR || a->type->kind == TY_ARRAY) &&
		 sema_hooks(s)->ntop_sized_bytes)
		return sema_error(s, c->loc, "ntop() argument must be 4 or 16 bytes in size");
	else if (!sema_arg_int(s, c, last))
		return false;
	c->type = ntop_type(s);
	return true;
}


static void gen_ntop(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	(void)dt;
	emit_memzero(g, dst_off, 24);
	if (e->aux2) { /* the bytes of an array: IPv4 or IPv6 by its size */
		if (e->args.n == 2) {
			gen_int(g, e->args.v[0]);
			emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, dst_off);
		} else {
			emit_st(g, BPF_DW, R_SCR, dst_off, e->aux2 == 4 ? AF_INET : AF_INET6);
		}
		int mark = g->scratch_top, src = gen_mem(g, e->args.v[e->args.n - 1]);
		emit_memcpy(g, dst_off + 8, R_SCR, src, e->aux2);
		g->scratch_top = mark;
		return;
	}
	if (e->args.n == 2) {
		gen_int(g, e->args.v[0]);
		emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, dst_off);
		gen_int(g, e->args.v[1]);
	} else {
		emit_st(g, BPF_DW, R_SCR, dst_off, AF_INET);
		gen_int(g, e->args.v[0]);
	}
	emit_stx(g, BPF_W, R_SCR, BPF_REG_0, dst_off + 8);
}

/* bpftrace's first checks of the arguments of str(), ksym()... */
static const BtArgCheck str_arg = {
	"str() expects an integer or a pointer type as first argument (%2$s provided)", .typed = true};
static const BtArgCheck sym_arg = {
	"%1$s() expects an integer or pointer argument", .ints = true, .ptrs = true, .typed = true};
static const BtArgCheck ptr_arg = {"%1$s() only supports integer or pointer arguments (%2$s "
				   "provided)", .ints = true, .ptrs = true, .typed = true};
static const BtArgCheck ntop_arg = {"%1$s() expects an integer or array argument, got %2$s",
				    .last = true};


static const FuncDef value_funcs[] = {
	{"str", FK_EXPR, 1, 2, check_str, .bt_arg = &str_arg, .kept_type = str_type,
	 .gen_into = gen_str, .addrspace = str_addrspace},
	{"ksym", FK_EXPR, 1, 1, check_ksym, .bt_arg = &sym_arg, .kept_type = ksym_type,
	 .gen_into = builtin_gen_ksym_into},
	{"kaddr", FK_EXPR, 1, 1, check_kaddr, .gen_int = gen_constant, .addrspace = in_kernel},
	{"ntop", FK_EXPR, 1, 2, check_ntop, .bt_arg = &ntop_arg, .kept_type = ntop_type,
	 .gen_into = gen_ntop},
	{"usym", FK_EXPR, 1, 1, check_usym, .bt_arg = &sym_arg, .kept_type = usym_type,
	 .gen_into = builtin_gen_usym_into},
	{"uaddr", FK_EXPR, 1, 1, check_uaddr, .gen_int = gen_constant, .addrspace = in_user},
	{"buf", FK_EXPR, 1, 2, check_buf, .gen_into = gen_buf, .addrspace = in_kernel},
	{"kptr", FK_EXPR, 1, 1, sema_ctype_addrspace, .bt_arg = &ptr_arg, .gen_int = gen_kptr,
	 .addrspace = in_kernel},
	{"uptr", FK_EXPR, 1, 1, sema_ctype_addrspace, .bt_arg = &ptr_arg, .gen_int = gen_uptr,
	 .addrspace = in_user},
	{"syscall_name", FK_EXPR, 1, 1, check_syscall_name, .gen_into = builtin_gen_int_into},
	{"cgroupid", FK_EXPR, 1, 1, check_cgroupid, .gen_int = gen_constant},
};
BUILTINS(value_funcs)
