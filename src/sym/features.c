/* Kernel feature detection for sonde --info and for errors that name a
 * missing feature.  Everything is probed live (libbpf's probes load tiny
 * programs and maps), so the answers are about this kernel, not its config
 * file.  Each answer is kept in its function (static): it is about the
 * running kernel, the same for every run of the process, not a run's cache
 * (those are in SymCtx, symctx.h). */
#include "features.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "tracefs.h"
#include "../util/bpf_sys.h"

#ifndef SONDE_VERSION
#define SONDE_VERSION "unknown"
#endif

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* tracefs_dir()/NAME exists (kprobe_events, uprobe_events). */
static bool tracefs_has(const char *name)
{
	const char *dir = tracefs_dir();
	char path[512];
	if (!dir)
		return false;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return exists(path);
}

bool kernel_has_kprobes(void)
{
	static int cached = -1;
	if (cached < 0)
		cached = exists("/sys/bus/event_source/devices/kprobe") ||
			 tracefs_has("kprobe_events");
	return cached;
}

/* kprobe_multi links (CONFIG_FPROBE): the load fails before Linux 5.18;
 * then a link at an address where no function starts fails with EINVAL or
 * ENOENT where the kernel has them, EOPNOTSUPP where it does not.  An
 * address, not a symbol name: a name makes the kernel walk all of kallsyms
 * (a quarter second of start-up under emulation). */
bool kernel_has_kprobe_multi(void)
{
	static int cached = -1;
	if (cached >= 0)
		return cached;
	cached = 0;
	if (!kernel_has_kprobes())
		return false;
	struct bpf_insn insns[] = {
		{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0},
		{.code = BPF_JMP | BPF_EXIT},
	};
	BpfSysProg o = {.type = BPF_PROG_TYPE_KPROBE, .name = "sonde_probe", .insns = insns,
			.ninsns = 2, .expected_attach_type = BPF_TRACE_KPROBE_MULTI};
	int fd = bpf_sys_prog_load(&o);
	if (fd < 0)
		return false;
	const unsigned long addrs[] = {1};
	LIBBPF_OPTS(bpf_link_create_opts, lo, .kprobe_multi.addrs = addrs, .kprobe_multi.cnt = 1);
	int lfd = bpf_link_create(fd, 0, BPF_TRACE_KPROBE_MULTI, &lo);
	int e = errno;
	cached = lfd >= 0 || e != EOPNOTSUPP;
	if (lfd >= 0)
		close(lfd);
	close(fd);
	return cached;
}

/* BPF's signed division and modulo (cpu v4: BPF_SDIV/BPF_SMOD, an ALU
 * div/mod with off = 1; Linux 6.6+): a two-instruction program using it
 * loads only where the verifier knows the encoding.  SONDE_BPF_SDIV=0
 * pretends it is missing (to test the fallback on a newer kernel). */
bool kernel_has_bpf_sdiv(void)
{
	static int cached = -1;
	if (cached >= 0)
		return cached;
	const char *env = getenv("SONDE_BPF_SDIV");
	if (env && !strcmp(env, "0"))
		return (cached = 0);
	struct bpf_insn insns[] = {
		{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = -7},
		{.code = BPF_ALU64 | BPF_DIV | BPF_K, .dst_reg = BPF_REG_0, .off = 1, .imm = 2},
		{.code = BPF_JMP | BPF_EXIT},
	};
	BpfSysProg o = {.type = BPF_PROG_TYPE_SOCKET_FILTER, .name = "sonde_sdiv", .insns = insns,
			.ninsns = 3};
	int fd = bpf_sys_prog_load(&o);
	cached = fd >= 0;
	if (fd >= 0)
		close(fd);
	return cached;
}

bool kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;
	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

bool kernel_has_uprobes(void)
{
	static int cached = -1;
	if (cached < 0)
		cached = exists("/sys/bus/event_source/devices/uprobe") ||
			 tracefs_has("uprobe_events");
	return cached;
}

bool kernel_has_btf(void)
{
	return access("/sys/kernel/btf/vmlinux", R_OK) == 0;
}

/* ---- printing helpers ---- */

/* libbpf probes: 1 yes, 0 no, <0 couldn't tell (e.g. EPERM when not root). */
static void print_probe(FILE *out, const char *what, int r)
{
	if (r > 0)
		fprintf(out, "  %s: yes\n", what);
	else if (r == 0)
		fprintf(out, "  %s: no\n", what);
	else
		fprintf(out, "  %s: unknown (%s)\n", what, strerror(-r));
}

/* First line of a small file, without the newline; "" on failure. */
static void read_line(const char *path, char *buf, size_t len)
{
	buf[0] = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

static void print_system(FILE *out)
{
	struct utsname u;
	fprintf(out, "System\n");
	if (uname(&u) == 0) {
		fprintf(out, "  OS: %s %s %s\n", u.sysname, u.release,
			u.version);
		fprintf(out, "  Arch: %s\n", u.machine);
	}
	if (geteuid() != 0)
		fprintf(out, "  note: not root, so BPF and perf probes below may "
			     "say no for lack of privilege\n");
	fprintf(out, "\nBuild\n  version: v%s\n  libbpf: %s\n\n",
		SONDE_VERSION, libbpf_version_string());
}

static void print_prog_types(FILE *out)
{
	static const struct {
		const char *name;
		enum bpf_prog_type t;
	} types[] = {
		{"kprobe", BPF_PROG_TYPE_KPROBE},
		{"tracepoint", BPF_PROG_TYPE_TRACEPOINT},
		{"raw_tracepoint", BPF_PROG_TYPE_RAW_TRACEPOINT},
		{"perf_event", BPF_PROG_TYPE_PERF_EVENT},
		{"tracing", BPF_PROG_TYPE_TRACING},
	};
	fprintf(out, "Program types\n");
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		print_probe(out, types[i].name,
			    libbpf_probe_bpf_prog_type(types[i].t, NULL));
	fprintf(out, "\n");
}

static void print_map_types(FILE *out)
{
	static const struct {
		const char *name;
		enum bpf_map_type t;
	} types[] = {
		{"hash", BPF_MAP_TYPE_HASH},
		{"percpu hash", BPF_MAP_TYPE_PERCPU_HASH},
		{"array", BPF_MAP_TYPE_ARRAY},
		{"percpu array", BPF_MAP_TYPE_PERCPU_ARRAY},
		{"stack_trace", BPF_MAP_TYPE_STACK_TRACE},
		{"ringbuf", BPF_MAP_TYPE_RINGBUF},
		{"perf_event_array", BPF_MAP_TYPE_PERF_EVENT_ARRAY},
	};
	fprintf(out, "Map types\n");
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		print_probe(out, types[i].name,
			    libbpf_probe_bpf_map_type(types[i].t, NULL));
	fprintf(out, "\n");
}

static void print_helpers(FILE *out)
{
	/* Probed from a tracepoint program, the type most sonde programs
	 * have; override_return only exists for kprobe programs. */
	static const struct {
		const char *name;
		enum bpf_func_id id;
	} helpers[] = {
		{"probe_read_kernel", BPF_FUNC_probe_read_kernel},
		{"probe_read_user", BPF_FUNC_probe_read_user},
		{"probe_read_kernel_str", BPF_FUNC_probe_read_kernel_str},
		{"probe_read_user_str", BPF_FUNC_probe_read_user_str},
		{"get_current_comm", BPF_FUNC_get_current_comm},
		{"get_current_pid_tgid", BPF_FUNC_get_current_pid_tgid},
		{"get_current_cgroup_id", BPF_FUNC_get_current_cgroup_id},
		{"get_current_task", BPF_FUNC_get_current_task},
		{"get_stackid", BPF_FUNC_get_stackid},
		{"ringbuf_output", BPF_FUNC_ringbuf_output},
		{"ringbuf_reserve", BPF_FUNC_ringbuf_reserve},
		{"ktime_get_ns", BPF_FUNC_ktime_get_ns},
		{"get_smp_processor_id", BPF_FUNC_get_smp_processor_id},
		{"get_prandom_u32", BPF_FUNC_get_prandom_u32},
		{"strncmp", BPF_FUNC_strncmp},
		{"send_signal", BPF_FUNC_send_signal},
		{"override_return", BPF_FUNC_override_return},
		{"loop", BPF_FUNC_loop},
	};
	fprintf(out, "Kernel helpers\n");
	for (size_t i = 0; i < sizeof(helpers) / sizeof(helpers[0]); i++) {
		enum bpf_prog_type t = helpers[i].id == BPF_FUNC_override_return
					       ? BPF_PROG_TYPE_KPROBE
					       : BPF_PROG_TYPE_TRACEPOINT;
		int r = libbpf_probe_bpf_helper(t, helpers[i].id, NULL);
		if (r > 0 && t == BPF_PROG_TYPE_KPROBE && !kernel_has_kprobes())
			fprintf(out, "  %s: yes (but usable only from kprobes, "
				     "which this kernel lacks)\n",
				helpers[i].name);
		else
			print_probe(out, helpers[i].name, r);
	}
	fprintf(out, "\n");
}

/* ---- probe types ---- */

static void yes_no(FILE *out, const char *what, bool ok, const char *why)
{
	if (ok)
		fprintf(out, "  %s: yes\n", what);
	else
		fprintf(out, "  %s: no (%s)\n", what, why);
}

/* perf_event_open of a counter on this CPU; errno on failure. */
static int try_perf_event(__u32 type, __u64 config)
{
	struct perf_event_attr a = {0};
	a.type = type;
	a.size = sizeof(a);
	a.config = config;
	a.disabled = 1;
	a.exclude_kernel = geteuid() != 0;
	a.exclude_hv = 1;
	int fd = (int)syscall(SYS_perf_event_open, &a, -1, 0, -1, 0);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static void print_perf_probe(FILE *out, const char *what, __u32 type,
			     __u64 config)
{
	int e = try_perf_event(type, config);
	char why[128];
	snprintf(why, sizeof(why), "perf_event_open: %s%s", strerror(e),
		 e == ENOENT && type == PERF_TYPE_HARDWARE
			 ? "; no hardware PMU (common in VMs)"
			 : "");
	yes_no(out, what, e == 0, why);
}

/* Load a do-nothing BPF_PROG_TYPE_TRACING program of attach type `type`
 * on the BTF function `target`, and attach it when `attach` (a no-op
 * program on vfs_read is harmless, and closing detaches it): the only way
 * to learn whether the kernel allows BPF trampolines or iterators, since a
 * kernel or policy can refuse them outright (EPERM even for root).
 * Returns 0 or an errno; ESRCH when target is not in the kernel's BTF. */
static int try_tracing_prog(enum bpf_attach_type type, const char *target, bool attach)
{
	struct btf *btf = btf__load_vmlinux_btf();
	if (!btf)
		return ENOENT;
	/* a raw tracepoint's program attaches to its btf_trace_ typedef */
	int id = btf__find_by_name_kind(btf, target, type == BPF_TRACE_RAW_TP ? BTF_KIND_TYPEDEF
									    : BTF_KIND_FUNC);
	btf__free(btf);
	if (id <= 0)
		return ESRCH;
	struct bpf_insn insns[] = {
		{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0},
		{.code = BPF_JMP | BPF_EXIT},
	};
	BpfSysProg o = {.type = BPF_PROG_TYPE_TRACING, .name = "sonde_probe", .insns = insns,
			.ninsns = 2, .expected_attach_type = type, .attach_btf_id = (uint32_t)id};
	int fd = bpf_sys_prog_load(&o);
	if (fd < 0)
		return errno;
	int e = 0;
	if (attach) {
		int lfd = bpf_link_create(fd, 0, type, NULL);
		e = lfd < 0 ? errno : 0;
		if (lfd >= 0)
			close(lfd);
	}
	close(fd);
	return e;
}

/* Why a tracing program was refused, in words. */
const char *tracing_why(int e)
{
	switch (e) {
	case EPERM:
		return "the kernel refuses BPF_PROG_TYPE_TRACING programs (Operation not permitted "
		       "even for root: kernel lockdown or a security policy)";
	case EINVAL:
	case EOPNOTSUPP:
		return "this kernel has no BPF trampolines for this architecture or build";
	default:
		return strerror(e);
	}
}

int kernel_fentry_errno(void)
{
	static int cached = -1;
	if (cached < 0)
		cached = !kernel_has_btf() ? ENOENT : try_tracing_prog(BPF_TRACE_FENTRY, "vfs_read", true);
	return cached;
}

int kernel_tp_btf_errno(void)
{
	static int cached = -1;
	if (cached < 0)
		cached = !kernel_has_btf() ? ENOENT
					   : try_tracing_prog(BPF_TRACE_RAW_TP, "btf_trace_sched_switch", true);
	return cached;
}

static void print_tracing(FILE *out, const char *what, enum bpf_attach_type type,
			  const char *target, bool attach)
{
	if (!kernel_has_btf()) {
		fprintf(out, "  %s: no (no /sys/kernel/btf/vmlinux: they need the kernel's BTF)\n", what);
		return;
	}
	int e = try_tracing_prog(type, target, attach);
	if (e == 0)
		fprintf(out, "  %s: yes\n", what);
	else if (e == ESRCH)
		fprintf(out, "  %s: no (%s is not in the kernel's BTF)\n", what, target);
	else
		fprintf(out, "  %s: no (%s)\n", what, tracing_why(e));
}

static void print_probe_types(FILE *out)
{
	fprintf(out, "Probe types\n");
	yes_no(out, "kprobe", kernel_has_kprobes(),
	       "kernel built without CONFIG_KPROBES (no kprobe PMU, no "
	       "kprobe_events)");
	yes_no(out, "kprobe_multi (one link for a kprobe wildcard)", kernel_has_kprobe_multi(),
	       kernel_has_kprobes() ? "kernel built without CONFIG_FPROBE: wildcards attach one kprobe each"
				    : "no kprobes");
	yes_no(out, "uprobe", kernel_has_uprobes(),
	       "no uprobe PMU, no uprobe_events");
	yes_no(out, "tracepoint", tracefs_dir() != NULL,
	       "tracefs not available");
	print_probe(out, "rawtracepoint",
		    libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_RAW_TRACEPOINT,
					       NULL));
	print_perf_probe(out, "software", PERF_TYPE_SOFTWARE,
			 PERF_COUNT_SW_CPU_CLOCK);
	print_perf_probe(out, "hardware", PERF_TYPE_HARDWARE,
			 PERF_COUNT_HW_CPU_CYCLES);
	print_tracing(out, "fentry/fexit (kfunc/kretfunc)", BPF_TRACE_FENTRY, "vfs_read", true);
	print_tracing(out, "iterators (iter:task...)", BPF_TRACE_ITER, "bpf_iter_task", true);
	print_tracing(out, "tp_btf (rawtracepoint with BTF args)", BPF_TRACE_RAW_TP,
		      "btf_trace_sched_switch", true);
	fprintf(out, "\n");
}

/* ---- security settings ---- */

static void print_setting(FILE *out, const char *what, const char *path)
{
	char buf[256];
	read_line(path, buf, sizeof(buf));
	fprintf(out, "  %s: %s\n", what, buf[0] ? buf : "unknown");
}

static void print_security(FILE *out)
{
	char buf[256];
	fprintf(out, "Security\n");
	read_line("/sys/kernel/security/lockdown", buf, sizeof(buf));
	fprintf(out, "  lockdown: %s\n",
		buf[0] ? buf : "not available (no lockdown LSM)");
	print_setting(out, "kernel.perf_event_paranoid",
		      "/proc/sys/kernel/perf_event_paranoid");
	print_setting(out, "kernel.unprivileged_bpf_disabled",
		      "/proc/sys/kernel/unprivileged_bpf_disabled");
}

/* Sections in bpftrace --info's order, plus program types and security. */
void features_print(FILE *out)
{
	print_system(out);
	print_helpers(out);
	fprintf(out, "Kernel features\n  btf: %s\n\n",
		kernel_has_btf() ? "yes" : "no");
	print_map_types(out);
	print_prog_types(out);
	print_probe_types(out);
	print_security(out);
}
