/* The Python code-object cache of a run that walks Python stacks
 * (sym/pylayout.h): its two maps, and the uprobe on the interpreter's
 * code_dealloc that keeps it true.  A walk gives each live code object a
 * generation (sonde_pylive) and caches its names under it (sonde_pycode);
 * when CPython frees a code object, this probe deletes its sonde_pylive
 * entry, so the next object at that address gets a new generation and the
 * old one's names are never printed for it.  The probe is attached before
 * the script's programs, for every process of that binary (a walk may meet
 * any of them), and costs one uprobe hit per code object freed.  Where
 * each process has a position-independent interpreter is pybase.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "../bpf/emit.h"
#include "../bpf/load.h"
#include "../compile/sema.h"
#include "../probes/provider.h"
#include "../sym/pylayout.h"
#include "../util/bpf_sys.h"
#include "runtime.h"

static int pycode_map(const char *name, uint32_t ksize, uint32_t vsize, uint32_t n, bool prealloc, char *err,
		      size_t errlen)
{
	int fd = bpf_sys_map_create(BPF_MAP_TYPE_HASH, name, ksize, vsize, n, prealloc ? 0 : BPF_F_NO_PREALLOC);
	if (fd < 0)
		snprintf(err, errlen, "creating map %s: %s", name, strerror(-fd));
	return fd;
}

/* Whether every walk runs in a uprobe, uretprobe or usdt program: in the
 * traced thread's own context, with interrupts on, where an element
 * allocated on demand (BPF_F_NO_PREALLOC) comes and the allocator's cache
 * refills between two.  Anywhere else the maps' elements are allocated up
 * front: a profile:/hardware: walk runs in NMI (Linux before 6.1 refuses
 * such maps there; the cache refills only after it), and a tracepoint's,
 * an off-CPU walk in sched_switch above all, runs with interrupts off under
 * the run-queue lock, where the cache of a dozen large elements ran out:
 * the outer frames of a deep stack were not cached and printed as
 * [code 0x...].  Preallocating sonde_pycode's 8192 values (10 MiB) is most
 * of a pystack script's start-up, hence the difference. */
static bool walks_only_in_uprobes(const Script *sc)
{
	for (int i = 0; i < sc->progs.n; i++) {
		const ProgCode *pc = sc->progs.v[i];
		bool walks = false;
		for (int j = 0; j < pc->nrelocs && !walks; j++)
			walks = pc->relocs[j].kind == R_PYLIVE;
		if (walks && (!pc->spec || pc->spec->prov->space != SPACE_USER))
			return false;
	}
	return true;
}

bool pycode_create_maps(Runtime *rt, char *err, size_t errlen)
{
	const PyLayout *l = rt->sc->py;
	if (!l)
		return true;
	bool prealloc = !walks_only_in_uprobes(rt->sc);
	rt->pycode_fd = pycode_map("sonde_pycode", 16, sizeof(PyCodeInfo), PYC_ENTRIES, prealloc, err, errlen);
	rt->pylive_fd = rt->pycode_fd < 0 ? -1 :
			pycode_map("sonde_pylive", 16, 8, PYC_ENTRIES, prealloc, err, errlen);
	/* sonde_pybase (16384 entries of 16 bytes: quick to preallocate) stays
	 * as it was; its entries are made by a uprobe and go at exec/exit */
	if (rt->pylive_fd >= 0 && l->nfiles)
		rt->pybase_fd = pycode_map("sonde_pybase", 4, sizeof(PyBase), PYBASE_ENTRIES, true, err, errlen);
	return rt->pylive_fd >= 0 && (!l->nfiles || rt->pybase_fd >= 0);
}

/* bpf_map_delete_elem(sonde_pylive, {pid, first argument}) */
static bool dealloc_code(BpfCode *c)
{
	bpf_emit(c, I_MOV64_REG(BPF_REG_6, BPF_REG_1));
	bpf_emit_call(c, BPF_FUNC_get_current_pid_tgid);
	bpf_emit(c, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	bpf_emit_stx(c, BPF_DW, BPF_REG_10, BPF_REG_0, -16);
	bpf_emit_ldx(c, BPF_DW, BPF_REG_1, BPF_REG_6, regs_arg_offset(0));
	bpf_emit_stx(c, BPF_DW, BPF_REG_10, BPF_REG_1, -8);
	bpf_emit_ld_map(c, BPF_REG_1, R_PYLIVE, 0);
	bpf_emit(c, I_MOV64_REG(BPF_REG_2, BPF_REG_10));
	bpf_emit(c, I_ALU64_IMM(BPF_ADD, BPF_REG_2, -16));
	bpf_emit_call(c, BPF_FUNC_map_delete_elem);
	bpf_emit(c, I_MOV64_IMM(BPF_REG_0, 0));
	bpf_emit(c, I_EXIT());
	return bpf_emit_finish(c);
}

int pycode_load_prog(Runtime *rt, BpfCode *c, bool ok, int type, const char *what, char *err, size_t errlen)
{
	for (int i = 0; ok && i < c->relocs.n; i++) /* R_PYLIVE, R_PYBASE */
		c->insns.v[c->relocs.v[i].insn].imm =
			c->relocs.v[i].kind == R_PYLIVE ? rt->pylive_fd : rt->pybase_fd;
	BpfProg p = {.insns = c->insns.v, .ninsns = c->insns.n, .fd = -1};
	BpfLoadAttr a = {.type = (enum bpf_prog_type)type, .name = "sonde_py"};
	char *log = NULL;
	int fd = ok ? bpf_prog_load_code(&p, &a, false, &log) : -1;
	if (fd < 0)
		snprintf(err, errlen, "loading the probe on CPython's %s: %s", what,
			 log ? log : "the program did not assemble");
	free(log);
	free(p.vlog);
	bpf_code_free(c);
	return fd;
}

bool pycode_load(Runtime *rt, char *err, size_t errlen)
{
	if (!rt->sc->py)
		return true;
	BpfCode c = {0};
	rt->pyprog_fds[PYPROG_DEALLOC] = pycode_load_prog(rt, &c, dealloc_code(&c), BPF_PROG_TYPE_KPROBE,
							  "code_dealloc", err, errlen);
	return rt->pyprog_fds[PYPROG_DEALLOC] >= 0 && pybase_load(rt, err, errlen);
}

static bool attach_dealloc(Runtime *rt, const char *path, uint64_t off, char *err, size_t errlen)
{
	char name[] = "uprobe:code_dealloc", why[384] = "no uprobe provider";
	const Provider *up = provider_find("uprobe");
	ProbeSpec s = {.prov = up, .name = name, .target = (char *)path, .offset = off, .pid = -1};
	if (up && up->attach(&s, rt->pyprog_fds[PYPROG_DEALLOC], &rt->attached, why, sizeof(why)))
		return true;
	snprintf(err, errlen, "cannot attach the probe on %s's code_dealloc (sonde must see code "
		 "objects freed to name Python frames right): %s", path, why);
	return false;
}

/* every interpreter file's code_dealloc, for every process (a walk may
 * meet any of them, -p/-c or not), and sonde_pybase's keepers */
bool pycode_attach(Runtime *rt, char *err, size_t errlen)
{
	const PyLayout *l = rt->sc->py;
	if (!l)
		return true;
	if (l->fixed && !attach_dealloc(rt, l->path, l->code_dealloc, err, errlen))
		return false;
	for (int i = 0; i < l->nfiles; i++)
		if (!attach_dealloc(rt, l->files[i].path, l->files[i].code_dealloc, err, errlen))
			return false;
	return pybase_attach(rt, err, errlen);
}

void pycode_close(Runtime *rt)
{
	int *fds[] = {&rt->pycode_fd, &rt->pylive_fd, &rt->pybase_fd};
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
	for (int i = 0; i < PYPROGS; i++) {
		if (rt->pyprog_fds[i] >= 0)
			close(rt->pyprog_fds[i]);
		rt->pyprog_fds[i] = -1;
	}
}
