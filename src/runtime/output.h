/* Printing values, maps and printf output exactly as bpftrace 0.17 does,
 * in its text and json (-f json) formats. */
#pragma once
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../lang/fmt.h"
#include "../lang/types.h"
#include "../util/util.h"

/* OUT_FOLDED: maps keyed by stacks print as folded stacks (map_folded.c),
 * everything else as text. */
typedef enum OutFormat { OUT_TEXT, OUT_JSON, OUT_FOLDED } OutFormat;


struct FrontendRt;

typedef struct OutCtx {
	FILE *f;
	OutFormat fmt;
	const struct FrontendRt *fe; /* the front end's printers (frontend_rt.h), or NULL */
	AggOpts agg;
	/* per depth 1..STACK_DEPTH_MAX: the stack trace map recording that many
	   frames (a stack's identity is its first N frames, as in DTrace and
	   bpftrace), -1 where none; NULL: no stacks */
	const int *kstack_fds;
	const int *ustack_fds;
	const int *bstack_fds; /* ustack(build_id)'s: frames as build ids and offsets */
	int pycode_fd;           /* Python code-object cache for pystack, or -1 */
	int64_t boot_to_real_ns; /* add to a since-boot time to get wall clock */
	bool no_usyms; /* BPFTRACE_NO_USER_SYMBOLS=1: user addresses print as such */
	/* after a string that fills its whole type (no NUL: cut, Options.str_fills),
	 * bpftrace 0.26's str_trunc_trailer ("..") ; NULL or "": nothing */
	const char *str_trailer;
	struct SymCtx *sym; /* the run's readers: kernel and user symbols (sym/symctx.h) */
} OutCtx;

/* One BPF map as the program declared it. */
typedef struct MapDesc {
	const char *name;  /* printed name including '@', e.g. "@", "@bytes" */
	const Type *key;   /* NULL: a map without keys (8-byte zero key) */
	const Type *val;   /* value type; aggregations are TY_COUNT.. TY_LHIST */
	int key_size;
	int val_size;      /* one CPU's value size when percpu */
	bool percpu;
	int fd;
	int64_t normal;    /* D's normalize() factor; 0 or 1: none */
	bool printed;      /* D: printa() printed it, exit does not */
} MapDesc;

/* a string value as text: its bytes up to the NUL, and o's trailer when
 * it has none (value_format.c) */
void fmt_string(StrBuf *sb, const OutCtx *o, const Type *t, const char *d);

/* Format one value (not an aggregation) the way print() and map keys show
 * it: ints in decimal, strings raw (json: quoted), tuples "(1, a)", stacks
 * as bpftrace's multi-line blocks.  `in_key` selects map-key style. */
/* A buf() value as printf's %r ('r'), %rx ('x') or %rh ('h') shows it. */
void buf_format(StrBuf *sb, const Type *t, const void *d, char mode);
void value_format(StrBuf *sb, const OutCtx *o, const Type *t, const void *data,
		  bool in_key);

/* Print every entry of a map: sorted and laid out as bpftrace does at exit
 * and for print(@m, top, div).  top == 0 means all; div == 0 means 1. */
void map_print(const OutCtx *o, const MapDesc *m, int top, int div);

/* A stack value's frames (innermost first) read from its stack map: the
 * count, or -1 when the stack is missing (id < 0, no map). */
#define STACK_IPS_MAX 1024
#define STACK_DEPTH_MAX 127
int stack_read(const OutCtx *o, const Type *t, const void *d, uint64_t ips[STACK_IPS_MAX]);
/* The function a frame of stack value d (TY_KSTACK/TY_USTACK) is in, NULL
 * when no symbol covers it; *mod is the user frame's module when known. */
const char *stack_frame_name(struct SymCtx *sc, const Type *t, const void *d, uint64_t ip, uint64_t *off,
			     const char **mod);
/* stack_frame_name, but no user symbol under BPFTRACE_NO_USER_SYMBOLS=1 */
const char *stack_frame_name_o(const OutCtx *o, const Type *t, const void *d, uint64_t ip,
			       uint64_t *off, const char **mod);

/* print(expr) of a non-map value. */
void value_print(const OutCtx *o, const Type *t, const void *data);

/* Empty the map (clear) or set every value to zero keeping keys (zero). */
void map_clear(const MapDesc *m);
void map_zero(const MapDesc *m);

/* printf: render a format parsed into pieces (lang/fmt.h) with arguments
 * args[i] (bytes laid out per types[i]). */
void fmt_render(StrBuf *sb, const OutCtx *o, const Fmt *f, const Type *const *types,
		const void *const *args);

/* Emit a printf/print/time line: text output writes as is; json wraps it
 * as {"type": "printf", "data": "..."}. */
void output_printf_text(const OutCtx *o, const char *s, size_t n);
/* The same for the other text records of bpftrace's json: type is
 * "syscall" (system()), "cat" or "join"; nl: text output ends the line
 * (json's data never has that newline, as bpftrace 0.17's join). */
void output_message(const OutCtx *o, const char *type, const char *s, size_t n, bool nl);
/* bpftrace's "Lost N events" line (json: a lost_events record) */
void output_lost_events(const OutCtx *o, uint64_t lost);

/* json string escaping, as bpftrace does */
void json_escape(StrBuf *sb, const char *s, size_t n);
/* the n bytes at s as a JSON string: escaped, in double quotes */
void json_quoted(StrBuf *sb, const char *s, size_t n);

/* time(fmt): local wall-clock time through strftime (default "%H:%M:%S\n") */
void output_time(const OutCtx *o, const char *fmt);

/* ---- additions by the output module ---- */

/* One decoded map entry: `val` is a single merged value (one CPU slot's
 * layout), `key` is key_size bytes (ignored for keyless maps). */
typedef struct MapEntry {
	const void *key;
	const void *val;
} MapEntry;

/* Read every entry of m->fd, merging the per-CPU slots of aggregations.
 * Returns the number of entries (-1 on error); *entries and *mem must be
 * freed with free() by the caller. */
int map_read(const MapDesc *m, MapEntry **entries, void **mem);
/* The same; bpftrace_zero adds bpftrace's 0 entry to an empty keyless
 * count() map (map_read does). */
int map_read_entries(const MapDesc *m, MapEntry **entries, void **mem, bool bpftrace_zero);
/* map_read in a few system calls (BPF_MAP_LOOKUP_BATCH), for --metrics'
 * scrapes; map_read itself where the kernel cannot batch the map */
int map_read_batched(const MapDesc *m, MapEntry **entries, void **mem);
void map_delete_key(const MapDesc *m, const void *key);

/* ---- the D dialect: aggregations as dtrace(1) prints them (map_print_d.c) ---- */

/* Sort entries as DTrace does under the options ao. */
void map_sort_d(const AggOpts *ao, const MapDesc *m, MapEntry *e, int n);
/* Print entries (sorted here): plain, or each through a printa format
 * whose conversion number value_conv (-1: none) prints the value. */
void map_print_d_entries(const OutCtx *o, const MapDesc *m, MapEntry *e, int n, const Fmt *fmt,
			 int value_conv);
/* printa(@a) (fmt NULL: a "\n" first), printa(fmt, @a), and with several
 * aggregations joined on their keys; marks them printed. */
void map_printa_d(const OutCtx *o, MapDesc *const *ms, int nm, const Fmt *fmt, int value_conv);
/* At exit (after dtrace's "\n"): each aggregation printa() never printed, in order. */
void maps_print_d_exit(const OutCtx *o, const MapDesc *maps, int n);
/* Set a printing option by its dtrace(1) name (aggsortkey, aggsortrev,
 * aggsortkeypos, aggsortpos); value NULL for a flag.  False: not one of them. */
bool agg_opt_set(AggOpts *ao, const char *name, const char *value);
/* A stack value (TY_KSTACK/TY_USTACK) as dtrace(1) prints it: "\n", then
 * one indented "module`func+0xoff" line per frame (stack_d.c). */
void stack_format_d(StrBuf *sb, const OutCtx *o, const Type *t, const void *d);
void stack_printf_d(StrBuf *sb, const OutCtx *o, const Type *t, const void *d, int indent,
		    const char *cfmt);
void sym_format_d(StrBuf *sb, const OutCtx *o, bool user, const void *d);
/* a D sym()/mod()/usym()/umod()/uaddr() value's text (Type.dsym) */
void sym_text_d(StrBuf *sb, const OutCtx *o, const Type *t, const void *d);
/* trunc(@a[, n]) */
void map_trunc_d(const MapDesc *m, bool all, int64_t keep);
/* stddev() of a slot (types.h layout), divided by normal */
uint64_t stddev_d(const void *v, uint64_t normal);

/* The pure half of map_print: sorts `e` in place, applies top/div and
 * prints.  m->fd is not used. */
void map_print_entries(const OutCtx *o, const MapDesc *m, MapEntry *e, int n, int top,
		       int div);

/* -f folded: prints the entries of a map keyed by stacks (alone or in a
 * tuple) with an integer value as "frame;frame;... value" lines and
 * returns true; false (nothing printed) for any other map. */
bool map_print_folded(const OutCtx *o, const MapDesc *m, const MapEntry *e, int n);

/* Fold one CPU's aggregation slot `src` into `dst` (dst starts zeroed). */
void agg_merge(const Type *t, void *dst, const void *src);
