/* The Python code-object cache of a run that walks Python stacks
 * (sym/pylayout.h): its two maps, and the uprobe on the interpreter's
 * code_dealloc that keeps it true.  A walk gives each live code object a
 * generation (sonde_pylive) and caches its names under it (sonde_pycode);
 * when CPython frees a code object, this probe deletes its sonde_pylive
 * entry, so the next object at that address gets a new generation and the
 * old one's names are never printed for it.  The probe is attached before
 * the script's programs, for every process of that binary (a walk may meet
 * any of them), and costs one uprobe hit per code object freed. */
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
#include "runtime.h"

static int pycode_map(const char *name, uint32_t vsize, char *err, size_t errlen)
{
	/* preallocated: profile programs run in NMI, where allocating fails */
	int fd = bpf_map_create(BPF_MAP_TYPE_HASH, name, 16, vsize, PYC_ENTRIES, NULL);
	if (fd < 0)
		snprintf(err, errlen, "creating map %s: %s", name, strerror(-fd));
	return fd;
}

bool pycode_create_maps(Runtime *rt, char *err, size_t errlen)
{
	if (!rt->sc->py)
		return true;
	rt->pycode_fd = pycode_map("sonde_pycode", sizeof(PyCodeInfo), err, errlen);
	rt->pylive_fd = rt->pycode_fd < 0 ? -1 : pycode_map("sonde_pylive", 8, err, errlen);
	return rt->pylive_fd >= 0;
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

/* A -c command's position-independent interpreter (PyLayout.bias_late),
 * at Py_InitializeFromConfig (once, before any Python code runs): its load bias (the probed address minus the
 * function's file address) into the control page's CONTROL_PY_BIAS, which
 * the walks add to the interpreter's addresses */
static bool bias_code(BpfCode *c, uint64_t init_vaddr, int pid)
{
	int other = bpf_label_new(c);
	bpf_emit(c, I_MOV64_REG(BPF_REG_6, BPF_REG_1));
	bpf_emit_call(c, BPF_FUNC_get_current_pid_tgid);
	bpf_emit(c, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	bpf_emit_jmp_imm(c, BPF_JNE, BPF_REG_0, pid, other);
	bpf_emit_ldx(c, BPF_DW, BPF_REG_0, BPF_REG_6, pt_regs_offset("ip"));
	bpf_emit_ld_imm64(c, BPF_REG_2, init_vaddr);
	bpf_emit(c, I_ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_2));
	bpf_emit_ld_map_value(c, BPF_REG_1, R_CONTROL, CONTROL_PY_BIAS);
	bpf_emit_stx(c, BPF_DW, BPF_REG_1, BPF_REG_0, 0);
	bpf_label_place(c, other);
	bpf_emit(c, I_MOV64_IMM(BPF_REG_0, 0));
	bpf_emit(c, I_EXIT());
	return bpf_emit_finish(c);
}

static int load_code(Runtime *rt, BpfCode *c, bool ok, const char *what, char *err, size_t errlen)
{
	for (int i = 0; ok && i < c->relocs.n; i++) /* R_PYLIVE, R_CONTROL */
		c->insns.v[c->relocs.v[i].insn].imm =
			c->relocs.v[i].kind == R_PYLIVE ? rt->pylive_fd : rt->control_fd;
	BpfProg p = {.insns = c->insns.v, .ninsns = c->insns.n, .fd = -1};
	BpfLoadAttr a = {.type = BPF_PROG_TYPE_KPROBE, .name = "sonde_py"};
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
	const PyLayout *l = rt->sc->py;
	if (!l)
		return true;
	BpfCode c = {0};
	rt->pydealloc_fd = load_code(rt, &c, dealloc_code(&c), "code_dealloc", err, errlen);
	if (rt->pydealloc_fd < 0 || !l->bias_late)
		return rt->pydealloc_fd >= 0;
	BpfCode b = {0};
	rt->pybias_fd = load_code(rt, &b, bias_code(&b, l->init_vaddr, rt->opt.child_pid), "Py_InitializeFromConfig",
				  err, errlen);
	return rt->pybias_fd >= 0;
}

/* the -c command's bias, from its start (the child is held before exec;
 * a uprobe for that task would not survive its exec: its mm changes, so
 * every process is probed and the program keeps the child's hit) */
static bool attach_bias(Runtime *rt, const PyLayout *l, const Provider *up, char *err, size_t errlen)
{
	char name[] = "uprobe:Py_InitializeFromConfig", why[384] = "no uprobe provider";
	ProbeSpec s = {.prov = up, .name = name, .target = (char *)l->path, .offset = l->init_off,
		       .pid = -1};
	if (up && up->attach(&s, rt->pybias_fd, &rt->attached, why, sizeof(why)))
		return true;
	snprintf(err, errlen, "cannot attach the probe on %s's Py_InitializeFromConfig (where sonde "
		 "learns where the command's interpreter is loaded): %s", l->path, why);
	return false;
}

bool pycode_attach(Runtime *rt, char *err, size_t errlen)
{
	const PyLayout *l = rt->sc->py;
	if (!l)
		return true;
	if (l->bias_late && !attach_bias(rt, l, provider_find("uprobe"), err, errlen))
		return false;
	char name[] = "uprobe:code_dealloc", why[384] = "no uprobe provider";
	const Provider *up = provider_find("uprobe");
	ProbeSpec s = {.prov = up, .name = name, .target = (char *)l->path,
		       .offset = l->code_dealloc, .pid = -1};
	if (up && up->attach(&s, rt->pydealloc_fd, &rt->attached, why, sizeof(why)))
		return true;
	snprintf(err, errlen, "cannot attach the probe on %s's code_dealloc (sonde must see code "
		 "objects freed to name Python frames right): %s", l->path, why);
	return false;
}

void pycode_close(Runtime *rt)
{
	int *fds[] = {&rt->pycode_fd, &rt->pylive_fd, &rt->pydealloc_fd, &rt->pybias_fd};
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
}
