/* What a front end (bt/, dtrace/) adds to the runtime, as a table of hooks
 * the runtime calls instead of asking which dialect the script is in.  The
 * front end that knows the dialect (main.c, dtrace/d_cli.c) puts its table
 * in RunOpts.fe; the session copies it to OutCtx.fe for the printers.
 * A NULL hook (or a NULL table, as unit tests and tools have) means the
 * runtime's own behaviour, which is bpftrace 0.17's. */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output.h"

struct Runtime;
struct EventDesc;

/* A record of an event kind the front end prints its own way (its own
 * kinds, or a core kind it prints differently): size bytes at data */
typedef void (*EventPrintFn)(struct Runtime *rt, const struct EventDesc *ev, const uint8_t *data,
			     size_t size);
typedef struct FrontendEvent {
	int kind; /* an EventKind */
	EventPrintFn print;
} FrontendEvent;

/* A Python frame's function, file and line (-1: unknown), for -f pprof;
 * code: its code object's address, freed: met while CPython freed it */
typedef struct PyFrameParts {
	char name[128], file[160];
	int line;
	uint64_t code;
	bool freed;
} PyFrameParts;

/* Python stack values (python/pystack_format.c): as print() shows them,
 * and frame by frame for -f folded and -f pprof */
typedef struct PyStackPrinter {
	void (*format)(StrBuf *sb, int pycode_fd, const Type *t, const void *d, bool in_key);
	int (*nframes)(const Type *t, const void *d, uint64_t *stop);
	void (*frame)(int pycode_fd, const void *d, int i, bool folded, char *text, size_t size);
	bool (*frame_parts)(int pycode_fd, const void *d, int i, PyFrameParts *out);
	/* the interpreter's native function that runs Python frames: folded,
	 * a user stack's frames from it outwards are the Python frames */
	const char *eval_func;
} PyStackPrinter;

typedef struct FrontendRt {
	/* events: {kind, print} pairs, searched before the runtime's own,
	 * ended by a NULL print */
	const FrontendEvent *events;
	/* a record tagged for a later decision (id >> EVENT_SPEC_SHIFT: D's
	 * speculations), NULL: dropped */
	void (*held_record)(struct Runtime *rt, unsigned tag, const void *data, size_t size);

	/* values */
	/* stacks (TY_KSTACK, TY_USTACK, TY_PYSTACK) in the front end's layout */
	void (*format_stack)(StrBuf *sb, const OutCtx *o, const Type *t, const void *d);
	/* a symbol value whose type the front end made (Type.dsym) */
	void (*format_sym)(StrBuf *sb, const OutCtx *o, const Type *t, const void *d);
	const PyStackPrinter *pystack;
	/* bpftrace 0.26's layout rules (false: 0.17's) */
	bool stats_as_record;      /* stats(): { .count = N, .average = N, .total = N } */
	bool hist_heading_bare;    /* "@h:" before a histogram's lines, no space after */
	bool json_records_compact; /* json structs: {"a": 1, "b": 2} (0.17: { "a": 1 }) */
	bool json_quotes_all_text; /* json strftime, strerror, macaddr, cgroup_path values
				      are strings (0.17 leaves them bare) */
	bool exit_gap_in_output;   /* the blank lines before the maps at exit go to the
				      output, text only (0.17: to stdout, always) */
	bool pointers_hex;         /* a pointer prints as 0x3a, text only (0.17: signed
				      decimal, as an integer key) */
	bool keys_as_values;       /* a C struct key prints as its value does,
				      @s[{ .m = 2, .n = 3 }] (0.17: @s[{.m=2,.n=3}]) */
	bool json_keys_unspaced;   /* a json key is its text without any space:
				      "(1,2),3" (0.17: "(1, 2),3") */

	/* the session */
	bool sigusr1_prints_maps; /* SIGUSR1 prints every map and the run goes on */
	/* every probe is attached (not under -q): the front end tells how many
	 * its own way (bpftrace 0.26's "Attached N probes" on stderr); NULL:
	 * the runtime's "Attaching N probes..." before attaching */
	void (*attached)(struct Runtime *rt, int nprobes);
	/* a run whose only probes are BEGIN and END ends once BEGIN ran, as
	 * bpftrace 0.26's does (else it waits for Ctrl-C or exit()) */
	bool ends_without_probes;
	bool polls;               /* the event loop wakes up periodically */
	void (*after_begin)(struct Runtime *rt);  /* BEGIN ran, the probes' clauses may start */
	void (*before_end)(struct Runtime *rt);   /* the run ends, END runs next */
	void (*exit_called)(struct Runtime *rt);  /* exit()'s control word seen, ring consumed */
	/* each wake-up of the event loop: agg/status say whether the aggrate /
	 * statusrate period has passed */
	void (*wakeup)(struct Runtime *rt, bool agg, bool status);
	void (*before_maps)(struct Runtime *rt); /* after END */
	void (*print_maps)(struct Runtime *rt);  /* the maps at exit, NULL: bpftrace's */
	void (*after_maps)(struct Runtime *rt);  /* last reports, then free what it kept */
} FrontendRt;

/* o->fe, or the empty table */
const FrontendRt *frontend_rt(const OutCtx *o);
