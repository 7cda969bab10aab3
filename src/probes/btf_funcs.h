/* Kernel functions from the kernel's BTF (/sys/kernel/btf/vmlinux): the
 * targets of kfunc/kretfunc (fentry/fexit), their parameters for args->NAME
 * and -lv.  Shared by the kfunc provider and `sonde -l`. */
#pragma once
#include <stdbool.h>

#include "../runtime/dwarf_args.h"

/* Calls found(name, btf id of the FUNC, arg) for every function whose name
 * matches glob, in BTF order; traceable ones only when the kernel tells
 * (available_filter_functions readable).  Returns false without BTF. */
bool btf_funcs_foreach(const char *glob, void (*found)(const char *name, int id, void *arg),
		       void *arg);
/* Whether available_filter_functions could be read (the traceable functions are known). */
bool btf_funcs_traceable_known(void);
/* The BTF id of function name, 0 if none (or no BTF). */
int btf_func_id(const char *name);
/* Parameters (names, C spellings as bpftrace -lv prints them, types) and
 * the return type's spelling (*ret, "void" if none).  Kept for the run. */
const DwarfFunc *btf_func_params(int id, const char **ret);
