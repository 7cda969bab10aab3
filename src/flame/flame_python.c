/* Whether sonde flamegraph's target runs CPython: then its samples carry
 * the Python stack too, which -f folded merges with the native frames
 * (runtime/map_folded.c).  Asked of the target itself: -p's process (its
 * executable or a libpython it maps), or the command's program when it is
 * a CPython or links a libpython3.  Nothing else gets the Python walk. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sym/elf_syms.h"
#include "../sym/pylayout.h"
#include "../util/util.h"
#include "flame.h"

/* The command's program resolved (PATH, symlinks), or NULL. */
static char *program_path(const char *prog)
{
	char err[128], *p = resolve_binary(prog, 0, err, sizeof(err));
	char *real = p ? realpath(p, NULL) : NULL;
	free(p);
	return real;
}

bool flame_target_python(int pid, char *const *cmd)
{
	SymCtx *sc = sym_ctx_new();
	PyLayout *l = xcalloc(1, sizeof(*l));
	char err[512] = "";
	bool ok = pylayout_find(sc, pid, pid ? NULL : cmd[0], l, err, sizeof(err));
	if (ok && !pid) { /* a command not named python* gets python3.11's
			     layout on the chance that it starts one: not here */
		char *prog = program_path(cmd[0]), *py = realpath(l->path, NULL);
		ok = prog && py && (!strcmp(prog, py) || strcmp(l->path, "/usr/bin/python3.11"));
		free(prog);
		free(py);
	}
	const char *base = pid ? "" : strrchr(cmd[0], '/') ? strrchr(cmd[0], '/') + 1 : cmd[0];
	if (!ok && !strncmp(base, "python", 6))
		fprintf(stderr, "sonde flamegraph: native frames only: %s\n", err);
	free(l);
	return ok;
}
