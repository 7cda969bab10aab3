/* Maps and programs into the kernel, through libbpf's low-level API. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "../bpf/load.h"
#include "../sym/pylayout.h"
#include "../sym/features.h"
#include "../util/bpf_sys.h"
#include "runtime.h"
#include "verbose.h"
#include "../util/phase_time.h"

/* The ring buffer's pages count in sonde's memory (mapped twice), so it is
 * small unless probes stream events; then it absorbs bursts.  A script
 * whose only records are exit()'s gets one page (see ringbuf_default). */
#define RINGBUF_PAGE 4096u
#define RINGBUF_SMALL (512u << 10)
#define RINGBUF_LARGE (16u << 20)
#define RINGBUF_MAX (1ull << 31) /* the kernel's largest BPF ring buffer */
#define STACK_MAP_ENTRIES 4096

static int new_map_fd(enum bpf_map_type type, const char *name, uint32_t ksize, uint32_t vsize,
		      uint32_t entries, uint32_t flags, char *err, size_t errlen)
{
	int fd = bpf_sys_map_create(type, name, ksize, vsize, entries, flags);
	if (fd < 0)
		snprintf(err, errlen, "creating map %s: %s%s", name, strerror(-fd),
			 fd == -EPERM ? " (sonde needs root, or CAP_BPF and CAP_PERFMON)" : "");
	return fd;
}

static enum bpf_map_type map_type(const MapInfo *m)
{
	if (m->lru) /* declared so (bpftrace 0.26) */
		return m->percpu ? BPF_MAP_TYPE_LRU_PERCPU_HASH : BPF_MAP_TYPE_LRU_HASH;
	return m->percpu ? BPF_MAP_TYPE_PERCPU_HASH : BPF_MAP_TYPE_HASH;
}

static bool create_program_maps(Runtime *rt, char *err, size_t errlen)
{
	Script *sc = rt->sc;
	rt->maps = xcalloc((size_t)sc->maps.n + 1, sizeof(MapDesc));
	for (int i = 0; i < sc->maps.n; i++) {
		MapInfo *m = sc->maps.v[i];
		MapDesc *d = &rt->maps[i];
		d->name = m->print_name;
		d->key = m->key;
		d->val = m->val;
		d->key_size = m->key ? m->key->size : 8;
		d->val_size = m->val->size;
		d->percpu = m->percpu;
		char name[16];
		snprintf(name, sizeof(name), "m_%.13s", m->name[0] ? m->name : "_");
		for (char *c = name; *c; c++) /* the kernel takes [A-Za-z0-9_.]; D names hold "->", "`" */
			if (!isalnum((unsigned char)*c) && *c != '.')
				*c = '_';
		/* preallocation is fastest per event, but not for maps of big
		 * strings or histograms, which would pin hundreds of MiB.
		 * Per-CPU maps stay preallocated although that is one per-CPU
		 * allocation per entry (60-180 ms of start-up under emulation):
		 * allocated at run time (6.18), 1 s pyflame runs kept 8-10
		 * samples against 24-27.  Measured against the target's own CPU
		 * time (test_pysample) such a build kept every sample and no
		 * update failed, so those runs differed by start-up and load;
		 * a failed update is counted and reported either way */
		uint32_t keys = m->max_entries > 0 ? (uint32_t)m->max_entries : (uint32_t)sc->opt.map_keys_max;
		uint64_t bytes = (uint64_t)(d->key_size + d->val_size) * keys;
		/* an LRU map is always preallocated (the kernel refuses the flag) */
		uint32_t flags = bytes > (16u << 20) && !m->lru ? BPF_F_NO_PREALLOC : 0;
		m->fd = d->fd = new_map_fd(map_type(m), name, (uint32_t)d->key_size, (uint32_t)d->val_size,
					   keys, flags, err, errlen);
		if (d->fd < 0)
			return false;
	}
	return true;
}

static bool create_rodata(Runtime *rt, char *err, size_t errlen)
{
	Script *sc = rt->sc;
	uint32_t size = (uint32_t)((sc->rodata.len + 8) & ~7u);
	rt->rodata_fd = new_map_fd(BPF_MAP_TYPE_ARRAY, "sonde_rodata", 4, size, 1,
				   BPF_F_RDONLY_PROG, err, errlen);
	if (rt->rodata_fd < 0)
		return false;
	char *buf = xcalloc(1, size);
	if (sc->rodata.len)
		memcpy(buf, sc->rodata.s, sc->rodata.len);
	uint32_t key = 0;
	int r = bpf_map_update_elem(rt->rodata_fd, &key, buf, 0);
	free(buf);
	/* bpf_strncmp wants a constant string: a frozen read-only map */
	if (r || bpf_map_freeze(rt->rodata_fd)) {
		snprintf(err, errlen, "preparing string constants: %s", strerror(errno));
		return false;
	}
	return true;
}

uint64_t loader_ringbuf_size(uint64_t pages)
{
	/* bpftrace mmaps `pages` pages per CPU, which the kernel takes only as a
	 * power of two; sonde's one ring buffer holds what all CPUs' would,
	 * rounded up to a power of two as BPF ring buffers must be */
	if (!pages || (pages & (pages - 1)) || pages > RINGBUF_MAX / 4096)
		return 0;
	uint64_t want = pages * (uint64_t)sysconf(_SC_PAGESIZE) * (uint64_t)libbpf_num_possible_cpus();
	uint64_t size = 4096;
	while (size < want && size < RINGBUF_MAX)
		size <<= 1;
	return size >= want ? size : 0;
}

/* Only BEGIN/END/ERROR (each run once) send records, and every one is an
 * exit()'s: a few 16-byte records, where a page holds 256.  Creating,
 * mapping and unmapping 512 KiB would cost such a run (`BEGIN { exit(); }`)
 * about 1 ms, a tenth of its start-up. */
static bool only_exit_records(const Script *sc)
{
	if (sc->traced_events)
		return false;
	for (int i = 0; i < sc->events.n; i++)
		if (sc->events.v[i]->kind != EV_EXIT)
			return false;
	return true;
}

static uint64_t ringbuf_default(const Script *sc)
{
	if (sc->traced_events)
		return RINGBUF_LARGE;
	return only_exit_records(sc) ? RINGBUF_PAGE : RINGBUF_SMALL;
}

static int stack_depth_of(const Reloc *r)
{
	return r->arg >= 1 && r->arg <= STACK_DEPTH_MAX ? r->arg : STACK_DEPTH_MAX;
}

/* the stack maps of a kind, by depth */
static int *stack_fds(Runtime *rt, RelocKind kind)
{
	return kind == R_KSTACK ? rt->kstack_fds : kind == R_USTACK ? rt->ustack_fds : rt->bstack_fds;
}

/* One stack trace map per kind and depth used: the kernel records and
 * hashes only the first N frames, so stacks equal in those are one id (one
 * key); ustack(build_id)'s record each frame as a bpf_stack_build_id. */
static bool create_stack_map(Runtime *rt, const Reloc *r, char *err, size_t errlen)
{
	static const char kind_char[] = {[R_KSTACK] = 'k', [R_USTACK] = 'u', [R_BSTACK] = 'b'};
	int d = stack_depth_of(r);
	int *fd = &stack_fds(rt, r->kind)[d];
	bool build_id = r->kind == R_BSTACK;
	char name[16];
	snprintf(name, sizeof(name), "sonde_%cstack%d", kind_char[r->kind], d);
	if (*fd < 0)
		*fd = new_map_fd(BPF_MAP_TYPE_STACK_TRACE, name, 4,
				 (uint32_t)d * (build_id ? sizeof(struct bpf_stack_build_id) : 8),
				 STACK_MAP_ENTRIES, build_id ? BPF_F_STACK_BUILD_ID : 0, err, errlen);
	return *fd >= 0;
}

static bool create_stack_maps(Runtime *rt, char *err, size_t errlen)
{
	for (int i = 0; i < rt->sc->progs.n; i++) {
		const ProgCode *pc = rt->sc->progs.v[i];
		for (int j = 0; j < pc->nrelocs; j++) {
			const Reloc *r = &pc->relocs[j];
			if ((r->kind == R_KSTACK || r->kind == R_USTACK || r->kind == R_BSTACK) &&
			    !create_stack_map(rt, r, err, errlen))
				return false;
		}
	}
	return true;
}

/* skboutput(): a perf event array (bpf_skb_output writes only to those),
 * one slot a CPU, when a program refers to it */
static bool create_perf_array(Runtime *rt, char *err, size_t errlen)
{
	for (int i = 0; i < rt->sc->progs.n; i++) {
		const ProgCode *pc = rt->sc->progs.v[i];
		for (int j = 0; j < pc->nrelocs; j++)
			if (pc->relocs[j].kind == R_PERFBUF)
				return (rt->perfbuf_fd = new_map_fd(BPF_MAP_TYPE_PERF_EVENT_ARRAY,
								    "sonde_skbout", 4, 4,
								    (uint32_t)libbpf_num_possible_cpus(),
								    0, err, errlen)) >= 0;
	}
	return true;
}

bool loader_create_maps(Runtime *rt, char *err, size_t errlen)
{
	Script *sc = rt->sc;
	int ncpu = libbpf_num_possible_cpus();
	if (!create_program_maps(rt, err, errlen))
		return false;
	uint64_t rb_size = rt->opt.rb_pages_set ? loader_ringbuf_size(rt->opt.rb_pages) : 0;
	if (!rb_size) /* unset, or refused after the Attaching line (session.c) */
		rb_size = ringbuf_default(sc);
	rt->ringbuf_fd = new_map_fd(BPF_MAP_TYPE_RINGBUF, "sonde_events", 0, 0, (uint32_t)rb_size, 0,
				    err, errlen);
	rt->scratch_fd = new_map_fd(BPF_MAP_TYPE_ARRAY, "sonde_scratch", 4,
				    (uint32_t)(sc->scratch_size + 8), (uint32_t)ncpu, 0, err, errlen);
	rt->zero_fd = new_map_fd(BPF_MAP_TYPE_ARRAY, "sonde_zero", 4, (uint32_t)sc->zero_size, 1,
				 BPF_F_RDONLY_PROG, err, errlen);
	rt->lost_fd = new_map_fd(BPF_MAP_TYPE_PERCPU_ARRAY, "sonde_lost", 4, 8, 1, 0, err, errlen);
	if (sc->firing_size && (rt->firing_fd = new_map_fd(BPF_MAP_TYPE_ARRAY, "sonde_firing", 4,
							   (uint32_t)sc->firing_size, (uint32_t)ncpu,
							   0, err, errlen)) < 0)
		return false;
	for (int k = 0; sc->nerror && k < sc->nerr_kinds; k++)
		if ((rt->errprog_fd[k] = new_map_fd(BPF_MAP_TYPE_PROG_ARRAY, "sonde_error", 4, 4,
						    (uint32_t)sc->nerror, 0, err, errlen)) < 0)
			return false;
	if (sc->nchain && (rt->chain_fd = new_map_fd(BPF_MAP_TYPE_PROG_ARRAY, "sonde_chain", 4, 4,
						     (uint32_t)sc->nchain, 0, err, errlen)) < 0)
		return false;
	rt->control_fd = new_map_fd(BPF_MAP_TYPE_ARRAY, "sonde_control", 4, CONTROL_SIZE, 1, BPF_F_MMAPABLE,
				    err, errlen);
	if (rt->ringbuf_fd < 0 || rt->scratch_fd < 0 || rt->zero_fd < 0 || rt->lost_fd < 0 ||
	    rt->control_fd < 0)
		return false;
	rt->control = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, rt->control_fd, 0);
	if (rt->control == MAP_FAILED) {
		rt->control = NULL;
		snprintf(err, errlen, "mapping the control map: %s", strerror(errno));
		return false;
	}
	if (!create_rodata(rt, err, errlen))
		return false;
	if (!create_stack_maps(rt, err, errlen) || !create_perf_array(rt, err, errlen))
		return false;
	if ((rt->drops_fd = new_map_fd(BPF_MAP_TYPE_PERCPU_ARRAY, "sonde_drops", 4, 8, 2, 0, err,
				       errlen)) < 0)
		return false;
	if (!pycode_create_maps(rt, err, errlen))
		return false;
	rt->out.kstack_fds = rt->kstack_fds;
	rt->out.ustack_fds = rt->ustack_fds;
	rt->out.bstack_fds = rt->bstack_fds;
	rt->out.pycode_fd = rt->pycode_fd;
	rt->out.no_usyms = sc->opt.no_user_symbols;
	return true;
}

static int reloc_fd(const Runtime *rt, const Reloc *r)
{
	switch (r->kind) {
	case R_MAP: return rt->sc->maps.v[r->arg]->fd;
	case R_RINGBUF: return rt->ringbuf_fd;
	case R_SCRATCH: return rt->scratch_fd;
	case R_ZERO: return rt->zero_fd;
	case R_RODATA: return rt->rodata_fd;
	case R_LOST: return rt->lost_fd;
	case R_KSTACK: return rt->kstack_fds[stack_depth_of(r)];
	case R_USTACK: return rt->ustack_fds[stack_depth_of(r)];
	case R_BSTACK: return rt->bstack_fds[stack_depth_of(r)];
	case R_PYCODE: return rt->pycode_fd;
	case R_PYLIVE: return rt->pylive_fd;
	case R_PYBASE: return rt->pybase_fd;
	case R_CONTROL: return rt->control_fd;
	case R_FIRING: return rt->firing_fd;
	case R_ERRPROGS: return rt->errprog_fd[r->arg];
	case R_DROPS: return rt->drops_fd;
	case R_PERFBUF: return rt->perfbuf_fd;
	case R_CHAIN: return rt->chain_fd;
	}
	return -1;
}

static int load_one(Runtime *rt, ProgCode *pc, char *err, size_t errlen)
{
	for (int i = 0; i < pc->nrelocs; i++)
		pc->insns[pc->relocs[i].insn].imm = reloc_fd(rt, &pc->relocs[i]);
	BpfLoadAttr a = {.type = pc->spec->prov->prog_type, .name = "sonde",
			 .expected_attach_type = pc->spec->attach_type,
			 .attach_btf_id = pc->spec->btf_id, .attach_btf_obj_fd = pc->spec->btf_obj_fd};
	char *log;
	int fd = bpf_prog_load_code(&pc->code, &a, rt->opt.verbose, &log);
	if (fd >= 0)
		return fd;
	char reason[512], where[64] = "";
	int insn;
	bpf_verifier_reason(log, reason, sizeof(reason), &insn);
	if (insn >= 0 && insn < pc->ninsns && pc->lines[insn] > 0)
		snprintf(where, sizeof(where), " at line %d", pc->lines[insn]);
	const char *words = bpf_verifier_words(reason);
	snprintf(err, errlen, "probe %s: the kernel's verifier rejected the program%s: %s%s%s%s%s",
		 pc->spec->name, where, words ? words : reason, words ? " (" : "",
		 words ? reason : "", words ? ")" : "",
		 rt->opt.verbose ? "" : "; run with -v for the full log");
	if (rt->opt.verbose)
		fprintf(stderr, "verifier log for %s:\n%s\n", pc->spec->name, log);
	free(log);
	return -1;
}

/* D: each ERROR clause's program into its kind's prog array, where a
 * faulting program (and the ERROR clause before it) tail-calls it */
static bool fill_error_progs(Runtime *rt, char *err, size_t errlen)
{
	for (int i = 0; i < rt->sc->progs.n; i++) {
		const ProgCode *pc = rt->sc->progs.v[i];
		uint32_t slot = (uint32_t)pc->err_slot;
		if (pc->err_kind < 0 || pc->err_slot < 0)
			continue;
		if (bpf_map_update_elem(rt->errprog_fd[pc->err_kind], &slot, &pc->fd, 0)) {
			snprintf(err, errlen, "preparing dtrace:::ERROR: %s", strerror(errno));
			return false;
		}
	}
	return true;
}

/* D: each clause after the first on a perf-event probe into its slot of
 * the chain, where the clause before it tail-calls it */
static bool fill_chain_progs(Runtime *rt, char *err, size_t errlen)
{
	for (int i = 0; i < rt->sc->progs.n; i++) {
		const ProgCode *pc = rt->sc->progs.v[i];
		uint32_t slot = (uint32_t)pc->spec->chain_slot - 1;
		if (pc->spec->chain_slot && bpf_map_update_elem(rt->chain_fd, &slot, &pc->fd, 0)) {
			snprintf(err, errlen, "chaining the clauses of %s: %s", pc->spec->name,
				 strerror(errno));
			return false;
		}
	}
	return true;
}

bool loader_load_programs(Runtime *rt, char *err, size_t errlen)
{
	for (int i = 0; i < rt->sc->progs.n; i++) {
		ProgCode *pc = rt->sc->progs.v[i];
		pc->fd = load_one(rt, pc, err, errlen);
		if (pc->fd < 0)
			return false;
	}
	return fill_error_progs(rt, err, errlen) && fill_chain_progs(rt, err, errlen) &&
	       pycode_load(rt, err, errlen);
}

/* Programs in script order, except that those of newest-first providers
 * (uprobes) go in reverse, after the others: each then fires in script
 * order among the probes of its event. */
static ProgCode *attach_order(const Runtime *rt, int i)
{
	int n = rt->sc->progs.n, k = 0;
	for (int j = 0; j < n; j++)
		if (!rt->sc->progs.v[j]->spec->prov->newest_first && k++ == i)
			return rt->sc->progs.v[j];
	for (int j = n - 1; j >= 0; j--)
		if (rt->sc->progs.v[j]->spec->prov->newest_first && k++ == i)
			return rt->sc->progs.v[j];
	return NULL;
}

bool loader_attach_all(Runtime *rt, char *err, size_t errlen)
{
	for (int i = 0; i < rt->sc->progs.n; i++) /* -v: BEGIN first, as bpftrace */
		if (rt->sc->progs.v[i]->spec->prov->is_special == SPECIAL_BEGIN)
			verbose_attaching(rt, rt->sc->progs.v[i]);
	if (!pycode_attach(rt, err, errlen)) /* before any walk can meet a code object */
		return false;
	for (int i = 0; i < rt->sc->progs.n; i++) {
		ProgCode *pc = attach_order(rt, i);
		if (pc->spec->prov->is_special || pc->spec->chain_slot)
			continue; /* run by BPF_PROG_TEST_RUN, or by the clause before it */
		verbose_attaching(rt, pc);
		char why[384];
		int first = rt->attached.n;
		if (!pc->spec->prov->attach(pc->spec, pc->fd, &rt->attached, why, sizeof(why))) {
			snprintf(err, errlen, "cannot attach %s: %s", pc->spec->name, why);
			return false;
		}
		watchpoint_note_static(rt, pc->spec, first);
		phase_time(pc->spec->name);
	}
	return true;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void loader_close(Runtime *rt)
{
	attached_close(&rt->attached);
	if (rt->rb)
		ring_buffer__free(rt->rb);
	rt->rb = NULL;
	for (int i = 0; i < rt->sc->progs.n; i++) {
		close_fd(&rt->sc->progs.v[i]->fd);
		free(rt->sc->progs.v[i]->vlog);
		rt->sc->progs.v[i]->vlog = NULL;
	}
	for (int i = 0; i < rt->sc->maps.n; i++)
		close_fd(&rt->sc->maps.v[i]->fd);
	close_fd(&rt->ringbuf_fd);
	close_fd(&rt->scratch_fd);
	close_fd(&rt->zero_fd);
	close_fd(&rt->rodata_fd);
	close_fd(&rt->lost_fd);
	close_fd(&rt->firing_fd);
	close_fd(&rt->chain_fd);
	for (int k = 0; k < (int)(sizeof(rt->errprog_fd) / sizeof(rt->errprog_fd[0])); k++)
		close_fd(&rt->errprog_fd[k]);
	if (rt->control)
		munmap((void *)rt->control, 4096);
	rt->control = NULL;
	close_fd(&rt->control_fd);
	for (int i = 0; i <= STACK_DEPTH_MAX; i++) {
		close_fd(&rt->kstack_fds[i]);
		close_fd(&rt->ustack_fds[i]);
		close_fd(&rt->bstack_fds[i]);
	}
	pycode_close(rt);
	close_fd(&rt->drops_fd);
	close_fd(&rt->perfbuf_fd);
	free(rt->maps);
	rt->maps = NULL;
}
