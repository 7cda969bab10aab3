/* prctl(2) as strace 6.1 prints it: the option's name, then what the option
 * takes, one row per option.  Most options are a string of argument kinds;
 * the few whose arguments depend on each other have a function. */
#include "calldec.h"

#include <string.h>
#include <linux/capability.h>
#include <linux/prctl.h>
#include <linux/securebits.h>
#include <linux/seccomp.h>

#include "decode_tables.h"
#include "fmt.h"

static const FlagName options[] = {
	N(PR_SET_PDEATHSIG), N(PR_GET_PDEATHSIG), N(PR_GET_DUMPABLE), N(PR_SET_DUMPABLE),
	N(PR_GET_UNALIGN), N(PR_SET_UNALIGN), N(PR_GET_KEEPCAPS), N(PR_SET_KEEPCAPS),
	N(PR_GET_FPEMU), N(PR_SET_FPEMU), N(PR_GET_FPEXC), N(PR_SET_FPEXC), N(PR_GET_TIMING),
	N(PR_SET_TIMING), N(PR_SET_NAME), N(PR_GET_NAME), N(PR_GET_ENDIAN), N(PR_SET_ENDIAN),
	N(PR_GET_SECCOMP), N(PR_SET_SECCOMP), N(PR_CAPBSET_READ), N(PR_CAPBSET_DROP),
	N(PR_GET_TSC), N(PR_SET_TSC), N(PR_GET_SECUREBITS), N(PR_SET_SECUREBITS),
	N(PR_SET_TIMERSLACK), N(PR_GET_TIMERSLACK), N(PR_TASK_PERF_EVENTS_DISABLE),
	N(PR_TASK_PERF_EVENTS_ENABLE), N(PR_MCE_KILL), N(PR_MCE_KILL_GET), N(PR_SET_MM),
	N(PR_SET_CHILD_SUBREAPER), N(PR_GET_CHILD_SUBREAPER), N(PR_SET_NO_NEW_PRIVS),
	N(PR_GET_NO_NEW_PRIVS), N(PR_GET_TID_ADDRESS), N(PR_SET_THP_DISABLE),
	N(PR_GET_THP_DISABLE), N(PR_MPX_ENABLE_MANAGEMENT), N(PR_MPX_DISABLE_MANAGEMENT),
	N(PR_SET_FP_MODE), N(PR_GET_FP_MODE), N(PR_CAP_AMBIENT), N(PR_SVE_SET_VL),
	N(PR_SVE_GET_VL), N(PR_GET_SPECULATION_CTRL), N(PR_SET_SPECULATION_CTRL),
	N(PR_PAC_RESET_KEYS), N(PR_SET_TAGGED_ADDR_CTRL), N(PR_GET_TAGGED_ADDR_CTRL),
	N(PR_SET_IO_FLUSHER), N(PR_GET_IO_FLUSHER), N(PR_SET_SYSCALL_USER_DISPATCH),
	N(PR_PAC_SET_ENABLED_KEYS), N(PR_PAC_GET_ENABLED_KEYS), N(PR_SCHED_CORE),
	N(PR_SME_SET_VL), N(PR_SME_GET_VL), N(PR_SET_VMA), N(PR_SET_PTRACER), END};

/* include/linux/sched.h's, not in the UAPI headers */
static const FlagName dumpable[] = {{0, "SUID_DUMP_DISABLE"}, {1, "SUID_DUMP_USER"},
				    {2, "SUID_DUMP_ROOT"}, END};
static const FlagName caps[] = {
	N(CAP_CHOWN), N(CAP_DAC_OVERRIDE), N(CAP_DAC_READ_SEARCH), N(CAP_FOWNER), N(CAP_FSETID),
	N(CAP_KILL), N(CAP_SETGID), N(CAP_SETUID), N(CAP_SETPCAP), N(CAP_LINUX_IMMUTABLE),
	N(CAP_NET_BIND_SERVICE), N(CAP_NET_BROADCAST), N(CAP_NET_ADMIN), N(CAP_NET_RAW),
	N(CAP_IPC_LOCK), N(CAP_IPC_OWNER), N(CAP_SYS_MODULE), N(CAP_SYS_RAWIO),
	N(CAP_SYS_CHROOT), N(CAP_SYS_PTRACE), N(CAP_SYS_PACCT), N(CAP_SYS_ADMIN),
	N(CAP_SYS_BOOT), N(CAP_SYS_NICE), N(CAP_SYS_RESOURCE), N(CAP_SYS_TIME),
	N(CAP_SYS_TTY_CONFIG), N(CAP_MKNOD), N(CAP_LEASE), N(CAP_AUDIT_WRITE),
	N(CAP_AUDIT_CONTROL), N(CAP_SETFCAP), N(CAP_MAC_OVERRIDE), N(CAP_MAC_ADMIN),
	N(CAP_SYSLOG), N(CAP_WAKE_ALARM), N(CAP_BLOCK_SUSPEND), N(CAP_AUDIT_READ),
	N(CAP_PERFMON), N(CAP_BPF), N(CAP_CHECKPOINT_RESTORE), END};
static const FlagName cap_ambient[] = {N(PR_CAP_AMBIENT_IS_SET), N(PR_CAP_AMBIENT_RAISE),
				       N(PR_CAP_AMBIENT_LOWER), N(PR_CAP_AMBIENT_CLEAR_ALL), END};
static const FlagName mce_kill[] = {N(PR_MCE_KILL_CLEAR), N(PR_MCE_KILL_SET), END};
static const FlagName mce_policy[] = {N(PR_MCE_KILL_LATE), N(PR_MCE_KILL_EARLY),
				      N(PR_MCE_KILL_DEFAULT), END};
static const FlagName pac_enabled[] = {N(PR_PAC_APIAKEY), N(PR_PAC_APIBKEY), N(PR_PAC_APDAKEY),
				       N(PR_PAC_APDBKEY), END};
static const FlagName pac_keys[] = {N(PR_PAC_APIAKEY), N(PR_PAC_APIBKEY), N(PR_PAC_APDAKEY),
				    N(PR_PAC_APDBKEY), N(PR_PAC_APGAKEY), END};
static const FlagName sched_core_cmds[] = {N(PR_SCHED_CORE_GET), N(PR_SCHED_CORE_CREATE),
					   N(PR_SCHED_CORE_SHARE_TO), N(PR_SCHED_CORE_SHARE_FROM), END};
/* include/linux/pid.h's enum pid_type */
static const FlagName pidtypes[] = {{0, "PIDTYPE_PID"}, {1, "PIDTYPE_TGID"}, {2, "PIDTYPE_PGID"},
				    {3, "PIDTYPE_SID"}, END};
static const FlagName set_mm[] = {
	N(PR_SET_MM_START_CODE), N(PR_SET_MM_END_CODE), N(PR_SET_MM_START_DATA),
	N(PR_SET_MM_END_DATA), N(PR_SET_MM_START_STACK), N(PR_SET_MM_START_BRK), N(PR_SET_MM_BRK),
	N(PR_SET_MM_ARG_START), N(PR_SET_MM_ARG_END), N(PR_SET_MM_ENV_START),
	N(PR_SET_MM_ENV_END), N(PR_SET_MM_AUXV), N(PR_SET_MM_EXE_FILE), N(PR_SET_MM_MAP),
	N(PR_SET_MM_MAP_SIZE), END};
static const FlagName set_vma[] = {N(PR_SET_VMA_ANON_NAME), END};
static const FlagName spec_cmds[] = {N(PR_SPEC_STORE_BYPASS), N(PR_SPEC_INDIRECT_BRANCH),
				     N(PR_SPEC_L1D_FLUSH), END};
static const FlagName spec_get[] = {N(PR_SPEC_NOT_AFFECTED), N(PR_SPEC_PRCTL), N(PR_SPEC_ENABLE),
				    N(PR_SPEC_DISABLE), N(PR_SPEC_FORCE_DISABLE),
				    N(PR_SPEC_DISABLE_NOEXEC), END};
static const FlagName spec_set[] = {N(PR_SPEC_ENABLE), N(PR_SPEC_DISABLE), N(PR_SPEC_FORCE_DISABLE),
				    N(PR_SPEC_DISABLE_NOEXEC), END};
static const FlagName sud_cmds[] = {N(PR_SYS_DISPATCH_OFF), N(PR_SYS_DISPATCH_ON), END};
static const FlagName sve_flags[] = {N(PR_SVE_SET_VL_ONEXEC), N(PR_SVE_VL_INHERIT), END};
static const FlagName sme_flags[] = {N(PR_SME_SET_VL_ONEXEC), N(PR_SME_VL_INHERIT), END};
static const FlagName tsc[] = {N(PR_TSC_ENABLE), N(PR_TSC_SIGSEGV), END};
static const FlagName unalign[] = {N(PR_UNALIGN_NOPRINT), N(PR_UNALIGN_SIGBUS), END};
static const FlagName fp_mode[] = {N(PR_FP_MODE_FR), N(PR_FP_MODE_FRE), END};
static const FlagName seccomp_mode[] = {N(SECCOMP_MODE_DISABLED), N(SECCOMP_MODE_STRICT),
					N(SECCOMP_MODE_FILTER), END};
static const FlagName secbits[] = {
	N(SECBIT_NOROOT), N(SECBIT_NOROOT_LOCKED), N(SECBIT_NO_SETUID_FIXUP),
	N(SECBIT_NO_SETUID_FIXUP_LOCKED), N(SECBIT_KEEP_CAPS), N(SECBIT_KEEP_CAPS_LOCKED),
	N(SECBIT_NO_CAP_AMBIENT_RAISE), N(SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED), END};

/* how a successful return shows */
enum { R_DEC, R_NAME /* " (NAME)" */, R_FLAGS /* hex and " (A|B)" */, R_TAGGED, R_SPEC, R_SVE, R_SME };

typedef struct PrctlRow {
	unsigned opt;
	/* a letter per argument from arg2 on:
	 *  u unsigned  d signed  x hex  p address  g PR_SET_PDEATHSIG's signal
	 *  e, E the table's enum (64, 32 bits)  f, F its flags (64, 32 bits)
	 *  n a task name (15 bytes)  * the rest in hex
	 * what the call fills in, at exit (its address if it failed):
	 *  U [unsigned int]  S [signal]  X [the table's enum]  Y [its flags]
	 *  K [a pointer]  N a task name (16 bytes) */
	const char *args;
	const FlagName *t;
	const char *unknown;
	uint8_t ret;
	const FlagName *rt; /* R_NAME's, R_FLAGS' */
	void (*fn)(StrBuf *b, const CallView *v); /* instead of args */
} PrctlRow;

static void put_rest(StrBuf *b, const CallView *v, int from)
{
	for (int i = from; i < 5; i++) {
		fb_lit(b, ", ");
		fb_hex(b, v->a[i]);
	}
}

/* a task name: up to the NUL within max bytes, or max bytes and "..." */
static void put_task_name(StrBuf *b, const CallView *v, size_t max)
{
	const uint8_t *d = v->cap[1];
	size_t len = v->caplen[1] < max ? v->caplen[1] : max;
	const uint8_t *z = d ? memchr(d, 0, len) : NULL;
	if (!v->a[1]) {
		fb_lit(b, "NULL");
	} else if (z) {
		size_t n = (size_t)(z - d);
		dec_str(b, d, n, v->strsize, n > v->strsize);
	} else if (d && len == max) {
		dec_str(b, d, max, v->strsize, true);
	} else {
		fb_hex(b, v->a[1]);
	}
}

/* an int the call stored at arg2, as [VALUE] */
static void put_out_int(StrBuf *b, const CallView *v, char k, const PrctlRow *r)
{
	uint32_t x;
	if (cv_failed(v) || !v->cap[1] || v->caplen[1] < (k == 'K' ? 8u : 4u)) {
		dec_ptr(b, v->a[1]);
		return;
	}
	memcpy(&x, v->cap[1], 4);
	fb_putc(b, '[');
	if (k == 'U')
		fb_u64(b, x);
	else if (k == 'S')
		dec_signal(b, (int)x);
	else if (k == 'X')
		dec_enum_unknown(b, r->t, x, r->unknown);
	else if (k == 'Y')
		dec_flags_unknown(b, r->t, x, r->unknown);
	else {
		uint64_t p;
		memcpy(&p, v->cap[1], 8);
		dec_ptr(b, p);
	}
	fb_putc(b, ']');
}

static void put_kind(StrBuf *b, const CallView *v, const PrctlRow *r, char k, int i)
{
	uint64_t x = v->a[i];
	switch (k) {
	case 'u': fb_u64(b, x); break;
	case 'd': fb_i64(b, (int64_t)x); break;
	case 'x': fb_hex(b, x); break;
	case 'p': dec_ptr(b, x); break;
	case 'g':
		if (x > 128)
			fb_u64(b, x);
		else
			dec_signal(b, (int)x);
		break;
	case 'e': dec_enum_unknown(b, r->t, x, r->unknown); break;
	case 'E': dec_enum_unknown(b, r->t, (uint32_t)x, r->unknown); break;
	case 'f': dec_flags_unknown(b, r->t, x, r->unknown); break;
	case 'F': dec_flags_unknown(b, r->t, (uint32_t)x, r->unknown); break;
	case 'n': put_task_name(b, v, 15); break;
	case 'N':
		if (cv_failed(v))
			dec_ptr(b, x);
		else
			put_task_name(b, v, 16);
		break;
	default: put_out_int(b, v, k, r); break;
	}
}

static void cap_ambient_args(StrBuf *b, const CallView *v)
{
	fb_lit(b, ", ");
	dec_enum_unknown(b, cap_ambient, v->a[1], "PR_CAP_AMBIENT_???");
	if (v->a[1] == PR_CAP_AMBIENT_RAISE || v->a[1] == PR_CAP_AMBIENT_LOWER ||
	    v->a[1] == PR_CAP_AMBIENT_IS_SET) {
		fb_lit(b, ", ");
		dec_enum_unknown(b, caps, v->a[2], "CAP_???");
		put_rest(b, v, 3);
	} else {
		put_rest(b, v, 2);
	}
}

static void mce_kill_args(StrBuf *b, const CallView *v)
{
	fb_lit(b, ", ");
	dec_enum_unknown(b, mce_kill, v->a[1], "PR_MCE_KILL_???");
	fb_lit(b, ", ");
	if (v->a[1] == PR_MCE_KILL_SET)
		dec_enum_unknown(b, mce_policy, v->a[2], "PR_MCE_KILL_???");
	else
		fb_hex(b, v->a[2]);
	put_rest(b, v, 3);
}

static void set_vma_args(StrBuf *b, const CallView *v)
{
	fb_lit(b, ", ");
	dec_enum_unknown(b, set_vma, v->a[1], "PR_SET_VMA_???");
	if (v->a[1] != PR_SET_VMA_ANON_NAME) {
		put_rest(b, v, 2);
		return;
	}
	fb_lit(b, ", ");
	dec_ptr(b, v->a[2]);
	fb_lit(b, ", ");
	fb_u64(b, v->a[3]);
	fb_lit(b, ", ");
	if (v->a[4] && v->cap[4])
		dec_cstr(b, v->cap[4], v->caplen[4], v->strsize);
	else
		dec_ptr(b, v->a[4]);
}

static void set_ptracer_args(StrBuf *b, const CallView *v)
{
	fb_lit(b, ", ");
	if ((int32_t)v->a[1] == -1)
		fb_lit(b, "PR_SET_PTRACER_ANY");
	else
		fb_i64(b, (int32_t)v->a[1]);
}

/* struct sock_fprog without -v: {len=N, filter=0x...} */
static void set_seccomp_args(StrBuf *b, const CallView *v)
{
	fb_lit(b, ", ");
	dec_enum_unknown(b, seccomp_mode, v->a[1], "SECCOMP_MODE_???");
	if (v->a[1] == SECCOMP_MODE_STRICT)
		return;
	if (v->a[1] != SECCOMP_MODE_FILTER) {
		put_rest(b, v, 2);
		return;
	}
	fb_lit(b, ", ");
	if (!v->a[2] || !v->cap[2] || v->caplen[2] < 16) {
		dec_ptr(b, v->a[2]);
		return;
	}
	uint16_t len;
	uint64_t filter;
	memcpy(&len, v->cap[2], 2);
	memcpy(&filter, v->cap[2] + 8, 8);
	sb_printf(b, "{len=%u, filter=", len);
	dec_ptr(b, filter);
	fb_putc(b, '}');
}

static void set_spec_args(StrBuf *b, const CallView *v)
{
	fb_lit(b, ", ");
	dec_enum_unknown(b, spec_cmds, v->a[1], "PR_SPEC_???");
	fb_lit(b, ", ");
	if (v->a[1] <= PR_SPEC_L1D_FLUSH)
		dec_enum_unknown(b, spec_set, v->a[2], "PR_SPEC_???");
	else
		fb_hex(b, v->a[2]);
}

/* pidtypes as strace's verbose style: the number, its name in a comment */
static void sched_core_args(StrBuf *b, const CallView *v)
{
	uint32_t cmd = (uint32_t)v->a[1], type = (uint32_t)v->a[3];
	fb_lit(b, ", ");
	dec_enum_unknown(b, sched_core_cmds, cmd, "PR_SCHED_CORE_???");
	fb_lit(b, ", ");
	fb_i64(b, (int32_t)v->a[2]);
	fb_lit(b, ", ");
	fb_hex(b, type);
	const FlagName *t = pidtypes;
	while (t->name && t->val != type)
		t++;
	sb_printf(b, " /* %s */, ", t->name ? t->name : "PIDTYPE_???");
	if (cmd != PR_SCHED_CORE_GET || cv_failed(v) || !v->cap[4] || v->caplen[4] < 8) {
		dec_ptr(b, v->a[4]);
		return;
	}
	uint64_t cookie;
	memcpy(&cookie, v->cap[4], 8);
	fb_putc(b, '[');
	fb_hex(b, cookie);
	fb_putc(b, ']');
}

/* flags no name covers after the ones named: strace's "A|B|0x40";
 * nothing when none is named (and "NAME" for a 0 a table names) */
static bool put_aux_flags(StrBuf *b, const FlagName *t, uint64_t v)
{
	if (!v) {
		for (; t->name; t++)
			if (!t->val) {
				fb_puts(b, t->name);
				return true;
			}
		return false;
	}
	bool any = false;
	for (const FlagName *f = t; f->name; f++)
		any |= f->val && (v & f->val) == f->val;
	if (any)
		dec_flags(b, t, v);
	return any;
}

/* SVE/SME vector lengths: flags|0xLEN; aux (a return): nothing without flags */
static bool put_vl(StrBuf *b, const FlagName *t, uint64_t x, bool aux)
{
	uint64_t flags = x & ~(uint64_t)0xffff;
	if (!flags && aux)
		return false;
	if (flags) {
		dec_flags(b, t, flags);
		fb_putc(b, '|');
	}
	fb_hex(b, x & 0xffff);
	return true;
}

static void sve_args(StrBuf *b, const CallView *v)
{
	fb_lit(b, ", ");
	put_vl(b, sve_flags, v->a[1], false);
}

static void sme_args(StrBuf *b, const CallView *v)
{
	fb_lit(b, ", ");
	put_vl(b, sme_flags, v->a[1], false);
}

/* PR_{SET,GET}_TAGGED_ADDR_CTRL's value */
static void put_tagged(StrBuf *b, uint64_t x)
{
	uint64_t tcf = x & PR_MTE_TCF_MASK, tag = x & PR_MTE_TAG_MASK;
	uint64_t rest = x & ~(uint64_t)(PR_TAGGED_ADDR_ENABLE | PR_MTE_TCF_MASK | PR_MTE_TAG_MASK);
	fb_puts(b, x & PR_TAGGED_ADDR_ENABLE ? "PR_TAGGED_ADDR_ENABLE|" : "!PR_TAGGED_ADDR_ENABLE|");
	fb_puts(b, tcf == PR_MTE_TCF_SYNC ? "PR_MTE_TCF_SYNC" : tcf == PR_MTE_TCF_ASYNC ? "PR_MTE_TCF_ASYNC"
		   : tcf ? "PR_MTE_TCF_MASK" : "PR_MTE_TCF_NONE");
	if (tag) {
		fb_putc(b, '|');
		fb_hex(b, tag >> PR_MTE_TAG_SHIFT);
		fb_lit(b, "<<PR_MTE_TAG_SHIFT");
	}
	if (rest) {
		fb_putc(b, '|');
		fb_hex(b, rest);
	}
}

static void tagged_args(StrBuf *b, const CallView *v)
{
	fb_lit(b, ", ");
	put_tagged(b, v->a[1]);
	put_rest(b, v, 2);
}

static const PrctlRow rows[] = {
	{PR_GET_KEEPCAPS, ""}, {PR_GET_SECCOMP, ""}, {PR_GET_TIMERSLACK, ""}, {PR_GET_TIMING, ""},
	{PR_TASK_PERF_EVENTS_DISABLE, ""}, {PR_TASK_PERF_EVENTS_ENABLE, ""},
	{PR_GET_CHILD_SUBREAPER, "U"}, {PR_GET_ENDIAN, "U"}, {PR_GET_FPEMU, "U"}, {PR_GET_FPEXC, "U"},
	{PR_GET_DUMPABLE, "", .ret = R_NAME, .rt = dumpable},
	{PR_GET_NAME, "N"}, {PR_GET_PDEATHSIG, "S"}, {PR_GET_TID_ADDRESS, "K"},
	{PR_GET_SECUREBITS, "", .ret = R_FLAGS, .rt = secbits},
	{PR_GET_TSC, "X", tsc, "PR_TSC_???"}, {PR_GET_UNALIGN, "Y", unalign, "PR_UNALIGN_???"},
	{PR_GET_FP_MODE, "", .ret = R_FLAGS, .rt = fp_mode},
	{PR_SVE_SET_VL, .fn = sve_args, .ret = R_SVE}, {PR_SVE_GET_VL, "", .ret = R_SVE},
	{PR_SME_SET_VL, .fn = sme_args, .ret = R_SME}, {PR_SME_GET_VL, "", .ret = R_SME},
	{PR_GET_SPECULATION_CTRL, "e", spec_cmds, "PR_SPEC_???", R_SPEC, spec_get},
	{PR_SET_TAGGED_ADDR_CTRL, .fn = tagged_args}, {PR_GET_TAGGED_ADDR_CTRL, "*", .ret = R_TAGGED},
	{PR_SET_CHILD_SUBREAPER, "u"}, {PR_SET_ENDIAN, "u"}, {PR_SET_FPEMU, "u"}, {PR_SET_FPEXC, "u"},
	{PR_SET_KEEPCAPS, "u"}, {PR_SET_TIMING, "u"},
	{PR_SET_DUMPABLE, "e", dumpable, "SUID_DUMP_???"},
	{PR_CAPBSET_DROP, "e", caps, "CAP_???"}, {PR_CAPBSET_READ, "e", caps, "CAP_???"},
	{PR_CAP_AMBIENT, .fn = cap_ambient_args}, {PR_MCE_KILL, .fn = mce_kill_args},
	{PR_SET_NAME, "n"}, {PR_SET_VMA, .fn = set_vma_args},
	{PR_SET_MM, "E*", set_mm, "PR_SET_MM_???"}, {PR_SET_PDEATHSIG, "g"},
	{PR_SET_PTRACER, .fn = set_ptracer_args}, {PR_SET_SECCOMP, .fn = set_seccomp_args},
	{PR_SET_SECUREBITS, "f", secbits, "SECBIT_???"}, {PR_SET_TIMERSLACK, "d"},
	{PR_SET_TSC, "E", tsc, "PR_TSC_???"}, {PR_SET_UNALIGN, "F", unalign, "PR_UNALIGN_???"},
	{PR_SET_NO_NEW_PRIVS, "u*"}, {PR_SET_THP_DISABLE, "u*"}, {PR_SET_IO_FLUSHER, "u*"},
	{PR_MCE_KILL_GET, "*", .ret = R_NAME, .rt = mce_policy},
	{PR_SET_FP_MODE, "F", fp_mode, "PR_FP_MODE_???"},
	{PR_SET_SPECULATION_CTRL, .fn = set_spec_args},
	{PR_PAC_RESET_KEYS, "f*", pac_keys, "PR_PAC_???"},
	{PR_PAC_SET_ENABLED_KEYS, "ff*", pac_enabled, "PR_PAC_???"},
	{PR_PAC_GET_ENABLED_KEYS, "*", .ret = R_FLAGS, .rt = pac_enabled},
	{PR_SET_SYSCALL_USER_DISPATCH, "exxp", sud_cmds, "PR_SYS_DISPATCH_???"},
	{PR_SCHED_CORE, .fn = sched_core_args},
};

static const PrctlRow *row_of(uint64_t opt)
{
	static const PrctlRow other = {0, "*"};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].opt == (uint32_t)opt)
			return &rows[i];
	return &other;
}

void dec_prctl_args(StrBuf *b, const CallView *v)
{
	const PrctlRow *r = row_of(v->a[0]);
	dec_enum_unknown(b, options, (uint32_t)v->a[0], "PR_???");
	if (r->fn) {
		r->fn(b, v);
		return;
	}
	int i = 1;
	for (const char *k = r->args; *k && i < 5; k++, i++) {
		if (*k == '*') {
			put_rest(b, v, i);
			return;
		}
		fb_lit(b, ", ");
		put_kind(b, v, r, *k, i);
	}
}

bool dec_prctl_ret(StrBuf *b, const CallView *v)
{
	const PrctlRow *r = row_of(v->a[0]);
	uint64_t x = (uint64_t)v->ret;
	size_t at;
	switch (r->ret) {
	case R_NAME:
		fb_i64(b, v->ret);
		for (const FlagName *t = r->rt; t->name; t++)
			if (t->val == x) {
				sb_printf(b, " (%s)", t->name);
				break;
			}
		return true;
	case R_SPEC:
		if (v->a[1] > PR_SPEC_L1D_FLUSH)
			return false;
		/* fall through */
	case R_FLAGS:
		if (!x && r->ret == R_FLAGS)
			return false;
		fb_hex(b, x);
		at = b->len;
		fb_lit(b, " (");
		if (put_aux_flags(b, r->rt, x))
			fb_putc(b, ')');
		else
			b->len = at, b->s[at] = 0;
		return true;
	case R_TAGGED:
		fb_hex(b, x);
		fb_lit(b, " (");
		put_tagged(b, x);
		fb_putc(b, ')');
		return true;
	case R_SVE:
	case R_SME:
		if (!x)
			return false;
		fb_hex(b, x);
		at = b->len;
		fb_lit(b, " (");
		if (put_vl(b, r->ret == R_SVE ? sve_flags : sme_flags, x, true))
			fb_putc(b, ')');
		else
			b->len = at, b->s[at] = 0;
		return true;
	}
	return false;
}
