/* D subroutines and actions (the `sonde dtrace` dialect).  Each family
 * keeps its type rules, code generation and table rows (registered with
 * BUILTINS(), compile/builtin.h) in one file:
 *   dfunc_string.c  strlen strjoin substr strtok toupper tolower lltostr
 *   dfunc_search.c  index rindex strstr strchr strrchr
 *   dfunc_path.c    basename dirname cleanpath
 *   dfunc_misc.c    htons.. ntohll rand progenyof
 *   dfunc_copy.c    copyin copyinstr copyinto stringof alloca bcopy
 *   dfunc_inet.c    inet_ntop inet_ntoa inet_ntoa6
 *   dfunc_mem.c     tracemem copyout copyoutstr
 *   dfunc_destr.c   raise stop system (need -w)
 *   dfunc_trace.c   trace exit(N)
 *   dfunc_chill.c   chill (needs -w)
 *   dfunc_spec.c    speculation speculate commit discard
 *   dfunc_num.c     strtoll getmajor getminor
 *   dfunc_psargs.c  __psargs (psinfo_t's pr_psargs)
 *   dfunc_xlate.c   xlate __xlate_struct
 *   dfunc_sym.c     sym func mod usym ufunc umod uaddr (type rules only)
 *
 * Strings are fixed-size buffers in the per-CPU scratch map (types.h);
 * every loop here is bounded by a buffer size, and indices that flow from
 * one loop into the next go through a scratch slot so that the verifier
 * forgets their exact value (paths then prune instead of multiplying). */
#pragma once
#include "../compile/sema.h"

struct Gen;

/* type rules (sema): dfunc_string.c, dfunc_search.c */
bool dcheck_strlen(Sema *s, Expr *c);
bool dcheck_strjoin(Sema *s, Expr *c);
bool dcheck_substr(Sema *s, Expr *c);
bool dcheck_index(Sema *s, Expr *c);
bool dcheck_strstr(Sema *s, Expr *c);
bool dcheck_strchr(Sema *s, Expr *c);
bool dcheck_str1(Sema *s, Expr *c); /* basename dirname toupper tolower */
bool dcheck_strtok(Sema *s, Expr *c);
bool dcheck_lltostr(Sema *s, Expr *c);

/* dfunc_misc.c */
bool dcheck_byteorder(Sema *s, Expr *c); /* htons.. ntohll: the width of the name */
bool dcheck_rand(Sema *s, Expr *c);
bool dcheck_progenyof(Sema *s, Expr *c);
/* dfunc_destr.c: raise stop system; refused without -w */
#define D_DESTRUCTIVE_MSG "could not enable tracing: Destructive actions not allowed"
bool dsema_destructive(Sema *s, Expr *c);
bool dcheck_raise(Sema *s, Expr *c);
bool dcheck_stop(Sema *s, Expr *c);

/* dfunc_spec.c: speculation() speculate() commit() discard() */
bool dcheck_speculation(Sema *s, Expr *c);
bool dcheck_speculate(Sema *s, Expr *c);
bool dcheck_commit(Sema *s, Expr *c); /* and discard */
/* DTrace's rules on what may follow speculate()/commit() in a clause */
bool dsema_action_order(Sema *s, Expr *c, const FuncDef *f);
int dspec_nspec(const Options *o);
/* after speculate(): tag the record at rec_off for its buffer; returns the
 * label to place after the send (jumped to when nothing is recorded) */
int dspec_tag_record(struct Gen *g, int rec_off, int size);

/* dfunc_copy.c: copyin copyinstr copyinto stringof alloca bcopy, and the
 * clause's scratch memory (-x scratchsize) */
bool dcheck_copyin(Sema *s, Expr *c);
bool dcheck_copyinstr(Sema *s, Expr *c);
bool dcheck_copyinto(Sema *s, Expr *c);
bool dcheck_stringof(Sema *s, Expr *c);
bool dcheck_alloca(Sema *s, Expr *c);
bool dcheck_bcopy(Sema *s, Expr *c);
int dcopy_scratchsize(const Options *o);
void dcopy_clause_start(struct Gen *g); /* reserve the clause's scratch memory */
/* r0 = a map pointer to the `size` bytes at the address in scratch slot
 * addr_slot (the slot after it is spare), which must lie in the scratch
 * memory the clause has allocated: else DTrace's invalid address fault */
void dcopy_store_ptr(struct Gen *g, int addr_slot, int size);
/* -x NAME=N[k|m|g] (or #pragma D option), else dflt (dfunc_spec.c) */
int64_t d_size_opt(const Options *o, const char *name, int64_t dflt);

/* dfunc_inet.c: inet_ntop inet_ntoa inet_ntoa6 (TY_INET values) */
bool dcheck_inet_ntop(Sema *s, Expr *c);
bool dcheck_inet_ntoa(Sema *s, Expr *c);
bool dcheck_inet_ntoa6(Sema *s, Expr *c);

/* dfunc_mem.c: tracemem (EV_D_TRACEMEM), copyout copyoutstr (need -w) */
void dsema_trace_string(Sema *s, Expr *c); /* trace(STRING) as a tracemem of the string */
bool dcheck_tracemem(Sema *s, Expr *c);
bool dcheck_trace_record(Sema *s, Expr *c); /* trace(a struct), made so by trace's check */
bool dcheck_copyout(Sema *s, Expr *c);
bool dcheck_copyoutstr(Sema *s, Expr *c);
/* dfunc_xlate.c: __xlate_struct(...), a whole translated struct (D front end) */
bool dcheck_xlate_struct(Sema *s, Expr *c);

/* dfunc_sym.c: sym func mod usym ufunc umod uaddr (TY_KSYM/TY_USYM with dsym) */
bool dcheck_sym(Sema *s, Expr *c);
/* dfunc_num.c: strtoll getmajor getminor */
bool dcheck_strtoll(Sema *s, Expr *c);
bool dcheck_devpart(Sema *s, Expr *c);

/* dfunc_chill.c: chill(ns) (needs -w) */
bool dcheck_chill(Sema *s, Expr *c);

/* dfunc_psargs.c: __psargs(arg_start, arg_end), psinfo_t's pr_psargs */
#define D_PRARGSZ 80 /* DTrace's PRARGSZ: pr_psargs holds 79 bytes and a NUL */
bool dcheck_psargs(Sema *s, Expr *c);

/* dfunc_proto.c: D's argument checks, with its messages ("f( ) argument
 * #N is incompatible with prototype") */
bool dsema_arg_str(Sema *s, Expr *call, int i);
bool dsema_arg_str_as(Sema *s, Expr *call, int i, const char *proto);
/* argument #i+1 is not of type proto: the message */
bool dsema_proto_error(Sema *s, Expr *call, int i, const char *proto);
bool dsema_arg_int(Sema *s, Expr *call, int i, const char *proto);
bool dsema_args_str(Sema *s, Expr *call, int n); /* arguments 0..n-1 are strings */
Type *dsema_string(Sema *s);                      /* a string of -x strsize bytes */

/* dfunc_loop.c: the loop pieces the string subroutines share */
int d_slot(struct Gen *g);                         /* an 8-byte scratch temporary */
void d_ld_slot(struct Gen *g, int reg, int slot);  /* reg = slot */
void d_st_slot(struct Gen *g, int slot, int reg);  /* slot = reg */
void d_set_slot(struct Gen *g, int slot, int32_t imm); /* slot = imm */
int d_int_arg_slot(struct Gen *g, const Expr *a);  /* an integer argument into a new slot */
/* dst = byte at scratch[off + idx] (idx bounded by the caller) */
void d_ld_byte(struct Gen *g, int dst, int idx, int off);
/* scratch[off + idx] = src, through tmp */
void d_st_byte(struct Gen *g, int idx, int off, int src, int tmp);
/* a string argument's bytes in scratch (a pointer read as a string of
 * strsize bytes); *size = how many */
int d_str_arg(struct Gen *g, const Expr *a, int *size);
void d_strlen(struct Gen *g, int off, int size, int reg); /* reg = length (r1-r3 used) */
/* dst[0..] = src[start .. start+count), stopping at a NUL, at most out-1
 * bytes; start and count are read from scratch slots (signed; count <= 0:
 * nothing).  dst must be zeroed already. */
void d_copy_range(struct Gen *g, int src_off, int src_size, int start_slot, int count_slot,
		  int dst_off, int out);
