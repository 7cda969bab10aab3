/* Uprobe events of tracefs (uprobe_events, made by `sonde probe -a` or
 * `perf probe -x`) as sonde programs use them: `tracepoint:GROUP:EVENT`.
 * The kernel attaches only kprobe-type programs to such an event, whose
 * context is the registers, so sonde attaches a uprobe at the event's place
 * and computes each field from the event's fetch argument itself; the
 * field's size and sign are the event format's. */
#pragma once
#include <stdbool.h>
#include <stdint.h>

#include "../sym/symctx.h"

typedef struct UeventArg {
	char *name;
	enum { UA_REG, UA_IMM, UA_FILEADDR, UA_COMM, UA_BAD } base; /* UA_BAD: not parsed */
	char reg[12];      /* UA_REG: the pt_regs field ("di"; $retval is "ax") */
	int64_t imm;       /* UA_IMM: the value; UA_FILEADDR: X of @+X */
	int64_t deref[8];  /* +N(...): innermost first */
	int nderef;
	bool bitfield;     /* a :bW@O/S type (not read by sonde) */
	char *text;        /* the fetch argument as written */
} UeventArg;

typedef struct Uevent {
	char *group, *event;
	char *path;        /* the binary */
	uint64_t offset;   /* the probed instruction's file offset */
	bool ret;          /* r: a return probe */
	UeventArg *args;
	int nargs;
} Uevent;

/* GROUP/EVENT of uprobe_events, parsed and kept for the process; NULL when
 * it is not a uprobe event.  A fetch argument sonde cannot read is UA_BAD
 * (using that field is an error naming it). */
const Uevent *uevent_find(SymCtx *sc, const char *group, const char *event);
const UeventArg *uevent_arg(const Uevent *u, const char *name);
