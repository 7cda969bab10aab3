/* Kernel functions from the kernel's BTF (/sys/kernel/btf/vmlinux, and
 * /sys/kernel/btf/MODULE for loaded modules): the targets of kfunc/kretfunc
 * (fentry/fexit), their parameters for args->NAME and -lv.  Shared by the kfunc provider and `sonde -l`. */
#pragma once
#include "symctx.h"
#include <stdbool.h>

#include "dwarf_args.h"

/* A function in the kernel's BTF: its module ("vmlinux" or a module's
 * name), name, BTF id and the BTF object (btf_kernel() or btf_module()). */
struct btf;
typedef struct BtfFunc {
	const char *module, *name;
	int id;
	struct btf *btf;
} BtfFunc;

/* Calls found for every function whose module matches module_glob and whose
 * name matches glob: vmlinux's in BTF order, then each module's (sorted by
 * module name); traceable ones only when the kernel tells
 * (available_filter_functions readable).  Returns false without BTF. */
bool btf_funcs_foreach(SymCtx *sc, const char *module_glob, const char *glob,
		       void (*found)(const BtfFunc *f, void *arg), void *arg);
/* The functions named exactly name in the modules module_glob matches
 * (traceable or not: attaching says why not); how many were found. */
int btf_funcs_find(SymCtx *sc, const char *module_glob, const char *name,
		   void (*found)(const BtfFunc *f, void *arg), void *arg);
/* Whether available_filter_functions could be read (the traceable functions are known). */
bool btf_funcs_traceable_known(SymCtx *sc);
/* The BTF id of vmlinux's function name, 0 if none (or no BTF). */
int btf_func_id(SymCtx *sc, const char *name);
/* The kernel's fd for the BTF object b is (a program's attach_btf_obj_fd):
 * 0 for vmlinux, -1 if the module's is not found.  Kept open for the run. */
int btf_obj_fd(SymCtx *sc, const struct btf *b);
/* Parameters (names, C spellings as bpftrace -lv prints them, BTF type
 * ids: lang/sym_types.h makes Types of them) and
 * the return type's spelling (*ret, "void" if none).  Kept for the run. */
const DwarfFunc *btf_func_params(const BtfFunc *f, const char **ret);

/* Raw tracepoints with BTF: a typedef btf_trace_NAME of a pointer to the
 * prototype of the tracepoint's probes (the first parameter their data,
 * void *__data; the tracepoint's arguments after it), the attach_btf_id
 * of a tp_btf program.  found is called for those whose NAME matches glob
 * (f->name NAME, f->id the typedef's) in the modules module_glob matches,
 * vmlinux first; without a wildcard, returns how many were found. */
int btf_rawtp_foreach(SymCtx *sc, const char *module_glob, const char *glob,
		      void (*found)(const BtfFunc *f, void *arg), void *arg);
/* A raw tracepoint's arguments (the prototype's parameters after __data),
 * as btf_func_params gives a function's.  Kept for the run. */
const DwarfFunc *btf_rawtp_params(const BtfFunc *f);
