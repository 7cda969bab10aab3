/* The files a uprobe/uretprobe/usdt attach point's BINARY part names:
 * wildcards expanded, paths of a -p process in another mount namespace
 * reached through /proc/PID/root (uprobe_targets.c). */
#pragma once
#include <stdbool.h>
#include <stddef.h>

#include "../util/util.h"

typedef VEC(char *) UTargets;

/* Appends the files target names (malloc'ed paths) to out; false with err
 * filled (bpftrace's "PROV target file '...' does not exist or is not
 * executable") when there is none.  prov: "uprobe", "uretprobe", "usdt". */
bool utargets_resolve(const char *prov, const char *target, int pid, UTargets *out, char *err,
		      size_t errlen);
void utargets_free(UTargets *t);
/* Whether process pid sees another mount namespace than sonde. */
bool pid_in_other_mntns(int pid);
/* path as process pid sees it: "/proc/PID/root" + path (malloc'ed). */
char *path_in_pid_root(int pid, const char *path);
