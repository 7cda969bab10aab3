/* DTrace's probes on Linux: each provider enumerates its probes with the
 * sonde attach point that implements them; a description matches them field
 * by field with globs.  Ids are positions in one fixed enumeration order
 * (dtrace, syscall, profile, tick), so they are the same in `dtrace -l` and
 * in the default output's ID column. */
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "../lang/ctypes.h"
#include "../sym/tracefs.h"
#include "../sym/elf_needed.h"
#include "../sym/elf_syms.h"
#include "../sym/features.h"
#include "../sym/kfuncs.h"
#include "../sym/proc_scan.h"
#include "../sym/symctx.h"
#include "dtrace.h"
#include "../util/sort.h"

typedef struct Walk {
	const DEnv *env;
	const char *pat[4]; /* provider, module, function, name ("" matches all) */
	DProbeFn fn;
	void *arg;
	int next_id;
	int count;
	const char *made_rate; /* profile-N/tick-N not in the listed rates, or NULL */
	int id;                /* -i: only this probe id (0: any) */
	bool listing;          /* -l: providers named by no field are listed too */
	char err[256];         /* a provider's refusal (D_PROC_*), or "" */
} Walk;

static bool field_match(const char *pat, const char *s);

/* -i ID: a description that is a probe id */
static bool id_match(const Walk *w, int id)
{
	return !w->id || w->id == id;
}

static bool field_match(const char *pat, const char *s)
{
	if (!*pat)
		return true;
	/* most descriptions name the probe: no fnmatch per probe walked */
	return strpbrk(pat, "*?[\\") ? !fnmatch(pat, s, 0) : !strcmp(pat, s);
}

/* a probe, implemented by attach (and the hooks in also, if any) */
static void walk_emit_hooks(Walk *w, const char *prov, const char *mod, const char *func,
			    const char *name, const char *attach, const char *const also[3])
{
	int id = ++w->next_id;
	if (!id_match(w, id) || !field_match(w->pat[0], prov) || !field_match(w->pat[1], mod) ||
	    !field_match(w->pat[2], func) || !field_match(w->pat[3], name))
		return;
	DProbe p = { { (char *)prov, (char *)mod, (char *)func, (char *)name, id }, attach,
		     { also ? also[0] : NULL, also ? also[1] : NULL, also ? also[2] : NULL } };
	w->count++;
	if (w->fn)
		w->fn(&p, w->arg);
}

static void walk_emit(Walk *w, const char *prov, const char *mod, const char *func,
		      const char *name, const char *attach)
{
	walk_emit_hooks(w, prov, mod, func, name, attach, NULL);
}

/* --- dtrace ---------------------------------------------------------------- */

static void walk_dtrace(Walk *w)
{
	walk_emit(w, "dtrace", "", "", "BEGIN", "BEGIN");
	walk_emit(w, "dtrace", "", "", "END", "END");
	walk_emit(w, "dtrace", "", "", "ERROR", "ERROR"); /* run by a fault: codegen_fault_d.c */
}

/* --- syscall: the syscalls tracepoints -------------------------------------- */

typedef struct NameList {
	VEC(char *) v;
} NameList;

static void add_syscall(const char *cat, const char *name, void *arg)
{
	(void)cat;
	NameList *l = arg;
	if (!strncmp(name, "sys_enter_", 10))
		vec_push(&l->v, xstrdup(name + 10));
}

/* the system calls tracefs has tracepoints for, read once per run */
static const NameList *syscall_names(void)
{
	static NameList l;
	static bool read;
	if (!read)
		tracefs_foreach("syscalls", "sys_enter_*", add_syscall, &l);
	read = true;
	return &l;
}

static bool rawtp_walked(const Walk *w);

static void walk_syscall(Walk *w)
{
	/* skipping it when it cannot match (BEGIN, tick-1s) saves reading
	 * tracefs; the rawtp probes after it and a profile rate made on
	 * demand (tick-1ms, numbered after the syscalls) keep their ids */
	if (!field_match(w->pat[0], "syscall") ||
	    !(field_match(w->pat[3], "entry") || field_match(w->pat[3], "return"))) {
		if (rawtp_walked(w) || w->made_rate)
			w->next_id += 2 * syscall_names()->v.n;
		return;
	}
	const NameList *l = syscall_names();
	for (int i = 0; i < l->v.n; i++) {
		char at[160];
		if (!field_match(w->pat[2], l->v.v[i])) {
			w->next_id += 2; /* neither probe matches: nothing to format */
			continue;
		}
		snprintf(at, sizeof(at), "tracepoint:syscalls:sys_enter_%s", l->v.v[i]);
		walk_emit(w, "syscall", "vmlinux", l->v.v[i], "entry", at);
		snprintf(at, sizeof(at), "tracepoint:syscalls:sys_exit_%s", l->v.v[i]);
		walk_emit(w, "syscall", "vmlinux", l->v.v[i], "return", at);
	}
}

/* --- proc, sched, io: kernel tracepoints ------------------------------------ */

/* DTrace's stable providers from the kernel's raw tracepoints, in the
 * context (the thread) the Guide says; their typed args[] are d_args.c's.
 * tp is "category:event" of the tracepoint's tracefs event, or ":name" for
 * a bare tracepoint (no event; found in the kernel's BTF). proc:::start and
 * lwp-start are the new thread's first return to user space (a clone-family
 * call returning 0), sched:::on-cpu / remain-cpu the end of __schedule()
 * (sched_exit_tp, Linux 6.16 and later) in the thread that runs next.  A
 * probe some of whose moments are other tracepoints has them in also:
 * sched:::enqueue is a wakeup, a new task's first wakeup, a preempted task
 * staying runnable (sched_switch) or a queued task moved to another CPU
 * (sched_migrate_task); dequeue the task picked to run (sched_switch's
 * next) or moved away. */
static const struct {
	const char *prov, *name, *tp;
	const char *also[3];
} tp_probes[] = {
	{"proc", "exec", "sched:sched_prepare_exec"},
	{"proc", "exec-success", "sched:sched_process_exec"},
	{"proc", "exit", "sched:sched_process_exit"},
	{"proc", "create", "sched:sched_process_fork"},
	{"proc", "signal-send", "signal:signal_generate"},
	{"proc", "signal-handle", "signal:signal_deliver"},
	{"sched", "off-cpu", "sched:sched_switch"},
	{"sched", "enqueue", "sched:sched_wakeup",
	 {"sched:sched_wakeup_new", "sched:sched_switch", "sched:sched_migrate_task"}},
	{"sched", "wakeup", "sched:sched_waking"},
	{"sched", "change-pri", "sched:sched_pi_setprio"},
	{"io", "start", "block:block_rq_issue"},
	{"io", "done", "block:block_rq_complete"},
	{"proc", "start", "raw_syscalls:sys_exit"},
	{"proc", "exec-failure", "raw_syscalls:sys_exit"},
	{"proc", "lwp-create", "sched:sched_process_fork"},
	{"proc", "lwp-exit", "sched:sched_process_exit"},
	{"proc", "signal-discard", "signal:signal_generate"},
	{"proc", "lwp-start", "raw_syscalls:sys_exit"},
	{"sched", "on-cpu", ":sched_exit_tp"},
	{"sched", "remain-cpu", ":sched_exit_tp"},
	{"sched", "dequeue", "sched:sched_switch", {"sched:sched_migrate_task"}},
	{"sched", "sleep", "sched:sched_switch"},
	{"sched", "preempt", "sched:sched_switch"},
	{"sched", "tick", "timer:hrtimer_expire_entry"},
	{"sched", "surrender", "irq_vectors:reschedule_entry"},
};

static bool tp_exists(SymCtx *sc, const char *tp)
{
	char path[256];
	/* sched:::tick is the tick hrtimer's expiry: its handler must be known */
	if (!strcmp(tp, "timer:hrtimer_expire_entry") && !d_args_tick_handler(sc))
		return false;
	const char *dir = tracefs_dir();
	if (*tp == ':') { /* a bare tracepoint: its BTF prototype */
		struct btf *b = btf_kernel(sc);
		snprintf(path, sizeof(path), "btf_trace_%s", tp + 1);
		return b && btf__find_by_name_kind(b, path, BTF_KIND_TYPEDEF) > 0;
	}
	if (!dir)
		return false;
	snprintf(path, sizeof(path), "%s/events/%.*s/%s", dir, (int)strcspn(tp, ":"), tp,
		 strchr(tp, ':') + 1);
	return access(path, F_OK) == 0;
}

static void hook_attach(const char *tp, char *out, size_t n)
{
	snprintf(out, n, "rawtracepoint:%s", strchr(tp, ':') + 1);
}

static void walk_tracepoints(Walk *w)
{
	for (size_t i = 0; i < sizeof(tp_probes) / sizeof(tp_probes[0]); i++) {
		char at[128], more[3][128];
		const char *also[3] = {0};
		int n = 0;
		hook_attach(tp_probes[i].tp, at, sizeof(at));
		if (!field_match(w->pat[0], tp_probes[i].prov) || !field_match(w->pat[3], tp_probes[i].name) ||
		    !tp_exists(w->env->opt->sym, tp_probes[i].tp)) {
			w->next_id++; /* ids stay put whatever this kernel has */
			continue;
		}
		for (int j = 0; j < 3 && tp_probes[i].also[j]; j++)
			if (tp_exists(w->env->opt->sym, tp_probes[i].also[j])) {
				hook_attach(tp_probes[i].also[j], more[n], sizeof(more[n]));
				also[n] = more[n];
				n++;
			}
		walk_emit_hooks(w, tp_probes[i].prov, "vmlinux", "", tp_probes[i].name, at, also);
	}
}

/* --- profile-N / tick-N -------------------------------------------------------- */

/* "997", "10ms", "1s", "5000hz": the period in ns, or the rate in hz
 * (*hz set).  False when it is not a valid rate. */
static bool parse_profile_rate(const char *s, unsigned long long *val, bool *hz)
{
	static const struct {
		const char *unit;
		unsigned long long ns;
	} units[] = {
		{"ns", 1}, {"nsec", 1}, {"us", 1000}, {"usec", 1000}, {"ms", 1000000},
		{"msec", 1000000}, {"s", 1000000000ull}, {"sec", 1000000000ull},
		{"m", 60000000000ull}, {"min", 60000000000ull}, {"h", 3600000000000ull},
		{"hour", 3600000000000ull}, {"d", 86400000000000ull}, {"day", 86400000000000ull},
		{"hz", 0}, {"", 0},
	};
	if (!isdigit((unsigned char)*s))
		return false;
	char *end;
	unsigned long long n = strtoull(s, &end, 10);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit)) {
			*hz = units[i].ns == 0;
			*val = *hz ? n : n * units[i].ns;
			return n > 0;
		}
	return false;
}

/* the sonde attach point for a profile (every CPU) or tick (one CPU) rate.
 * The names compared here and in walk_rates are DTrace's (its profile
 * provider and probe names), not sonde's providers: this front end writes
 * the attach point text that probe_expand reads. */
static bool rate_attach(const char *kind, const char *rate, char *out, size_t n)
{
	unsigned long long v;
	bool hz;
	if (!parse_profile_rate(rate, &v, &hz))
		return false;
	const char *prov = !strcmp(kind, "profile") ? "profile" : "interval";
	if (hz)
		snprintf(out, n, "%s:hz:%llu", prov, v);
	else if (v % 1000000000ull == 0)
		snprintf(out, n, "%s:s:%llu", prov, v / 1000000000ull);
	else if (v % 1000000 == 0)
		snprintf(out, n, "%s:ms:%llu", prov, v / 1000000);
	else if (v % 1000 == 0)
		snprintf(out, n, "%s:us:%llu", prov, v / 1000);
	else
		return false;
	return true;
}

/* the rates DTrace's profile provider lists; any other rate is made when a
 * description names it */
static const char *const std_profile[] = { "97", "199", "499", "997", "1999", "4001", "4999" };
static const char *const std_tick[] = { "1", "10", "100", "500", "1000", "5000", "1s", "10s" };

static void walk_rates(Walk *w, const char *kind, const char *const *std, size_t nstd)
{
	char name[64], at[96];
	bool listed = false;
	for (size_t i = 0; i < nstd; i++) {
		snprintf(name, sizeof(name), "%s-%s", kind, std[i]);
		listed |= !strcmp(name, w->pat[3]);
		rate_attach(kind, std[i], at, sizeof(at));
		walk_emit(w, "profile", "", "", name, at);
	}
	/* a literal profile-RATE not in the list: made on demand, after
	 * every listed probe (walk_rate_made) so that their ids stay put */
	size_t k = strlen(kind);
	const char *p = w->pat[3];
	if (!listed && !strncmp(p, kind, k) && p[k] == '-' && !strpbrk(p, "*?[") &&
	    (!*w->pat[0] || !strcmp(w->pat[0], "profile")) && rate_attach(kind, p + k + 1, at, sizeof(at)))
		w->made_rate = p;
}

static void walk_rate_made(Walk *w)
{
	char at[96];
	const char *p = w->made_rate;
	if (p && rate_attach(!strncmp(p, "tick", 4) ? "tick" : "profile", strchr(p, '-') + 1, at,
			     sizeof(at)))
		walk_emit(w, "profile", "", "", p, at);
}

static void walk_profile(Walk *w)
{
	walk_rates(w, "profile", std_profile, sizeof(std_profile) / sizeof(std_profile[0]));
	walk_rates(w, "tick", std_tick, sizeof(std_tick) / sizeof(std_tick[0]));
}

/* --- pid and USDT providers: user processes ---------------------------------- */

/* a field that names no one thing: empty (matches all) or a glob */
static bool field_glob(const char *pat)
{
	return !*pat || is_glob(pat);
}

/* -c of a "#!" script: the process is its interpreter once exec'd, as
 * dtrace finds it (a.out is /bin/bash for a shell script) */
static char *interpreter_of(char *exe)
{
	FILE *f = fopen(exe, "r");
	char line[256] = "";
	if (f && !fgets(line, sizeof(line), f))
		line[0] = 0;
	if (f)
		fclose(f);
	if (strncmp(line, "#!", 2))
		return exe;
	char *path = line + 2 + strspn(line + 2, " \t");
	path[strcspn(path, " \t\n")] = 0;
	char err[256];
	char *interp = *path ? resolve_binary(path, 0, err, sizeof(err)) : NULL;
	if (!interp)
		return exe;
	free(exe);
	return interp;
}

/* the files a process's probes live in: its mappings; with -c the
 * command, which has not exec'd yet: its program (a script's interpreter),
 * the libraries it will map (its DT_NEEDED, theirs...), and a library the
 * probe names */
static int user_files(const Walk *w, int pid, char ***out)
{
	const DEnv *env = w->env;
	const char *mod = w->pat[1];
	if (env->cmd && pid == env->target) {
		char err[256], **libs = NULL;
		char *exe = resolve_binary(env->cmd, 0, err, sizeof(err));
		if (exe)
			exe = interpreter_of(exe);
		char *lib = *mod && !strpbrk(mod, "*?[") && strcmp(mod, "a.out")
				    ? resolve_binary(mod, 0, err, sizeof(err)) : NULL;
		int nlibs = exe ? elf_needed_all(exe, &libs) : 0, n = 0;
		*out = xcalloc((size_t)nlibs + 2, sizeof(char *));
		if (exe)
			(*out)[n++] = exe;
		for (int i = 0; i < nlibs; i++)
			if (lib && !strcmp(lib, libs[i]))
				free(libs[i]);
			else
				(*out)[n++] = libs[i];
		if (lib)
			(*out)[n++] = lib;
		free(libs);
		return n;
	}
	return pid > 0 ? proc_binaries(pid, out) : 0;
}

/* USDT providers named without a pid (python*:::gc-start): the files
 * every running process maps executable, once each; probes on them fire in
 * any process.  From the run's scan of the processes' maps (sym/proc_scan.c,
 * shared with the Python stacks' search).  Not looked for when the name is
 * one of the kernel's providers. */
static int running_files(SymCtx *sc, const char *prov, char ***out)
{
	static const char *const kernel[] = {"dtrace", "syscall", "proc", "sched", "io", "profile"};
	for (size_t i = 0; i < sizeof(kernel) / sizeof(kernel[0]); i++)
		if (!fnmatch(prov, kernel[i], 0) && !strpbrk(prov, "*?["))
			return 0;
	VEC(char *) all = {0};
	int np;
	const ProcMaps *procs = proc_scan(sc, &np);
	for (int p = 0; p < np; p++)
		for (int i = 0; i < procs[p].n; i++) {
			char path[4096 + 64];
			bool seen = !procs[p].files[i].exec;
			proc_file_path(&procs[p], &procs[p].files[i], path, sizeof(path));
			for (int j = 0; j < all.n && !seen; j++)
				seen = !strcmp(all.v[j], path);
			if (!seen)
				vec_push(&all, xstrdup(path));
		}
	*out = all.v;
	return all.n;
}

/* the module name DTrace gives a file: a.out for the program, else its name */
static const char *module_name(const DEnv *env, const char *path, char **paths)
{
	(void)env;
	if (path == paths[0])
		return "a.out";
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

/* a pid probe's name for function sym, as dtrace refuses it (dt_pid.c):
 * entry, return, a glob, or a hex offset inside the function */
static bool pid_name_ok(Walk *w, const ElfSym *sym)
{
	const char *n = w->pat[3];
	if (field_glob(n) || !strcmp(n, "entry") || !strcmp(n, "return"))
		return true;
	char *end;
	unsigned long long off = strtoull(n, &end, 16);
	if (*end)
		snprintf(w->err, sizeof(w->err), "'%s' is an invalid probe name", n);
	else if (off >= sym->size)
		snprintf(w->err, sizeof(w->err), "offset 0x%llx outside of function '%s'", off,
			 sym->name);
	return !w->err[0];
}

/* pidN:MOD:FUNC:entry|return|OFFSET */
static void walk_pid_file(Walk *w, const char *prov, const char *path, const char *mod)
{
	char err[256];
	const ElfFile *f = elf_get(w->env->opt->sym, path, err, sizeof(err));
	if (!f || !field_match(w->pat[1], mod))
		return;
	const char *n = w->pat[3];
	bool offset = *n && strspn(n, "0123456789abcdefABCDEFx") == strlen(n), found = false;
	for (int i = 0; i < f->nsyms && !w->err[0]; i++) {
		const char *fn = f->syms[i].name;
		char at[1024];
		/* a function without a size (gcc's _init, _fini: assembler
		 * labels) is no pid probe, as in dtrace: its extent is unknown */
		if (!*fn || !f->syms[i].size || !field_match(w->pat[2], fn))
			continue;
		found = true;
		if (!pid_name_ok(w, &f->syms[i]))
			return;
		if (offset) {
			snprintf(at, sizeof(at), "uprobe:%s:%s+0x%llx", path, fn, strtoull(n, NULL, 16));
			walk_emit(w, prov, mod, fn, n, at);
			continue;
		}
		snprintf(at, sizeof(at), "uprobe:%s:%s", path, fn);
		walk_emit(w, prov, mod, fn, "entry", at);
		snprintf(at, sizeof(at), "uretprobe:%s:%s", path, fn);
		walk_emit(w, prov, mod, fn, "return", at);
	}
	/* a function named in a module named: dtrace says it is not there */
	if (!found && !field_glob(w->pat[1]) && !field_glob(w->pat[2]))
		snprintf(w->err, sizeof(w->err), "failed to lookup '%s' in module '%s'", w->pat[2],
			 w->pat[1]);
}

/* PROVpid:MOD:FUNC:NAME of a file's USDT notes; DTrace's '-' is the note's "__" */
static void walk_usdt_file(Walk *w, const char *prov_pat, int pid, const char *path, const char *mod)
{
	char err[256];
	const ElfFile *f = elf_get(w->env->opt->sym, path, err, sizeof(err));
	for (int i = 0; f && i < f->nnotes; i++) {
		const UsdtNote *u = &f->notes[i];
		char prov[128], name[128], at[1024];
		snprintf(prov, sizeof(prov), pid > 0 ? "%s%d" : "%s", u->provider, pid);
		snprintf(name, sizeof(name), "%s", u->name);
		for (char *c = strstr(name, "__"); c; c = strstr(c, "__"))
			memmove(c, c + 1, strlen(c + 1) + 1), *c++ = '-';
		if (fnmatch(prov_pat, prov, 0) || !field_match(w->pat[1], mod))
			continue;
		bool seen = false; /* one probe for a note repeated at several places */
		for (int j = 0; j < i && !seen; j++)
			seen = !strcmp(f->notes[j].provider, u->provider) && !strcmp(f->notes[j].name, u->name);
		if (seen)
			continue;
		uint64_t off;
		const ElfSym *fn = elf_sym_by_addr(f, u->pc, &off);
		snprintf(at, sizeof(at), "usdt:%s:%s:%s", path, u->provider, u->name);
		walk_emit(w, prov, mod, fn ? fn->name : "", name, at);
	}
}

/* user providers exist only for a -c/-p process (pid$target, python$target)
 * or, for USDT named without a pid, in the processes running now */
static void walk_user(Walk *w)
{
	const char *p = w->pat[0];
	size_t plen = strlen(p), digits = 0;
	while (digits < plen && p[plen - 1 - digits] >= '0' && p[plen - 1 - digits] <= '9')
		digits++;
	if (!plen || !w->env)
		return;
	int pid = digits ? atoi(p + plen - digits) : 0;
	bool pid_prov = !strncmp(p, "pid", 3) && digits && digits == plen - 3;
	if (pid_prov && pid <= 0) {
		snprintf(w->err, sizeof(w->err), "'%s' does not contain a valid pid", p);
		return;
	}
	char **files = NULL; /* any process's: pid1234:::, python1234::: without -p */
	int n = pid ? user_files(w, pid, &files) : running_files(w->env->opt->sym, p, &files);
	for (int i = 0; i < n; i++) {
		const char *mod = pid ? module_name(w->env, files[i], files) : strrchr(files[i], '/') + 1;
		if (pid_prov)
			walk_pid_file(w, p, files[i], mod);
		else
			walk_usdt_file(w, p, pid, files[i], mod);
	}
	for (int i = 0; i < n; i++)
		free(files[i]);
	free(files);
}

/* fbt::FUNC:entry|return of one function */
static void walk_fbt_func(Walk *w, const char *mod, const char *fn)
{
	char at[300];
	bool vmlinux = !strcmp(mod, "vmlinux");
	if (!field_match(w->pat[1], mod) || !field_match(w->pat[2], fn)) {
		w->next_id += 2; /* tens of thousands: none formatted in vain */
		return;
	}
	snprintf(at, sizeof(at), "kprobe:%s%s%s", vmlinux ? "" : mod, vmlinux ? "" : ":", fn);
	walk_emit(w, "fbt", mod, fn, "entry", at);
	snprintf(at, sizeof(at), "kretprobe:%s%s%s", vmlinux ? "" : mod, vmlinux ? "" : ":", fn);
	walk_emit(w, "fbt", mod, fn, "return", at);
}

/* fbt::FUNC:entry|return (kprobes).  A function named without globs is
 * taken as written (the kernel's function list is not read, and the kprobe
 * provider says at attach time what this kernel cannot do); a glob, or
 * dtrace -l, walks the kernel's traceable functions (tracefs
 * available_filter_functions) where the kernel has kprobes, and says once
 * on stderr that it has none where it has not. */
static void walk_fbt(Walk *w)
{
	const char *fn = w->pat[2];
	if (!strcmp(w->pat[0], "fbt") && *fn && !strpbrk(fn, "*?[") && !strpbrk(w->pat[1], "*?[")) {
		walk_fbt_func(w, "vmlinux", fn);
		return;
	}
	if (!(*w->pat[0] ? field_match(w->pat[0], "fbt") : w->listing))
		return;
	if (!kernel_has_kprobes()) {
		static bool told;
		if (!told && !strcmp(w->pat[0], "fbt"))
			fprintf(stderr, "dtrace: fbt probes are not available: this kernel has no kprobes "
				"(no kprobe PMU or kprobe_events)\n");
		told = true;
		return;
	}
	int n;
	const KFunc *f = kfuncs_distinct(w->env->opt->sym, &n);
	for (int i = 0; i < n; i++)
		walk_fbt_func(w, f[i].module ? f[i].module : "vmlinux", f[i].name);
}

/* --- rawtp: the kernel's raw tracepoints ------------------------------------- */

typedef struct RawTps {
	VEC(char *) btf;  /* every tracepoint the kernel's BTF has (btf_trace_NAME), sorted */
	VEC(char *) mods; /* "CATEGORY", per probe */
	VEC(const char *) names;
	bool *listed;     /* btf[i] has a tracefs event */
} RawTps;

static void add_rawtp_event(const char *cat, const char *name, void *arg)
{
	RawTps *r = arg;
	const char *key = name;
	char **hit = bsearch(&key, r->btf.v, r->btf.n, sizeof(char *), cmp_str);
	if (!hit || r->listed[hit - r->btf.v]) /* a dynamic event (kprobe, uprobe), or seen */
		return;
	r->listed[hit - r->btf.v] = true;
	vec_push(&r->mods, xstrdup(cat));
	vec_push(&r->names, *hit);
}

static void raw_tps_free(void *cache)
{
	RawTps *r = cache;
	for (int i = 0; i < r->btf.n; i++)
		free(r->btf.v[i]);
	for (int i = 0; i < r->mods.n; i++)
		free(r->mods.v[i]);
	vec_free(&r->btf);
	vec_free(&r->mods);
	vec_free(&r->names); /* btf's */
	free(r->listed);
	free(r);
}

/* rawtp:CATEGORY::NAME for every tracepoint event of the kernel (as
 * Oracle's dtrace-utils lists them, from available_events), then
 * rawtp:vmlinux::NAME for the bare tracepoints that have no event
 * (sched_update_nr_running_tp, pelt_cfs_tp); a tracepoint is one of the
 * kernel's when its BTF has it, which leaves out kprobe and uprobe events.
 * Read once per run. */
static const RawTps *raw_tps(SymCtx *sc)
{
	bool made = sc->raw_tps != NULL;
	RawTps *r = SYM_CACHE(sc, raw_tps, raw_tps_free); /* the run's, kept with its readers' */
	if (made)
		return r;
	struct btf *b = btf_kernel(sc);
	for (unsigned i = 1; b && i < btf__type_cnt(b); i++) {
		const struct btf_type *t = btf__type_by_id(b, i);
		const char *n = btf__name_by_offset(b, t->name_off);
		if (btf_is_typedef(t) && n && !strncmp(n, "btf_trace_", 10))
			vec_push(&r->btf, xstrdup(n + 10));
	}
	qsort(r->btf.v, r->btf.n, sizeof(char *), cmp_str);
	r->listed = xcalloc(r->btf.n + 1, sizeof(bool));
	tracefs_foreach("*", "*", add_rawtp_event, r);
	for (int i = 0; i < r->btf.n; i++)
		if (!r->listed[i]) {
			vec_push(&r->mods, xstrdup("vmlinux"));
			vec_push(&r->names, r->btf.v[i]);
		}
	return r;
}

/* listed by -l, or when a description has more than a name: descriptions
 * like BEGIN do not read tracefs for them (no probe after these matches a
 * description with an empty provider field, so ids stay the same) */
static bool rawtp_walked(const Walk *w)
{
	bool named = *w->pat[0] || *w->pat[1] || *w->pat[2];
	return field_match(w->pat[0], "rawtp") && (named || w->listing);
}

static void walk_rawtp(Walk *w)
{
	if (!rawtp_walked(w))
		return;
	const RawTps *r = raw_tps(w->env->opt->sym);
	for (int i = 0; i < r->names.n; i++) {
		char at[160];
		snprintf(at, sizeof(at), "rawtracepoint:%s", r->names.v[i]);
		walk_emit(w, "rawtp", r->mods.v[i], "", r->names.v[i], at);
	}
}

/* tick-N probes belong to the profile provider, as in DTrace */
static void walk_all(Walk *w)
{
	walk_dtrace(w);
	walk_tracepoints(w);
	walk_profile(w);
	walk_syscall(w);
	walk_rate_made(w);
	walk_fbt(w);
	walk_rawtp(w);
	walk_user(w);
}

/* "a:b:c:d" -> pat[0..3]; fewer fields fill from the right (name last) */
static bool split_desc(const char *desc, char buf[4][256], const char *pat[4])
{
	const char *f[4] = { "", "", "", "" };
	int n = 0;
	const char *s = desc;
	char tmp[4][256];
	for (;;) {
		const char *c = strchr(s, ':');
		size_t len = c ? (size_t)(c - s) : strlen(s);
		if (n == 4 || len >= 256)
			return false;
		memcpy(tmp[n], s, len);
		tmp[n][len] = 0;
		n++;
		if (!c)
			break;
		s = c + 1;
	}
	for (int i = 0; i < n; i++) {
		memcpy(buf[4 - n + i], tmp[i], 256);
		f[4 - n + i] = buf[4 - n + i];
	}
	for (int i = 0; i < 4; i++)
		pat[i] = f[i];
	return true;
}

static int probes_walk(const char *desc, const DEnv *env, DProbeFn fn, void *arg, bool listing,
		       char *err, size_t errlen)
{
	char buf[4][256];
	Walk w = { .env = env, .fn = fn, .arg = arg, .listing = listing };
	if (*desc && strspn(desc, "0123456789") == strlen(desc)) { /* a probe id (-i) */
		w.id = atoi(desc);
		desc = "";
	}
	if (!split_desc(desc, buf, w.pat)) {
		snprintf(err, errlen, "invalid probe description \"%s\": Overspecified probe description",
			 desc);
		return -1;
	}
	walk_all(&w);
	if (w.err[0]) {
		snprintf(err, errlen, "%s", w.err);
		return -1;
	}
	return w.count;
}

int d_probes_match(const char *desc, const DEnv *env, DProbeFn fn, void *arg, char *err,
		   size_t errlen)
{
	return probes_walk(desc, env, fn, arg, false, err, errlen);
}

typedef struct ListCtx {
	FILE *out;
	bool verbose;
	SymCtx *sym; /* the run's readers (-lv's argument types) */
} ListCtx;

static void list_one(const DProbe *p, void *arg)
{
	ListCtx *c = arg;
	fprintf(c->out, "%5d %10s %17s %33s %s\n", p->n.id, p->n.prov, p->n.mod, p->n.func, p->n.name);
	if (c->verbose)
		d_args_print_info(c->out, c->sym, &p->n);
}

int d_probes_list(FILE *out, const char *desc, bool verbose, const DEnv *env)
{
	char err[256], buf[4][256];
	const char *pat[4];
	ListCtx c = { out, verbose, env->opt->sym };
	int n = probes_walk(desc ? desc : ":::", env, list_one, &c, true, err, sizeof(err));
	/* dtrace(1) says so, and goes on with the next description (status 0) */
	if (n == 0 && desc && split_desc(desc, buf, pat))
		fprintf(stderr, "dtrace: failed to match %s:%s:%s:%s: No probe matches description\n",
			pat[0], pat[1], pat[2], pat[3]);
	return n;
}
