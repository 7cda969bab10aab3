/* CPython's USDT probes as sonde attaches them (a USDT companion,
 * probes/provider.h): CPython 3.11's function__entry needs its line
 * semaphore raised too (function__return fires without).  The kernel raises
 * a semaphore for a uprobe with that ref_ctr: one is placed at the
 * program's entry point, which runs once per process (before sonde could
 * attach, for a running one), so no line traps. */
#include <stdio.h>
#include <string.h>

#include "../probes/provider.h"
#include "../sym/pylayout.h"

static bool py311_line_probe(const ProbeSpec *p, ProbeSpec *extra)
{
	*extra = *p;
	return strstr(p->name, ":python:function__entry") &&
	       py311_line_semaphore(p->sym, p->target, &extra->offset, &extra->ref_ctr);
}

static void py311_line_note(const ProbeSpec *p)
{
	static bool told; /* once per run, not per probe */
	if (!told && (told = true))
		fprintf(stderr, "sonde: %s: CPython 3.11 fires function__entry for "
			"Python-to-Python calls only while its line probe is enabled (CPython issue "
			"98894): sonde enables it too; Python runs slower while sonde is attached\n",
			p->target);
}

static const UsdtCompanion py311_line = {py311_line_probe, py311_line_note};

__attribute__((constructor)) static void register_py311_line(void)
{
	usdt_companion_register(&py311_line);
}
