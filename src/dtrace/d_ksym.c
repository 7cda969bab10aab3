/* Kernel variables written with a backquote: `jiffies, vmlinux`max_pfn,
 * &`init_task.  The lexer keeps `name and module`name as one identifier;
 * here it becomes *(long *)ADDR, ADDR the variable's run-time address from
 * /proc/kallsyms (KASLR included: root sees the real addresses), so `x
 * reads the kernel's memory when the clause runs, &`x is the address, and
 * a cast of it gives any other type: ((struct task_struct *)&`init_task)->pid.
 *
 * The type: DTrace takes it from CTF; dtrace-utils on a kernel with only
 * BTF finds none for a variable that is not per-CPU (BTF has VAR entries
 * for per-CPU variables only) unless the script declares it (`extern
 * unsigned long max_pfn;`, `extern char linux_banner[];`: d_parser.c's
 * note_extern), as sonde does too.
 * Undeclared, sonde reads it as a long, the width of most kernel counters
 * (jiffies, max_pfn, totalram_pages' value). */
#include <stdio.h>
#include <string.h>

#include "../sym/ksyms.h"
#include "dtrace.h"

/* kernel addresses start here on x86_64; per-CPU variables' kallsyms
 * entries are offsets into each CPU's area, far below */
#define KERNEL_SPACE 0xffff800000000000ull

/* the module a kernel symbol is in: "vmlinux" or the module's name */
static bool in_module(SymCtx *sc, uint64_t addr, const char *mod)
{
	uint64_t off;
	char buf[64];
	const char *name = ksym_name(sc, addr, &off);
	const char *m = name ? ksym_module(sc, name, buf, sizeof(buf)) : "vmlinux";
	return !strcmp(m, mod);
}

bool d_is_ksym(const char *name)
{
	return strchr(name, '`') != NULL;
}

/* `TYPE *` of the variable's extern declaration, else "long *" */
static const char *ptr_type(Program *prog, const DEnv *env, const char *name)
{
	for (int i = env->nexterns - 1; i >= 0; i--)
		if (!strcmp(env->externs[i].name, name)) {
			const char *t = env->externs[i].type;
			size_t n = strlen(t);
			char *p = arena_alloc(&prog->arena, n + 3);
			snprintf(p, n + 3, "%s%s", t, t[n - 1] == '*' ? "*" : " *");
			return p;
		}
	return "long *";
}

Expr *d_ksym_expr(Program *prog, const DEnv *env, const Expr *e, Error *err)
{
	const char *bq = strchr(e->name, '`');
	char mod[64];
	snprintf(mod, sizeof(mod), "%.*s", (int)(bq - e->name), e->name);
	const char *name = bq + 1;
	uint64_t addr = ksym_any_addr(env->opt->sym, name);
	if (!addr || (mod[0] && !in_module(env->opt->sym, addr, mod))) {
		error_at(err, e->loc, "failed to resolve %s: Unknown symbol name", e->name);
		return NULL;
	}
	if (addr < KERNEL_SPACE) {
		error_at(err, e->loc, "%s is a per-CPU variable (its address is an offset in each CPU's "
			 "area): sonde reads kernel variables that are not per-CPU only", e->name);
		return NULL;
	}
	Expr *a = expr_new(prog, E_INT, e->loc), *cast = expr_new(prog, E_CAST, e->loc);
	Expr *deref = expr_new(prog, E_UNOP, e->loc);
	a->ival = addr;
	a->lit = LIT_ULONG;
	cast->name = (char *)ptr_type(prog, env, name);
	cast->a = a;
	deref->op = OP_DEREF;
	deref->a = cast;
	return deref;
}
