/* A map key's stacks as one list of frames, for the outputs that draw a
 * key as one stack (-f folded, -f pprof): a Python stack's frames, then
 * the native frames they called, merged where the key holds a Python and
 * a user stack; then the user stacks; then the kernel stacks.  Each
 * output names the frames its own way. */
#pragma once
#include "output.h"
#include "../util/util.h"

typedef enum {
	SF_NATIVE, /* a user or kernel stack's frame: t, d, ip */
	SF_PYTHON, /* frame py of the Python stack (t, d) */
	SF_GAP,    /* frames are missing here ("[...]") */
} StackFrameKind;

typedef struct MergedFrame {
	StackFrameKind kind;
	const Type *t; /* the stack value the frame is from */
	const void *d;
	uint64_t ip; /* SF_NATIVE */
	int py;      /* SF_PYTHON */
} MergedFrame;

typedef VEC(MergedFrame) MergedStack;

/* key k's stack frames, outermost first, appended to out.  A Python
 * stack's frames replace the native frames from the innermost eval-loop
 * frame (PyStackPrinter.eval_func) outwards, and only native frames whose
 * return address follows a call are kept (stack_check.c): without frame
 * pointers a frame-pointer walk is right at the sampled instruction and
 * wrong above it. */
void stack_merge(const OutCtx *o, const Type *k, const void *key, MergedStack *out);

bool stack_type_is(const Type *t); /* kstack, ustack or pystack */
