/* uprobe:BINARY:FUNC, uretprobe:BINARY:FUNC and usdt:BINARY[:PROVIDER]:NAME
 * through the uprobe PMU: perf_event_open with the binary's path and the
 * file offset of the instruction (and, for USDT semaphores, the kernel's
 * reference counter offset), one event per probe, held by a BPF link. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../sym/dwarf_args.h"
#include "../sym/elf_needed.h"
#include "../sym/elf_syms.h"
#include "../util/util.h"
#include "../util/x86_insn.h"
#include "provider.h"
#include "uprobe_targets.h"
#include "../sym/probe_find.h"

static int spec_pid(const ProbeSpecList *out)
{
	return out->target.filter_pid > 0 ? out->target.filter_pid : -1;
}

/* The files target names (several for a wildcard); false with err filled */
static bool open_targets(const char *prov, const char *target, Loc loc, const ProbeSpecList *out,
			 UTargets *files, Error *err)
{
	char msg[512];
	if (!utargets_resolve(prov, target, out->target.maps_pid, files, msg, sizeof(msg)))
		return error_at(err, loc, "%s", msg);
	return true;
}

/* One file (line probes): the first the target names */
static const ElfFile *open_target(const char *prov, const char *target, Loc loc,
				  const ProbeSpecList *out, char **path, Error *err)
{
	char msg[512];
	UTargets files = {0};
	*path = NULL;
	if (!open_targets(prov, target, loc, out, &files, err))
		return NULL;
	*path = xstrdup(files.v[0]);
	utargets_free(&files);
	const ElfFile *f = elf_get(out->target.sym, *path, msg, sizeof(msg));
	if (!f) {
		error_at(err, loc, "%s: %s", prov, msg);
		free(*path);
		*path = NULL;
	}
	return f;
}

static void add_uprobe(ProbeSpecList *out, const char *prov, Loc loc, const char *path,
		       const char *func, uint64_t off, const char *suffix)
{
	ProbeSpec *s = probe_spec_add(out, provider_find(prov), loc);
	s->target = xstrdup(path);
	s->func = xstrdup(func);
	s->offset = off;
	s->pid = spec_pid(out);
	StrBuf b = {0};
	sb_printf(&b, "%s:%s:%s%s", prov, path, func, suffix);
	s->name = b.s;
	/* args->NAME: parameters at the function's entry, as bpftrace */
	if (!strcmp(prov, "uprobe") && !*suffix)
		s->dwarf = dwarf_func(out->target.sym, path, func);
}

typedef VEC(Dwarf_Addr) Addrs;

static int collect_addr(ProbeSite *site, void *data)
{
	vec_push((Addrs *)data, site->addr);
	return 0;
}

/* uprobe:BIN:FUNC:RLN (a line relative to the function's declaration, as
 * perf probe counts) and uprobe:BIN@FILE:LINE: the places of that statement
 * from DWARF, found as `sonde probe` finds them */
static bool line_expand(const char *prov, const char *target, const char *where, int line, bool is_file,
			Loc loc, ProbeSpecList *out, Error *err)
{
	char *path = NULL;
	const ElfFile *f = open_target(prov, target, loc, out, &path, err);
	if (!f)
		return false;
	DebugInfo *di = debuginfo_get(out->target.sym, path);
	ProbePoint pp = {.line = line};
	Addrs addrs = {0};
	bool ok = true;
	if (is_file)
		pp.file = (char *)where;
	else
		pp.function = (char *)where;
	if (!di->dw)
		ok = error_at(err, loc, "%s: %s has no debug information (build it with -g)", prov, path);
	else if (probe_find_sites(di, &pp, NULL, collect_addr, &addrs) <= 0 || !addrs.n)
		ok = error_at(err, loc, "%s: no code at %s %s:%d in %s (sonde probe -L shows the lines)", prov,
			      is_file ? "line" : "relative line", where, line, path);
	char suffix[32];
	snprintf(suffix, sizeof(suffix), ":%d", line);
	for (int i = 0; ok && i < addrs.n; i++) {
		uint64_t off = elf_vaddr_to_offset(f, addrs.v[i]);
		if (off != (uint64_t)-1)
			add_uprobe(out, prov, loc, path, where, off, suffix);
	}
	vec_free(&addrs);
	free(path);
	return ok;
}

/* BIN:FUNC:RLN or BIN@FILE:LINE; false if rest is not a line probe */
static bool line_probe(const char *prov, const char *rest, Loc loc, ProbeSpecList *out, Error *err,
		       bool *ok)
{
	const char *colon = strrchr(rest, ':');
	if (!colon || !colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1))
		return false;
	int line = atoi(colon + 1);
	char *head = xstrndup(rest, (size_t)(colon - rest));
	char *sep = strrchr(head, ':'), *at = strrchr(head, '@');
	if (sep && (!at || at < sep)) {
		*sep = '\0';
		*ok = line_expand(prov, head, sep + 1, line, false, loc, out, err);
	} else if (at) {
		*at = '\0';
		*ok = line_expand(prov, head, at + 1, line, true, loc, out, err);
	} else {
		free(head);
		return false;
	}
	free(head);
	return true;
}

/* FUNC with a wildcard in one file; returns how many matched */
static int uprobe_add_matches(const char *prov, Loc loc, const char *path, const ElfFile *f,
			      const char *func, ProbeSpecList *out)
{
	int n = 0;
	for (int i = 0; i < f->nsyms; i++) {
		const ElfSym *s = &f->syms[i];
		if (!glob_match(func, s->name))
			continue;
		bool dup = false; /* .symtab and .dynsym repeat names */
		for (int j = out->n - n; j < out->n && !dup; j++)
			dup = !strcmp(out->v[j].func, s->name);
		if (dup || elf_vaddr_to_offset(f, s->addr) == (uint64_t)-1)
			continue;
		add_uprobe(out, prov, loc, path, s->name, elf_vaddr_to_offset(f, s->addr), "");
		n++;
	}
	return n;
}

/* uprobe:BIN:0xADDR: the address must fall inside a function, as in
 * bpftrace (a probe elsewhere may sit in the middle of an instruction or in
 * data); the message is bpftrace's. */
static bool uprobe_addr_in_function(const ElfFile *f, const char *path, uint64_t vaddr, Loc loc,
				    Error *err)
{
	uint64_t off;
	const ElfSym *s = elf_sym_by_addr(f, vaddr, &off);
	if (s && off < s->size)
		return true;
	return error_at(err, loc, "Could not resolve address: %s:0x%llx", path,
			(unsigned long long)vaddr);
}

/* Whether the instruction at vaddr starts on a boundary of function fs
 * (vaddr is in_fn bytes into it): its bytes, decoded from its start. Only
 * x86-64 is decoded; elsewhere every offset is taken as given. */
static int uprobe_insn_check(const char *path, const ElfFile *f, const ElfSym *fs,
			     uint64_t in_fn)
{
#if defined(__x86_64__)
	uint64_t start = elf_vaddr_to_offset(f, fs->addr);
	size_t len = (size_t)(in_fn + 15 < fs->size ? in_fn + 15 : fs->size);
	uint8_t *code = xmalloc(len ? len : 1);
	FILE *fp = fopen(path, "rb");
	bool got = fp && start != (uint64_t)-1 && !fseeko(fp, (off_t)start, SEEK_SET) &&
		   fread(code, 1, len, fp) == len;
	if (fp)
		fclose(fp);
	X86Align a = got ? x86_insn_boundary(code, len, in_fn) : X86_UNDECODABLE;
	free(code);
	return a == X86_ALIGNED ? INSN_OK : a == X86_MIDDLE ? INSN_MIDDLE : INSN_UNCHECKED;
#else
	(void)path, (void)f, (void)fs, (void)in_fn;
	return INSN_OK;
#endif
}

/* the last spec added, at vaddr: note whether it is on an instruction
 * boundary (compile.c acts on it, knowing --unsafe) */
static void uprobe_note_insn(ProbeSpecList *out, const char *path, const ElfFile *f,
			     uint64_t vaddr)
{
	uint64_t in_fn;
	const ElfSym *fs = elf_sym_by_addr(f, vaddr, &in_fn);
	if (!fs || !in_fn)
		return;
	ProbeSpec *s = &out->v[out->n - 1];
	s->insn_check = uprobe_insn_check(path, f, fs, in_fn);
	StrBuf b = {0};
	sb_printf(&b, "%s:%s+%llu", path, fs->name, (unsigned long long)in_fn);
	s->insn_where = b.s;
}

/* FUNC is not in the binary: say why when we can tell (no symbols at all, or
 * a stub library whose functions moved to a library it links). */
static bool uprobe_sym_missing(SymCtx *sc, const char *prov, const ElfFile *f, const char *path,
			       const char *name, Loc loc, Error *err)
{
	if (!f->nsyms)
		return error_at(err, loc, "%s: function '%s' not found in %s (no symbols: is the "
				"binary stripped?)", prov, name, path);
	char *home = elf_needed_defining(sc, path, name);
	if (!home)
		return error_at(err, loc, "%s: function '%s' not found in %s (no such symbol)", prov,
				name, path);
	bool glibc = !strncmp(strrchr(home, '/') ? strrchr(home, '/') + 1 : home, "libc.so", 7);
	error_at(err, loc, "%s: function '%s' is not in %s (a stub library) but in %s, which it "
		 "links%s", prov, name, path, home,
		 glibc ? ": glibc 2.34 moved libpthread, libdl, librt and libutil into libc" : "");
	free(home);
	return false;
}

/* an address rather than a function: 0xADDR, or decimal digits, which
 * bpftrace reads as an address too */
static bool uprobe_is_address(const char *func)
{
	return !strncmp(func, "0x", 2) || (func[0] && strspn(func, "0123456789") == strlen(func));
}

/* FUNC, FUNC+OFFSET or an address (0xADDR, or decimal digits, which
 * bpftrace reads as an address too) in one file: 1 when added, 0 when the
 * file has no such function and missing_ok (one of several files), else -1 */
static int uprobe_add_one(const char *prov, Loc loc, const char *path, const ElfFile *f,
			  const char *func, bool missing_ok, ProbeSpecList *out, Error *err)
{
	uint64_t vaddr, extra = 0;
	char suffix[32] = "", *base = NULL;
	const char *name = func;
	bool zero_size = false; /* a function symbol of size 0 (_init) */
	int rc = -1;
	if (uprobe_is_address(func)) {
		char *end;
		vaddr = strtoull(func, &end, func[1] == 'x' ? 16 : 10);
		if (*end) {
			error_at(err, loc, "%s: bad address '%s'", prov, func);
			return -1;
		}
	} else {
		const char *plus = strchr(func, '+');
		if (plus) {
			char *end;
			extra = strtoull(plus + 1, &end, 0);
			if (*end || !plus[1]) {
				error_at(err, loc, "%s: bad offset in '%s' (FUNCTION+OFFSET)", prov, func);
				return -1;
			}
			snprintf(suffix, sizeof(suffix), "+%llu", (unsigned long long)extra);
			name = base = xstrndup(func, (size_t)(plus - func));
		}
		const ElfSym *s = elf_sym_by_name(f, name);
		if (!s) {
			/* bpftrace 0.17 drops such an attach point silently and runs
			 * the rest; the reason is kept for "No probes to attach" */
			Error why = {0};
			if (!missing_ok && !out->dropped) {
				uprobe_sym_missing(out->target.sym, prov, f, path, name, loc, &why);
				out->dropped = xstrdup(why.msg);
			}
			rc = 0;
			goto out;
		}
		if (extra >= s->size && s->size) {
			error_at(err, loc, "Offset outside the function bounds ('%s' size is %llu)", name,
				 (unsigned long long)s->size);
			goto out;
		}
		vaddr = s->addr + extra;
		zero_size = !s->size && !extra;
	}
	if (!zero_size && !uprobe_addr_in_function(f, path, vaddr, loc, err))
		goto out;
	uint64_t off = elf_vaddr_to_offset(f, vaddr);
	if (off == (uint64_t)-1) {
		error_at(err, loc, "%s: address 0x%llx is not in a loaded segment of %s", prov,
			 (unsigned long long)vaddr, path);
		goto out;
	}
	add_uprobe(out, prov, loc, path, name, off, suffix);
	uprobe_note_insn(out, path, f, vaddr);
	if (zero_size) {
		out->v[out->n - 1].insn_check = INSN_ZERO_SIZE;
		out->v[out->n - 1].insn_where = xstrdup(name);
	}
	rc = 1;
out:
	free(base);
	return rc;
}

static bool uprobe_expand_common(const char *prov, const char *rest, Loc loc, ProbeSpecList *out,
				 Error *err)
{
	bool line_ok;
	if (!strcmp(prov, "uprobe") && line_probe(prov, rest, loc, out, err, &line_ok))
		return line_ok;
	const char *colon = strrchr(rest, ':');
	/* uprobe:FUNC with -p: the process's program (bpftrace's "requires 2
	 * arguments" without); an empty target is refused by open_targets */
	if (!colon && out->target.maps_pid <= 0)
		return error_at(err, loc, "%s probe type requires 2 arguments", prov);
	if (colon && !colon[1])
		return error_at(err, loc, "%s probes are written %s:BINARY:FUNCTION, got '%s:%s'", prov,
				prov, prov, rest);
	char *target = colon ? xstrndup(rest, (size_t)(colon - rest)) : xstrdup("");
	const char *func = colon ? colon + 1 : rest;
	UTargets files = {0};
	bool ok = open_targets(prov, target, loc, out, &files, err);
	int n = 0;
	for (int i = 0; ok && i < files.n; i++) {
		char msg[512];
		const ElfFile *f = elf_get(out->target.sym, files.v[i], msg, sizeof(msg));
		if (!f && files.n == 1)
			ok = error_at(err, loc, "%s: %s", prov, msg);
		else if (f && has_wildcard(func))
			n += uprobe_add_matches(prov, loc, files.v[i], f, func, out);
		else if (f) {
			int r = uprobe_add_one(prov, loc, files.v[i], f, func, files.n > 1, out, err);
			ok = r >= 0;
			n += r > 0;
		}
	}
	if (ok && !n && has_wildcard(func))
		ok = error_at(err, loc, "%s: no function in %s matches '%s'", prov,
			      files.n == 1 ? files.v[0] : target, func);
	else if (ok && !n && !out->dropped)
		ok = error_at(err, loc, "%s: function '%s' not found in %s", prov, func, target);
	err->missing = !ok && !n && err->set && !uprobe_is_address(func); /* no such function */
	utargets_free(&files);
	free(target);
	return ok;
}

static bool uprobe_expand(const char *rest, Loc loc, ProbeSpecList *out, Error *err)
{
	return uprobe_expand_common("uprobe", rest, loc, out, err);
}

static bool uretprobe_expand(const char *rest, Loc loc, ProbeSpecList *out, Error *err)
{
	return uprobe_expand_common("uretprobe", rest, loc, out, err);
}

/* ---- usdt ------------------------------------------------------------------ */

static int usdt_add_file(ProbeSpecList *out, Loc loc, const char *path, const ElfFile *f,
			 const char *provider, const char *name)
{
	int n = 0;
	for (int i = 0; i < f->nnotes; i++) {
		const UsdtNote *u = &f->notes[i];
		if (!glob_match(provider, u->provider) || !glob_match(name, u->name))
			continue;
		uint64_t off = elf_vaddr_to_offset(f, u->pc);
		if (off == (uint64_t)-1)
			continue;
		ProbeSpec *s = probe_spec_add(out, provider_find("usdt"), loc);
		s->target = xstrdup(path);
		s->func = xstrdup(u->name);
		s->offset = off;
		s->ref_ctr = u->sema ? elf_vaddr_to_offset(f, u->sema) : 0;
		if (s->ref_ctr == (uint64_t)-1)
			s->ref_ctr = 0;
		s->argspec = xstrdup(u->args);
		s->pid = spec_pid(out);
		StrBuf b = {0};
		sb_printf(&b, "usdt:%s:%s:%s", path, u->provider, u->name);
		s->name = b.s;
		n++;
	}
	return n;
}

/* The probes PROVIDER:NAME of every file target names; *n counts them */
static bool usdt_add_targets(const char *target, const char *provider, const char *name, Loc loc,
			     ProbeSpecList *out, int *n, Error *err)
{
	UTargets files = {0};
	bool ok = open_targets("usdt", target, loc, out, &files, err);
	for (int i = 0; ok && i < files.n; i++) {
		char msg[512];
		const ElfFile *f = elf_get(out->target.sym, files.v[i], msg, sizeof(msg));
		if (!f && files.n == 1)
			ok = error_at(err, loc, "usdt: %s", msg);
		else if (f)
			*n += usdt_add_file(out, loc, files.v[i], f, provider, name);
		if (ok && files.n == 1 && f && !f->nnotes)
			ok = error_at(err, loc, "usdt: %s has no USDT probes (no .note.stapsdt section)",
				      files.v[0]);
	}
	utargets_free(&files);
	return ok;
}

static bool usdt_expand(const char *rest, Loc loc, ProbeSpecList *out, Error *err)
{
	char *copy = xstrdup(rest), *parts[4];
	int np = 0;
	for (char *p = copy; np < 4;) {
		parts[np++] = p;
		p = strchr(p, ':');
		if (!p)
			break;
		*p++ = 0;
	}
	bool ok = true;
	/* usdt:NAME: every file of the -p process */
	const char *target = np >= 2 ? parts[0] : "";
	const char *provider = np == 3 && *parts[1] ? parts[1] : "*"; /* usdt:BIN::NAME: any */
	const char *name = parts[np - 1];
	if (np > 3 || !*name) {
		ok = error_at(err, loc, "usdt probes are written usdt:BINARY:PROVIDER:NAME or "
			      "usdt:BINARY:NAME, got 'usdt:%s'", rest);
		goto out;
	}
	if (np == 1 && out->target.maps_pid <= 0) {
		ok = error_at(err, loc, "usdt probe type requires 2 or 3 arguments");
		goto out;
	}
	int n = 0;
	ok = usdt_add_targets(target, provider, name, loc, out, &n, err);
	/* as a missing uprobe function: bpftrace 0.17 drops the attach point
	 * silently and runs the rest; the reason is kept for "No probes to attach" */
	if (ok && !n && !out->dropped) {
		Error why = {0};
		error_at(&why, loc, "usdt: no probe matches 'usdt:%s' (sonde -l 'usdt:BINARY:*' "
			 "lists them)", rest);
		out->dropped = xstrdup(why.msg);
	}
out:
	free(copy);
	return ok;
}

/* x86_64 register names -> struct pt_regs offsets */
static int reg_offset(const char *r, size_t len)
{
	static const struct {
		const char *names[4];
		int off;
	} regs[] = {
		{{"rax", "eax", "ax", "al"}, 80},   {{"rbx", "ebx", "bx", "bl"}, 40},
		{{"rcx", "ecx", "cx", "cl"}, 88},   {{"rdx", "edx", "dx", "dl"}, 96},
		{{"rsi", "esi", "si", "sil"}, 104}, {{"rdi", "edi", "di", "dil"}, 112},
		{{"rbp", "ebp", "bp", "bpl"}, 32},  {{"rsp", "esp", "sp", "spl"}, 152},
		{{"r8", "r8d", "r8w", "r8b"}, 72},  {{"r9", "r9d", "r9w", "r9b"}, 64},
		{{"r10", "r10d", "r10w", "r10b"}, 56}, {{"r11", "r11d", "r11w", "r11b"}, 48},
		{{"r12", "r12d", "r12w", "r12b"}, 24}, {{"r13", "r13d", "r13w", "r13b"}, 16},
		{{"r14", "r14d", "r14w", "r14b"}, 8},  {{"r15", "r15d", "r15w", "r15b"}, 0},
		{{"rip", "eip", NULL, NULL}, 128},
	};
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		for (int j = 0; j < 4; j++)
			if (regs[i].names[j] && strlen(regs[i].names[j]) == len &&
			    !strncmp(regs[i].names[j], r, len))
				return regs[i].off;
	return -1;
}

/* "%reg" at s; returns the offset and advances *s, -1 on failure */
static int parse_reg(const char **s)
{
	if (**s != '%')
		return -1;
	const char *p = ++*s;
	while ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9'))
		p++;
	int off = reg_offset(*s, (size_t)(p - *s));
	*s = p;
	return off;
}

/* $CONST of a SIZE@$CONST argument into l->disp, truncated to the
 * argument's size and extended per its sign, as bpftrace reads it: compilers
 * write an unsigned char 240 as 1@$-16 and an unsigned int 4092785136 as
 * 4@$-202182160. */
static bool usdt_parse_const(const char *s, ArgLoc *l)
{
	char *end;
	errno = 0;
	uint64_t v = *s == '-' ? (uint64_t)strtoll(s, &end, 0) : strtoull(s, &end, 0);
	if (!*s || *end || errno)
		return false;
	if (l->size < 8) {
		unsigned shift = 64 - 8 * (unsigned)l->size;
		v <<= shift;
		v = l->is_signed ? (uint64_t)((int64_t)v >> shift) : v >> shift;
	}
	l->disp = (int64_t)v;
	return true;
}

/* One stapsdt argument: SIZE@OPERAND, OPERAND one of %reg, $imm,
 * disp(%base), disp(%base,%index,scale). */
static bool usdt_parse_arg(const char *a, size_t len, ArgLoc *l)
{
	char buf[128];
	if (len >= sizeof(buf))
		return false;
	memcpy(buf, a, len);
	buf[len] = 0;
	*l = (ArgLoc){.reg_off = -1, .index_off = -1, .scale = 1, .size = 8};
	const char *p = buf, *at = strchr(buf, '@');
	if (at) {
		int sz = atoi(buf);
		l->is_signed = sz < 0;
		l->size = abs(sz);
		p = at + 1;
	}
	if (l->size != 1 && l->size != 2 && l->size != 4 && l->size != 8)
		return false;
	if (*p == '%') {
		l->reg_off = parse_reg(&p);
		return l->reg_off >= 0 && !*p;
	}
	if (*p == '$')
		return usdt_parse_const(p + 1, l);
	char *end;
	l->disp = strtoll(p, &end, 0);
	p = end;
	if (*p != '(')
		return false;
	p++;
	l->deref = true;
	if ((l->reg_off = parse_reg(&p)) < 0 || l->reg_off == 128)
		return false;
	if (*p == ',') {
		p++;
		if ((l->index_off = parse_reg(&p)) < 0)
			return false;
		if (*p == ',') {
			l->scale = (int)strtol(p + 1, &end, 10);
			p = end;
		}
	}
	return *p == ')' && !p[1];
}

static bool usdt_arg_loc(const ProbeSpec *p, int n, ArgLoc *out)
{
	const char *s = p->argspec ? p->argspec : "";
	for (int i = 0; *s; i++) {
		while (*s == ' ')
			s++;
		size_t len = strcspn(s, " ");
		if (!len)
			break;
		if (i == n)
			return usdt_parse_arg(s, len, out);
		s += len;
	}
	return false;
}

/* ---- attaching --------------------------------------------------------- */

static int pmu_int(const char *file, int dflt)
{
	char path[128];
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/uprobe/%s", file);
	char *s = read_file_all(path, NULL);
	int v = dflt;
	if (s) {
		const char *c = strchr(s, ':'); /* format files: "config:0" */
		v = atoi(c ? c + 1 : s);
	}
	free(s);
	return v;
}

/* The uprobe PMU's event for p; -1 with err filled. */
static int uprobe_event_open(const ProbeSpec *p, bool ret, char *err, size_t errlen)
{
	int type = pmu_int("type", -1);
	if (type < 0) {
		snprintf(err, errlen, "no uprobe PMU (/sys/bus/event_source/devices/uprobe): this "
			 "kernel was built without CONFIG_UPROBE_EVENTS");
		return -1;
	}
	struct perf_event_attr attr = {
		.type = (uint32_t)type,
		.size = sizeof(attr),
		.uprobe_path = (uint64_t)(uintptr_t)p->target,
		.probe_offset = p->offset,
	};
	if (ret)
		attr.config |= 1ull << pmu_int("format/retprobe", 0);
	if (p->ref_ctr)
		attr.config |= p->ref_ctr << pmu_int("format/ref_ctr_offset", 32);
	int pid = p->pid > 0 ? p->pid : -1;
	int pfd = (int)syscall(SYS_perf_event_open, &attr, pid, pid > 0 ? -1 : 0, -1,
			       PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0) {
		int e = errno;
		if (e == ESRCH)
			snprintf(err, errlen, "process %d does not exist (any more)", pid);
		else
			snprintf(err, errlen, "perf_event_open(uprobe %s at offset 0x%llx): %s",
				 p->target, (unsigned long long)p->offset, strerror(e));
	}
	return pfd;
}

static bool uprobe_attach_common(const ProbeSpec *p, bool ret, int prog_fd, Attached *out,
				 char *err, size_t errlen)
{
	int pfd = uprobe_event_open(p, ret, err, errlen);
	return pfd >= 0 && attach_perf_event_cookie(pfd, prog_fd, p->cookie, out, err, errlen);
}

/* the USDT companions registered at start-up (provider.h); a handful */
enum { COMPANIONS_MAX = 4 };
static struct {
	const UsdtCompanion *v[COMPANIONS_MAX];
	int n;
} companions;

void usdt_companion_register(const UsdtCompanion *c)
{
	if (companions.n == COMPANIONS_MAX) {
		fprintf(stderr, "sonde: more than %d USDT companions\n", COMPANIONS_MAX);
		abort();
	}
	companions.v[companions.n++] = c;
}

/* the uprobes p's companions ask for, beside p's own */
static bool usdt_attach_companions(const ProbeSpec *p, Attached *out, char *err, size_t errlen)
{
	for (int i = 0; i < companions.n; i++) {
		ProbeSpec q;
		if (!companions.v[i]->extra(p, &q))
			continue;
		int pfd = uprobe_event_open(&q, false, err, errlen);
		if (pfd < 0)
			return false;
		attached_add(out, pfd);
		if (companions.v[i]->attached)
			companions.v[i]->attached(p);
	}
	return true;
}

static bool usdt_attach(const ProbeSpec *p, int prog_fd, Attached *out, char *err, size_t n)
{
	return uprobe_attach_common(p, false, prog_fd, out, err, n) &&
	       usdt_attach_companions(p, out, err, n);
}

static bool uprobe_attach(const ProbeSpec *p, int prog_fd, Attached *out, char *err, size_t n)
{
	return uprobe_attach_common(p, false, prog_fd, out, err, n);
}

static bool uretprobe_attach(const ProbeSpec *p, int prog_fd, Attached *out, char *err, size_t n)
{
	return uprobe_attach_common(p, true, prog_fd, out, err, n);
}

static int uprobe_arg_offset(const ProbeSpec *p, int n)
{
	(void)p;
	return n < 0 ? -1 : regs_arg_offset(n);
}

static int uretprobe_arg_offset(const ProbeSpec *p, int n)
{
	(void)p;
	return n == -1 ? regs_arg_offset(-1) : -1;
}

/* usdt: arguments come through arg_loc; this only says whether one exists */
static int usdt_arg_offset(const ProbeSpec *p, int n)
{
	ArgLoc l;
	return n >= 0 && usdt_arg_loc(p, n, &l) ? 0 : -1;
}

const Provider provider_uprobe = {
	.name = "uprobe",
	.aliases = {"u"},
	.prog_type = BPF_PROG_TYPE_KPROBE,
	.expand = uprobe_expand,
	.ctx_arg_offset = uprobe_arg_offset,
	.attach = uprobe_attach,
	.newest_first = true,
	.space = SPACE_USER,
	.ctx = CTX_REGS,
	.args = ARGS_DWARF,
	.has_func = true,
	.stack_args = true,
	.can_signal = true,
	.takes_path = true,
};

const Provider provider_uretprobe = {
	.name = "uretprobe",
	.aliases = {"ur"},
	.prog_type = BPF_PROG_TYPE_KPROBE,
	.expand = uretprobe_expand,
	.ctx_arg_offset = uretprobe_arg_offset,
	.attach = uretprobe_attach,
	.newest_first = true,
	.space = SPACE_USER,
	.ctx = CTX_REGS,
	.has_func = true,
	.can_signal = true,
	.takes_path = true,
};

const Provider provider_usdt = {
	.name = "usdt",
	.aliases = {"U"},
	.prog_type = BPF_PROG_TYPE_KPROBE,
	.expand = usdt_expand,
	.ctx_arg_offset = usdt_arg_offset,
	.attach = usdt_attach,
	.arg_loc = usdt_arg_loc,
	.newest_first = true,
	.space = SPACE_USER,
	.ctx = CTX_REGS,
	.can_signal = true,
	.takes_path = true,
};
