/* A map key's stacks as one list of frames (stack_merge.h). */
#include "stack_merge.h"

#include <string.h>

#include "frontend_rt.h"
#include "stack_check.h"
#include "../util/bytes.h"

bool stack_type_is(const Type *t)
{
	return t->kind == TY_KSTACK || t->kind == TY_USTACK || t->kind == TY_PYSTACK;
}

static void push_native(MergedStack *out, const Type *t, const void *d, uint64_t ip)
{
	MergedFrame f = {.kind = SF_NATIVE, .t = t, .d = d, .ip = ip};
	vec_push(out, f);
}

static void push_gap(MergedStack *out)
{
	MergedFrame f = {.kind = SF_GAP};
	vec_push(out, f);
}

static void push_native_stack(MergedStack *out, const OutCtx *o, const Type *t, const void *d)
{
	uint64_t ips[STACK_IPS_MAX];
	int n = stack_read(o, t, d, ips);
	for (int i = n - 1; i >= 0; i--)
		push_native(out, t, d, ips[i]);
}

/* The native frames a Python stack's innermost frame called: the user
 * stack's frames inner to its innermost eval-loop frame (which the Python
 * frames stand for), outermost first; all of them when there is no Python
 * frame.  A gap says that frames are missing above them, when the check
 * cut the walk or it did not reach the Python frames. */
static void add_native_inner(MergedStack *out, const OutCtx *o, const Type *t, const void *d,
			     const char *eval_func, bool py_frames)
{
	uint64_t ips[STACK_IPS_MAX];
	int n = stack_read(o, t, d, ips);
	int k = n > 0 ? ustack_trusted(o->sym, (int)rd64((const char *)d + 8), ips, n) : 0;
	int eval = -1;
	for (int i = 0; i < k && eval < 0 && !o->no_usyms; i++) {
		uint64_t off;
		const char *mod = NULL, *name = stack_frame_name_o(o, t, d, ips[i], &off, &mod);
		if (name && !strcmp(name, eval_func))
			eval = i;
	}
	if (eval < 0 && k > 0 && (k < n || py_frames))
		push_gap(out);
	for (int i = (eval < 0 ? k : eval) - 1; i >= 0; i--)
		push_native(out, t, d, ips[i]);
}

/* Python frames, outermost first (a walk cut short starts with a gap) */
static void add_pystack(MergedStack *out, const OutCtx *o, const Type *t, const void *d)
{
	const PyStackPrinter *py = frontend_rt(o)->pystack;
	uint64_t stop;
	int n = py ? py->nframes(t, d, &stop) : 0;
	if (py && stop)
		push_gap(out);
	for (int i = n - 1; i >= 0; i--) {
		MergedFrame f = {.kind = SF_PYTHON, .t = t, .d = d, .py = i};
		vec_push(out, f);
	}
}

/* the user stack merged with the key's Python stack, if both are there */
typedef struct Merge {
	const Type *u; /* the user stack element, NULL: not merged */
	const void *ud;
	bool py_frames; /* the Python stack has frames */
} Merge;

static Merge find_merge(const OutCtx *o, const Type *k, const void *key)
{
	Merge mg = {0};
	const PyStackPrinter *py = frontend_rt(o)->pystack;
	bool has_py = false;
	for (int i = 0; py && py->eval_func && k->kind == TY_TUPLE && i < k->nelem; i++) {
		const void *d = (const char *)key + k->offset[i];
		uint64_t stop;
		if (k->elem[i]->kind == TY_PYSTACK) {
			has_py = true;
			mg.py_frames |= py->nframes(k->elem[i], d, &stop) > 0;
		}
		if (k->elem[i]->kind == TY_USTACK && !mg.u) {
			mg.u = k->elem[i];
			mg.ud = d;
		}
	}
	return has_py ? mg : (Merge){0};
}

/* pass 0: Python stacks (and the user stack merged), 1: user, 2: kernel */
static void add_elem(MergedStack *out, const OutCtx *o, const Type *t, const void *d, int pass,
		     const Merge *mg)
{
	static const TypeKind kinds[] = {TY_PYSTACK, TY_USTACK, TY_KSTACK};
	if (t->kind != kinds[pass])
		return;
	if (t->kind == TY_PYSTACK) {
		add_pystack(out, o, t, d);
		if (mg->u)
			add_native_inner(out, o, mg->u, mg->ud, frontend_rt(o)->pystack->eval_func,
					 mg->py_frames);
	} else if (d != mg->ud)
		push_native_stack(out, o, t, d);
}

void stack_merge(const OutCtx *o, const Type *k, const void *key, MergedStack *out)
{
	Merge mg = find_merge(o, k, key);
	for (int pass = 0; pass < 3; pass++) {
		if (k->kind != TY_TUPLE) {
			add_elem(out, o, k, key, pass, &mg);
			continue;
		}
		for (int i = 0; i < k->nelem; i++)
			add_elem(out, o, k->elem[i], (const char *)key + k->offset[i], pass, &mg);
	}
}
