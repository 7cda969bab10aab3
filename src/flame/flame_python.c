/* Whether sonde flamegraph's target runs CPython: then its samples carry
 * the Python stack too, which -f folded merges with the native frames
 * (runtime/map_folded.c).  Asked of the target itself: -p's process (its
 * executable or a libpython it maps), or the command's program when it is
 * a CPython or links a libpython3.  Nothing else gets the Python walk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sym/pylayout.h"
#include "../util/util.h"
#include "flame.h"

bool flame_target_python(int pid, char *const *cmd)
{
	SymCtx *sc = sym_ctx_new();
	PyLayout *l = xcalloc(1, sizeof(*l));
	char err[512] = "";
	/* a command that is no CPython gets no python of the system on the
	 * chance that it starts one */
	bool ok = pylayout_find_own(sc, pid, pid ? NULL : cmd[0], l, err, sizeof(err));
	const char *base = pid ? "" : strrchr(cmd[0], '/') ? strrchr(cmd[0], '/') + 1 : cmd[0];
	if (!ok && !strncmp(base, "python", 6))
		fprintf(stderr, "sonde flamegraph: native frames only: %s\n", err);
	pylayout_free(l);
	free(l);
	sym_ctx_free(sc);
	return ok;
}
