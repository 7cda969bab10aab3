/* -v output as bpftrace 0.17 prints it (verbose.c) */
#pragma once
#include "runtime.h"

/* Before program pc attaches (or BEGIN/END runs): its id, the verifier's
 * statistics (ProgCode.vlog) and "Attaching PROBE" on stderr; nothing
 * without -v. */
void verbose_attaching(const Runtime *rt, const ProgCode *pc);
/* After the -c command was reaped with wait status `status` (-1: killed
 * by sonde, or never reaped): "Child exited with code: N" under -v. */
void verbose_child_exit(const Runtime *rt, int status);
