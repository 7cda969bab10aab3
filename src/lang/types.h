/* Value types, and how each is laid out in memory.  The layout is the
 * contract between codegen (which writes map keys, map values and event
 * records) and the runtime (which decodes and prints them):
 *
 *   TY_INT        8 bytes, little-endian, sign- or zero-extended per is_signed
 *                 (bits says the width the program computes with: 8..64)
 *   TY_STR        size bytes, NUL-terminated unless the text fills them all
 *   TY_TUPLE      elements at offset[i], each 8-byte aligned; size rounded to 8
 *   TY_KSTACK     8 bytes: stack id in the stack map (negative = none)
 *   TY_USTACK     16 bytes: stack id, then the pid it was taken in
 *   TY_PYSTACK    16 + 16 x stack_depth bytes: Python frames (sym/pylayout.h)
 *   TY_KSYM       8 bytes: kernel address
 *   TY_USYM       16 bytes: user address, then pid
 *   TY_SYSCALL    8 bytes: a system call number (prints as its name)
 *   TY_INET       24 bytes: address family (8 bytes), then 16 address bytes
 *   TY_TIMESTAMP  8 bytes: nanoseconds since boot (strftime); fmt says how
 *   TY_BUF        8 bytes length then size-8 bytes of data (buf())
 *   TY_STRERROR   8 bytes: an errno value, printed as strerror() text
 *   TY_USERNAME   8 bytes: a uid, printed as its user name
 *   TY_MACADDR    8 bytes: 6 address bytes, then 2 zero bytes
 *   TY_CGROUP_PATH 8 bytes: cgroup id; fmt holds the hierarchy filter
 *                 (NULL = all); printed as "hier:path,..."
 *   TY_SIGNAL     8 bytes: a signal number, printed as strsignal() text
 *                 (bpftrace 0.26's signal_name(); "N/A" out of range)
 *   TY_RECORD     a C struct/union: size bytes in the C layout of its fields
 *   TY_ARRAY      a C array: count elements of pointee, each in C layout
 *
 * C layout (inside records and arrays, and wherever memory is read through
 * a pointer): TY_INT takes bits/8 bytes; a pointer (TY_INT with pointee) 8;
 * TY_STR (a char array) size bytes; records and arrays their size.
 * A pointer is a 64-bit unsigned TY_INT whose `pointee` is set: everything
 * that handles integers handles pointers as their address.
 *
 * Aggregation map values are per-CPU; one CPU's slot holds:
 *   TY_COUNT, TY_SUM   8 bytes (u64 / s64)
 *   TY_MIN, TY_MAX     16 bytes: value (s64), then 1 once a value was seen
 *   TY_AVG, TY_STATS   16 bytes: count, then total (s64)
 *   TY_HIST            HIST_BUCKETS x 8 bytes of counts (see hist_bucket())
 *   TY_LHIST           lhist_buckets() x 8 bytes of counts (D's lquantize too:
 *                      lh_max is then low + levels * step)
 *   TY_TSERIES         ts_count intervals of TSERIES_SLOT bytes: the interval's
 *                      number + 1 (0: empty), its value (the last, sum, min or
 *                      max; avg: the sum), the count of values, the time of the last
 *   TY_QUANTIZE        QUANT_BUCKETS x 8 bytes (D's quantize: see quant_bucket())
 *   TY_LLQUANTIZE      llquant_buckets() x 8 bytes (D's llquantize, Oracle DTrace's
 *                      layout: negative overflow, negative steps, |v| < factor^low,
 *                      positive steps, positive overflow)
 *   TY_STDDEV          32 bytes: count, total (s64), sum of squares (u128, low first)
 */
#pragma once
#include <stdbool.h>
#include <stdint.h>

#include "../util/util.h"

typedef enum TypeKind {
	TY_NONE,
	TY_INT,
	TY_STR,
	TY_TUPLE,
	TY_KSTACK,
	TY_USTACK,
	TY_PYSTACK,
	TY_KSYM,
	TY_USYM,
	TY_SYSCALL,
	TY_INET,
	TY_TIMESTAMP,
	TY_BUF,
	TY_STRERROR,
	TY_USERNAME,
	TY_MACADDR,
	TY_CGROUP_PATH,
	TY_SIGNAL,
	TY_RECORD,
	TY_ARRAY,
	/* aggregations: only as map values */
	TY_COUNT,
	TY_SUM,
	TY_MIN,
	TY_MAX,
	TY_AVG,
	TY_STATS,
	TY_HIST,
	TY_LHIST,
	TY_TSERIES,    /* bpftrace 0.26 */
	TY_QUANTIZE,   /* D */
	TY_LLQUANTIZE, /* D */
	TY_STDDEV,     /* D */
	/* not values: the tracepoint `args` context */
	TY_CTX,
} TypeKind;

/* D's symbol values (sym() mod() func() usym() umod() ufunc() uaddr()):
 * an address printed as dtrace prints each (dtrace/stack_d.c) */
enum { DSYM_NONE, DSYM_SYM, DSYM_MOD, DSYM_ADDR };

/* tseries(v, interval, count [, agg]): one interval's slot, and how its
 * values combine */
#define TSERIES_SLOT 32
enum { TS_AGG_LAST, TS_AGG_AVG, TS_AGG_MAX, TS_AGG_MIN, TS_AGG_SUM };

/* how a kstack/ustack prints (bpftrace's stack_mode): bpftrace's
 * "sym+off" lines, perf's "\taddr sym+off (module)", raw addresses, or a
 * user stack's frames as build id and file offset (its own stack map) */
typedef enum { STACK_BPFTRACE, STACK_PERF, STACK_RAW, STACK_BUILD_ID } StackMode;

/* hist: bucket 0 counts negative values, 1 counts 0, 2+k counts [2^k, 2^(k+1)) */
#define HIST_BUCKETS 66

typedef struct Type {
	TypeKind kind;
	int size;       /* bytes in memory, per the table above */
	int bits;       /* TY_INT: 8, 16, 32 or 64 */
	bool is_signed; /* TY_INT, TY_SUM/MIN/MAX/AVG/STATS */
	/* TY_INT: bpftrace 0.26's bool (0 or 1, 64 bits unsigned as a comparison's
	 * value), printed true/false (SemaHooks.bools) */
	bool is_bool;
	/* TY_INT of a C enum (cname "enum x"): its enumerators, in order
	 * (lang/ fills them from the script's definitions and BTF) */
	const struct Enumerator *enumerators;
	/* TY_INT with enumerators: printed as the name of its value's
	 * enumerator, a value none has as a number (bpftrace 0.26; sema sets it
	 * where SemaHooks.enum_names says so) */
	bool enum_named;
	int nelem;      /* TY_TUPLE */
	struct Type **elem;
	/* TY_TUPLE: a record's (bpftrace 0.26's `(a = 1, b = "x")`) elements'
	 * names, read with `.a`, printed `{ .a = 1, .b = x }`; NULL: a tuple */
	char **names;
	/* TY_TUPLE: each element's address space (AS_*, sema_addrspace.c), which
	 * bpftrace keeps through the tuple for its warning; NULL = none */
	signed char *elem_as;
	int *offset;
	/* TY_TUPLE: size and alignment in bpftrace's layout (a C struct of the
	 * elements at their own widths: sizeof((int8, int16, int32)) is 8),
	 * what sizeof reports; sonde keeps each element in an 8-byte slot */
	int c_size, c_align;
	int64_t lh_min, lh_max, lh_step; /* TY_LHIST */
	/* TY_TSERIES: the interval in ns, how many are kept, how values in one
	 * interval combine (TS_AGG_*) */
	uint64_t ts_interval;
	int ts_count, ts_agg;
	/* TY_HIST: bpftrace 0.26's layout (hist_nbuckets, hist_low): 2^hist_k
	 * buckets per power of 2 (hist(n, k)), values up to 2^63; else 0.17's,
	 * whose [2G, 4G) takes every value above */
	bool hist_wide;
	int hist_k;
	int llq_factor, llq_low, llq_high, llq_steps; /* TY_LLQUANTIZE */
	int stack_depth;                 /* TY_KSTACK/TY_USTACK/TY_PYSTACK: frames kept */
	StackMode stack_mode;            /* TY_KSTACK/TY_USTACK: how its frames print */
	bool stack_native;               /* TY_PYSTACK: D's jstack(): a ustack (id,
					    pid) follows the Python frames */
	const char *fmt;                 /* TY_TIMESTAMP: strftime format;
					    TY_CGROUP_PATH: hierarchy filter */
	int line_max;                    /* TY_PYSTACK: jstack's strsize, 0 = whole lines;
					    TY_INET: the text's most characters (D's
					    strsize), 0 = all */
	char dsym;                       /* TY_KSYM/TY_USYM in D: what prints (DSYM_*) */

	/* C types (kernel BTF, the script's C definitions, casts) */
	struct Type *pointee; /* TY_INT: pointer to this; TY_ARRAY: element type */
	bool user;            /* pointer into user memory (bpf_probe_read_user) */
	/* the program's context (ctx, a cast of it, or a record/array member of
	 * it): read with direct loads from the context register, as the
	 * verifier requires (perf_event programs see bpf_perf_event_data) */
	bool ctx;
	const char *cname;    /* TY_RECORD "struct x"; TY_INT "enum x"; TY_NONE "void" */
	bool is_union;        /* TY_RECORD */
	int count;            /* TY_ARRAY: elements */
	int nfields;          /* TY_RECORD: fields (see type_fields) */
	struct Field *fields;
	int btf_id;           /* TY_RECORD from kernel BTF: fields read on demand */
	int btf_space;        /* TY_RECORD: in which BTF (0 vmlinux, else a module's) */
	bool pending;         /* TY_RECORD: fields not read yet (btf_id) */
	/* TY_RECORD pending: the run's readers (sym/symctx.h) its fields are read with */
	struct SymCtx *sym;
} Type;

/* One member of a record: byte offset; a bitfield is bit_width bits
 * starting bit_off bits into the byte at offset.  name "" = anonymous. */
typedef struct Field {
	const char *name;
	int offset;
	int bit_off, bit_width;
	struct Type *type;
} Field;

/* A new Type of kind k and size bytes, zeroed otherwise, in arena a. */
Type *type_new(Arena *a, TypeKind k, int size);

/* One name of a C enum (Type.enumerators) */
typedef struct Enumerator {
	const char *name;
	int64_t value;
	struct Enumerator *next;
} Enumerator;

/* Append enumerator name = v to enum type t (its list lives in a). */
void type_enum_add(Arena *a, Type *t, const char *name, int64_t v);
/* The name of t's first enumerator whose value is v, or NULL. */
const char *type_enum_name(const Type *t, int64_t v);

static inline bool type_is_ptr(const Type *t)
{
	return t && t->kind == TY_INT && t->pointee;
}

/* bytes of a value of t in C layout (see above) */
static inline int type_csize(const Type *t)
{
	if (t->kind == TY_INT)
		return t->pointee ? 8 : t->bits / 8;
	return t->size;
}

/* A record's fields, read from BTF first if still pending (btf_types.c). */
const Field *type_fields(Type *t, int *n);

static inline int lhist_buckets(const Type *t)
{
	/* one below min, (max-min)/step inside, one at or above max */
	return (int)((t->lh_max - t->lh_min) / t->lh_step) + 2;
}

static inline int hist_bucket(int64_t v)
{
	if (v < 0)
		return 0;
	if (v == 0)
		return 1;
	int k = 63 - __builtin_clzll((uint64_t)v);
	return 2 + (k > 31 ? 31 : k); /* bpftrace 0.17 stops at [2G, 4G) */
}

/* the buckets of a hist: 0.17's HIST_BUCKETS, or 0.26's: bucket 0 for
 * negative values, then value v < 2^k in bucket v + 1, and v in [2^l,
 * 2^(l+1)) (l >= k) in 1 + ((l - k + 1) << k) + ((v >> (l - k)) & (2^k - 1)) */
static inline int hist_nbuckets(const Type *t)
{
	return t->hist_wide ? ((64 - t->hist_k) << t->hist_k) + 1 : HIST_BUCKETS;
}

/* the smallest value of bucket i >= 1 of a 0.26 hist (i = hist_nbuckets:
 * 2^63, the end of the last) */
static inline uint64_t hist_low(const Type *t, int i)
{
	int k = t->hist_k;
	uint64_t j = (uint64_t)(i - 1);
	if (!(j >> k))
		return j;
	return ((1ULL << k) + (j & ((1ULL << k) - 1))) << ((j >> k) - 1);
}

bool type_is_agg(const Type *t);
/* an aggregation that one number sums up: count, sum, avg, min, max */
bool type_agg_scalar(const Type *t);
bool type_equal(const Type *a, const Type *b);
/* TY_TUPLE: where element i of `from` goes in `to`: the field of the same
 * name in a record (records of the same fields in another order are one
 * type, bpftrace 0.26), the same place in a tuple; -1: no such field */
int type_elem_slot(const Type *to, const Type *from, int i);
const char *type_name(const Type *t, char *buf, int n); /* for messages */
/* bpftrace's words (types_bt.c): a type's name ("unsigned int32") and its
 * kind's ("integer", "string") */
const char *bpf_tn(const Type *t);
const char *bpf_kind(const Type *t);

/* D's quantize(): bucket QUANT_ZERO counts 0, QUANT_ZERO + 1 + k counts
 * [2^k, 2^(k+1)), QUANT_ZERO - 1 - k counts (-2^(k+1), -2^k]; the ends
 * take everything beyond (DTrace's DTRACE_QUANTIZE_* layout). */
#define QUANT_BUCKETS 127
#define QUANT_ZERO 63

/* The value DTrace labels quantize bucket b with: the smallest value of a
 * positive bucket, the one nearest 0 of a negative bucket. */
static inline int64_t quant_bucket_value(int b)
{
	if (b < QUANT_ZERO)
		return -(int64_t)(1ULL << (QUANT_ZERO - 1 - b));
	if (b == QUANT_ZERO)
		return 0;
	return (int64_t)(1ULL << (b - QUANT_ZERO - 1));
}

/* llquantize: bins in one sign's half, and the index of the |v| < factor^low bin */
static inline int llquant_half(const Type *t)
{
	return (t->llq_high - t->llq_low + 1) * (t->llq_steps - t->llq_steps / t->llq_factor);
}

static inline int llquant_buckets(const Type *t)
{
	return 2 * llquant_half(t) + 3;
}

/* llquantize's magnitudes: factor^n, 0 past 64 bits (its check refuses a
 * high magnitude whose factor^(high+1) overflows, so sema, codegen and the
 * printer all compute in range) */
static inline uint64_t llquant_pow(uint64_t factor, int n)
{
	uint64_t r = 1;
	for (int i = 0; i < n; i++) {
		if (r > UINT64_MAX / factor)
			return 0;
		r *= factor;
	}
	return r;
}

/* the width of llquantize's bins in magnitude m (factor^m .. factor^(m+1)) */
static inline uint64_t llquant_width(const Type *t, int m)
{
	return llquant_pow((uint64_t)t->llq_factor, m + 1) / (uint64_t)t->llq_steps;
}
