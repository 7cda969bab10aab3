/* Hardware watchpoints through the breakpoint PMU, as bpftrace 0.17:
 *   watchpoint:ADDR:LEN:MODE   (alias w)
 * ADDR is an absolute address (decimal, 0x hex or 0 octal), LEN 1, 2, 4
 * or 8, MODE a combination of r, w, x that the CPU supports (x86: w, rw,
 * x).  With -p PID or -c CMD the address is a user address in that
 * process (with -c, in the child after its exec: the event is opened on
 * the forked child before it execs, and a task's perf events survive
 * exec); without either, it is a kernel address watched on every CPU.
 *
 * bpftrace's other form, watchpoint:FUNC+argN:LEN:MODE, and asyncwatchpoint
 * (aw), which only exists in that form, watch the address that argN holds
 * whenever FUNC (in the -c command's binary or /proc/PID/exe) is entered:
 * a uprobe on FUNC (codegen's setup program) sends the address to user
 * space, which opens the breakpoint on it for the process and attaches the
 * probe's program (watchpoint_attach_addr); the sync form also stops the
 * task (SIGSTOP from BPF) until then and sonde sends SIGCONT.  Each distinct
 * address is watched once.
 *
 * Each probe is one PERF_TYPE_BREAKPOINT event (sample_period 1) running a
 * BPF_PROG_TYPE_PERF_EVENT program, held by a BPF link. */
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "../sym/elf_syms.h"
#include "../util/util.h"
#include "provider.h"

/* x86-64: no read-only breakpoints, and execute excludes read/write. */
static const char *const invalid_modes[] = {"r", "rx", "wx", "rwx"};

static bool parse_u64(const char *s, uint64_t *out)
{
	char *end;
	if (!*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/* Sorted, validated mode ("wr" -> "rw") into out[4]; false with err set. */
static bool parse_mode(const char *text, const char *mode, Loc loc, char out[4], Error *err)
{
	size_t n = strlen(mode);
	if (n == 0 || n > 3 || strspn(mode, "rwx") != n)
		return error_at(err, loc, "watchpoint mode must be a combination of r, w and x, got "
				  "'%s' in '%s'", mode, text);
	int seen[3] = {0};
	for (size_t i = 0; i < n; i++) {
		int k = mode[i] == 'r' ? 0 : mode[i] == 'w' ? 1 : 2;
		if (seen[k]++)
			return error_at(err, loc, "watchpoint modes may not be duplicated, got '%s' in "
					  "'%s'", mode, text);
	}
	int j = 0;
	for (int k = 0; k < 3; k++)
		if (seen[k])
			out[j++] = "rwx"[k];
	out[j] = 0;
	for (size_t i = 0; i < sizeof(invalid_modes) / sizeof(invalid_modes[0]); i++)
		if (!strcmp(out, invalid_modes[i]))
			return error_at(err, loc, "invalid watchpoint mode: %s (this CPU watches w, rw "
					  "or x)", out);
	return true;
}

/* The binary FUNC is looked up in: /proc/PID/exe with -p, the -c command's
 * program otherwise. */
static char *target_binary(const ProbeTarget *t, char *msg, size_t n)
{
	if (t->maps_pid > 0) {
		char link[64], buf[4096];
		snprintf(link, sizeof(link), "/proc/%d/exe", t->maps_pid);
		ssize_t r = readlink(link, buf, sizeof(buf) - 1);
		if (r <= 0) {
			snprintf(msg, n, "cannot read %s: %s", link, strerror(errno));
			return NULL;
		}
		buf[r] = 0;
		return xstrdup(buf);
	}
	if (!t->cmd) {
		snprintf(msg, n, "no -c command");
		return NULL;
	}
	return resolve_binary(t->cmd, 0, msg, n);
}

/* One watchpoint:FUNC+argN probe on FUNC (at file offset off of path): the
 * watchpoint spec (attached at run time) and its setup uprobe on FUNC.
 * Named as bpftrace names it: watchpoint:PATH:FUNC:N:LEN:MODE (no N: for arg0). */
static void add_func_watchpoint(const char *prov, Loc loc, const char *path, const char *func,
				uint64_t off, int n, uint64_t len, const char *mode,
				ProbeSpecList *out)
{
	ProbeSpec *setup = xcalloc(1, sizeof(ProbeSpec));
	setup->prov = provider_find("uprobe");
	setup->loc = loc;
	setup->target = xstrdup(path);
	setup->func = xstrdup(func);
	setup->offset = off;
	setup->pid = out->target.filter_pid;
	StrBuf b = {0};
	sb_printf(&b, "uprobe:%s:%s", path, func);
	setup->name = b.s;

	ProbeSpec *s = probe_spec_add(out, provider_find(prov), loc);
	s->period = len;
	s->target = xstrdup(mode);
	s->func = xstrdup(func);
	s->pid = out->target.filter_pid;
	s->wp_arg = n;
	s->wp_setup = setup;
	b = (StrBuf){0};
	sb_printf(&b, "%s:%s:%s:", prov, path, func);
	if (n) /* bpftrace leaves arg0's number out */
		sb_printf(&b, "%d:", n);
	sb_printf(&b, "%llu:%s", (unsigned long long)len, mode);
	s->name = b.s;
}

/* watchpoint:FUNC+argN:LEN:MODE, FUNC possibly a wildcard: one probe per
 * function of the -p/-c program it matches. */
static bool expand_func(const char *prov, const char *text, char **parts, Loc loc,
			ProbeSpecList *out, Error *err)
{
	char *plus = strchr(parts[0], '+'), *end;
	*plus = 0;
	const char *func = parts[0], *arg = plus + 1;
	uint64_t len;
	char mode[4], msg[512];
	long n = -1;
	if (!strncmp(arg, "arg", 3) && arg[3] >= '0' && arg[3] <= '9') {
		errno = 0;
		n = strtol(arg + 3, &end, 10);
		if (errno || *end)
			n = -1;
	}
	if (!*func)
		return error_at(err, loc, "%s needs a function name before '+arg', got '%s'", prov,
				text);
	if (n < 0)
		return error_at(err, loc, "%s on a function takes FUNC+argN (e.g. %s:f+arg0:8:w), "
				"got '%s'", prov, prov, text);
	if (regs_arg_offset((int)n) < 0)
		return error_at(err, loc, "%s: arg%ld is not in a register (arg0 to arg5)", prov, n);
	if (!parse_u64(parts[1], &len) || (len != 1 && len != 2 && len != 4 && len != 8))
		return error_at(err, loc, "watchpoint length must be one of 1, 2, 4 or 8, got '%s'",
				parts[1]);
	if (!parse_mode(text, parts[2], loc, mode, err))
		return false;
	if (mode[0] == 'x' && len != 8)
		return error_at(err, loc, "an execute watchpoint (x) must have length 8, got %llu",
				(unsigned long long)len);
	char *path = target_binary(&out->target, msg, sizeof(msg));
	if (!path)
		return error_at(err, loc, "%s: %s", prov, msg);
	const ElfFile *f = elf_get(out->target.sym, path, msg, sizeof(msg));
	int added = 0;
	for (int i = 0; f && i < f->nsyms; i++) {
		const ElfSym *sym = &f->syms[i];
		bool dup = false; /* .symtab and .dynsym repeat names */
		for (int k = out->n - added; k < out->n && !dup; k++)
			dup = !strcmp(out->v[k].func, sym->name);
		if (dup || !glob_match(func, sym->name) ||
		    elf_vaddr_to_offset(f, sym->addr) == (uint64_t)-1)
			continue;
		add_func_watchpoint(prov, loc, path, sym->name, elf_vaddr_to_offset(f, sym->addr),
				    (int)n, len, mode, out);
		added++;
	}
	if (f && !added)
		snprintf(msg, sizeof(msg), "function '%s' not found in %s", func, path);
	free(path);
	return added ? true : error_at(err, loc, "%s: %s", prov, msg);
}

static bool expand_common(const char *prov, const char *rest, Loc loc, ProbeSpecList *out,
			  Error *err)
{
	char *copy = xstrdup(rest);
	char *parts[4] = {0};
	int n = 0;
	for (char *p = copy, *c; n < 4; p = c + 1) {
		parts[n++] = p;
		if (!(c = strchr(p, ':')))
			break;
		*c = 0;
	}
	bool ok = false;
	char text[512];
	snprintf(text, sizeof(text), "%s:%s", prov, rest);
	uint64_t addr = 0, len = 0;
	char mode[4];
	bool is_func = strchr(parts[0], '+') != NULL; /* FUNC+argN */
	if (n != 3) {
		error_at(err, loc, "%s probes are written %s:ADDR:LEN:MODE (e.g. %s:0x10000000:8:w), "
			 "got '%s'", prov, prov, prov, text);
	} else if (!strcmp(prov, "asyncwatchpoint") && !is_func) {
		error_at(err, loc, "asyncwatchpoint requires a function name (FUNC+argN, not an "
			 "address); use watchpoint:%s:%s:%s", parts[0], parts[1], parts[2]);
	} else if (is_func && out->target.filter_pid <= 0) {
		error_at(err, loc, "-p PID or -c CMD required for %s", prov);
	} else if (is_func) {
		ok = expand_func(prov, text, parts, loc, out, err);
		free(copy);
		return ok;
	} else if (!parse_u64(parts[0], &addr)) {
		error_at(err, loc, "watchpoint address must be a number (e.g. 0x10000000), got '%s'",
			 parts[0]);
	} else if (addr == 0) {
		error_at(err, loc, "watchpoint must be attached to a non-zero address");
	} else if (!parse_u64(parts[1], &len) || (len != 1 && len != 2 && len != 4 && len != 8)) {
		error_at(err, loc, "watchpoint length must be one of 1, 2, 4 or 8, got '%s'", parts[1]);
	} else if (parse_mode(text, parts[2], loc, mode, err)) {
		if (mode[0] == 'x' && len != 8)
			error_at(err, loc, "an execute watchpoint (x) must have length 8, got %llu",
				 (unsigned long long)len);
		else if (addr % len)
			error_at(err, loc, "watchpoint address 0x%llx is not aligned to its length %llu",
				 (unsigned long long)addr, (unsigned long long)len);
		else
			ok = true;
	}
	if (ok) {
		ProbeSpec *s = probe_spec_add(out, provider_find(prov), loc);
		s->offset = addr;
		s->period = len;
		s->target = xstrdup(mode);
		s->pid = out->target.filter_pid > 0 ? out->target.filter_pid : -1;
		StrBuf b = {0};
		/* bpftrace 0.17 names the probe with the address in decimal */
		sb_printf(&b, "%s:%llu:%llu:%s", prov, (unsigned long long)addr,
			  (unsigned long long)len, mode);
		s->name = b.s;
	}
	free(copy);
	return ok;
}

static bool watchpoint_expand(const char *rest, Loc loc, ProbeSpecList *out, Error *err)
{
	return expand_common("watchpoint", rest, loc, out, err);
}

static bool asyncwatchpoint_expand(const char *rest, Loc loc, ProbeSpecList *out, Error *err)
{
	return expand_common("asyncwatchpoint", rest, loc, out, err);
}

static int open_breakpoint(const ProbeSpec *p, int pid, int cpu, char *err, size_t errlen)
{
	uint32_t type = 0;
	for (const char *m = p->target; *m; m++)
		type |= *m == 'r' ? HW_BREAKPOINT_R : *m == 'w' ? HW_BREAKPOINT_W : HW_BREAKPOINT_X;
	struct perf_event_attr attr = {
		.type = PERF_TYPE_BREAKPOINT,
		.size = sizeof(attr),
		.sample_period = 1,
		.wakeup_events = 1,
		.bp_type = type,
		.bp_addr = p->offset,
		.bp_len = p->period,
		.disabled = 1,
	};
	int fd = (int)syscall(SYS_perf_event_open, &attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		if (e == ENOSPC) /* bpftrace's words */
			snprintf(err, errlen, "%s", WATCHPOINT_NO_REGISTERS);
		else
			snprintf(err, errlen, "perf_event_open (breakpoint at 0x%llx%s): %s%s",
				 (unsigned long long)p->offset, pid > 0 ? " in the traced process" : "",
				 strerror(e), e == EINVAL && pid <= 0
				 ? " (without -p/-c the address must be a kernel address)" : "");
		return -e;
	}
	return fd;
}

bool watchpoint_attach_addr(const ProbeSpec *p, uint64_t addr, int prog_fd, Attached *out,
			    char *err, size_t errlen)
{
	ProbeSpec at = *p;
	at.offset = addr;
	if (!addr || addr % p->period) {
		snprintf(err, errlen, "address 0x%llx is %s", (unsigned long long)addr,
			 addr ? "not aligned to the watchpoint's length" : "NULL");
		return false;
	}
	int pfd = open_breakpoint(&at, p->pid, -1, err, errlen);
	return pfd >= 0 && attach_perf_event(pfd, prog_fd, out, err, errlen);
}

static bool watchpoint_attach(const ProbeSpec *p, int prog_fd, Attached *out, char *err,
			      size_t errlen)
{
	if (p->wp_setup)
		return true; /* at run time, per address (watchpoint_attach_addr) */
	if (p->pid > 0) {
		int pfd = open_breakpoint(p, p->pid, -1, err, errlen);
		return pfd >= 0 && attach_perf_event(pfd, prog_fd, out, err, errlen);
	}
	int ncpu = libbpf_num_possible_cpus();
	for (int cpu = 0; cpu < ncpu; cpu++) {
		int pfd = open_breakpoint(p, -1, cpu, err, errlen);
		if (pfd == -ENODEV)
			continue; /* possible but offline CPU */
		if (pfd < 0 || !attach_perf_event(pfd, prog_fd, out, err, errlen))
			return false;
	}
	return true;
}

const Provider provider_watchpoint = {
	.name = "watchpoint",
	.aliases = {"w"},
	.prog_type = BPF_PROG_TYPE_PERF_EVENT,
	.expand = watchpoint_expand,
	.ctx_arg_offset = perf_ctx_arg_offset,
	.attach = watchpoint_attach,
	.ctx = CTX_PERF,
	.watch = WATCH_SYNC,
};

const Provider provider_asyncwatchpoint = {
	.name = "asyncwatchpoint",
	.aliases = {"aw"},
	.prog_type = BPF_PROG_TYPE_PERF_EVENT,
	.expand = asyncwatchpoint_expand,
	.ctx_arg_offset = perf_ctx_arg_offset,
	.attach = watchpoint_attach,
	.ctx = CTX_PERF,
	.watch = WATCH_ASYNC,
};
