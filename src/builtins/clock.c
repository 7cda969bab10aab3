/* The kernel's clocks as bpftrace 0.26 reads them: nsecs(monotonic | boot
 * | tai | sw_tai) and jiffies; each one's type rule and code generation.
 * 0.17's nsecs variable (CLOCK_MONOTONIC) is the core's (sema_builtin.c);
 * 0.26's nsecs and nsecs() are CLOCK_BOOTTIME, as its docs say. */
#include <string.h>
#include <time.h>

#include "../compile/codegen.h"
#include "../compile/sema_hooks.h"

typedef enum ClockMode { CLOCK_MODE_BOOT, CLOCK_MODE_MONOTONIC, CLOCK_MODE_TAI, CLOCK_MODE_SW_TAI } ClockMode;

static const char *const clock_modes[] = {
	[CLOCK_MODE_BOOT] = "boot",
	[CLOCK_MODE_MONOTONIC] = "monotonic",
	[CLOCK_MODE_TAI] = "tai",
	[CLOCK_MODE_SW_TAI] = "sw_tai",
};

/* nsecs([mode]): the mode is a bare word, kept in aux */
static bool check_nsecs(Sema *s, Expr *c)
{
	c->aux = CLOCK_MODE_BOOT;
	c->type = ty_int(s, 64, false);
	if (!c->args.n)
		return true;
	const Expr *m = c->args.v[0];
	for (size_t i = 0; m->kind == E_BUILTIN && i < sizeof(clock_modes) / sizeof(clock_modes[0]); i++)
		if (!strcmp(m->name, clock_modes[i])) {
			c->aux = (int)i;
			return true;
		}
	return sema_error(s, m->loc, "Invalid timestamp mode: nsecs() takes monotonic, boot, tai or "
			  "sw_tai");
}

static int64_t clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* sw_tai: the boot clock plus TAI's offset from it, measured once when
 * the program is compiled (for kernels without bpf_ktime_get_tai_ns) */
static void gen_nsecs(Gen *g, const Expr *e)
{
	switch ((ClockMode)e->aux) {
	case CLOCK_MODE_MONOTONIC:
		emit_call(g, BPF_FUNC_ktime_get_ns);
		return;
	case CLOCK_MODE_TAI:
		emit_call(g, BPF_FUNC_ktime_get_tai_ns);
		return;
	case CLOCK_MODE_SW_TAI:
		emit_call(g, BPF_FUNC_ktime_get_boot_ns);
		emit_ld_imm64(g, BPF_REG_1, (uint64_t)(clock_ns(CLOCK_TAI) - clock_ns(CLOCK_BOOTTIME)));
		emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1));
		return;
	case CLOCK_MODE_BOOT:
		break;
	}
	emit_call(g, BPF_FUNC_ktime_get_boot_ns);
}

static const FuncDef clock_funcs[] = {
	{"nsecs", FK_EXPR, 0, 1, check_nsecs, .gen_int = gen_nsecs, .sets = FSET_BT_STDLIB},
};
BUILTINS(clock_funcs)

/* --- variables: nsecs (0.26: the boot clock), jiffies ----------------- */

static void gen_boot_ns(Gen *g, const Expr *e)
{
	(void)e;
	emit_call(g, BPF_FUNC_ktime_get_boot_ns);
}

static void gen_jiffies(Gen *g, const Expr *e)
{
	(void)e;
	emit_call(g, BPF_FUNC_jiffies64);
}

static const BuiltinDef clock_vars[] = {
	{"nsecs", B_FAMILY, TY_INT, 64, false, .gen_int = gen_boot_ns, .sets = FSET_BT_STDLIB},
	{"jiffies", B_FAMILY, TY_INT, 64, false, .gen_int = gen_jiffies, .sets = FSET_BT_STDLIB},
};
BUILTIN_VARS(clock_vars)
