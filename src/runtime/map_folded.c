/* -f folded: maps keyed by stacks as folded stacks, the input format of
 * flame graph tools ("outer;...;inner COUNT").  In a line, the key's other
 * elements come first (comm, pid: one frame each, in key order), then the
 * user stack and then the kernel stack, each outermost frame first;
 * kernel frames end in "_[k]" as stackcollapse-perf marks them.  Frames are
 * function names without offsets, so samples in one function merge (a
 * frame without a symbol is its module, "[libc.so.6]", or "[unknown]");
 * identical lines are merged.  A Python stack comes before the user
 * stack, and merges with it when the key holds both (put_native_inner). */
#include <stdlib.h>
#include <string.h>

#include "frontend_rt.h"
#include "output.h"
#include "stack_check.h"
#include "../util/bytes.h"

static bool is_stack(const Type *t)
{
	return t->kind == TY_KSTACK || t->kind == TY_USTACK || t->kind == TY_PYSTACK;
}

static bool key_has_stack(const Type *k)
{
	if (!k)
		return false;
	if (is_stack(k))
		return true;
	if (k->kind != TY_TUPLE)
		return false;
	for (int i = 0; i < k->nelem; i++)
		if (is_stack(k->elem[i]))
			return true;
	return false;
}

/* A frame's text may not hold ';' (the separator) nor a line break. */
static void put_folded_frame(StrBuf *sb, const char *s, size_t n)
{
	if (sb->len)
		sb_putc(sb, ';');
	for (size_t i = 0; i < n; i++)
		sb_putc(sb, s[i] == ';' ? ':' : (s[i] == '\n' || s[i] == '\r') ? ' ' : s[i]);
}

static void put_frame_at(StrBuf *sb, const OutCtx *o, const Type *t, const void *d, uint64_t ip)
{
	uint64_t off;
	const char *mod = NULL;
	const char *name = stack_frame_name_o(o, t, d, ip, &off, &mod);
	char unknown[256];
	if (!name) { /* as stackcollapse-perf: the module, so that they merge */
		const char *base = mod ? strrchr(mod, '/') : NULL;
		snprintf(unknown, sizeof(unknown), "[%s]", base ? base + 1 : "unknown");
		name = unknown;
	}
	put_folded_frame(sb, name, strlen(name));
	if (t->kind == TY_KSTACK)
		sb_puts(sb, "_[k]");
}

static void put_stack(StrBuf *sb, const OutCtx *o, const Type *t, const void *d)
{
	uint64_t ips[STACK_IPS_MAX];
	int n = stack_read(o, t, d, ips);
	for (int i = n - 1; i >= 0; i--)
		put_frame_at(sb, o, t, d, ips[i]);
}

/* The native frames a Python stack's innermost frame called: the user
 * stack's frames inner to its innermost eval-loop frame (which the Python
 * frames stand for), outermost first; all of them when there is no Python
 * frame.  Only frames whose return address follows a call count
 * (stack_check.c): "[...]" says that frames are missing above them, when
 * that check cut the walk or it did not reach the Python frames. */
static void put_native_inner(StrBuf *sb, const OutCtx *o, const Type *t, const void *d,
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
		put_folded_frame(sb, "[...]", 5);
	for (int i = (eval < 0 ? k : eval) - 1; i >= 0; i--)
		put_frame_at(sb, o, t, d, ips[i]);
}

/* Python frames, outermost first (a walk cut short starts at "[...]") */
static void put_pystack(StrBuf *sb, const OutCtx *o, const Type *t, const void *d)
{
	const PyStackPrinter *py = frontend_rt(o)->pystack;
	if (!py)
		return;
	uint64_t stop;
	char text[512];
	int n = py->nframes(t, d, &stop);
	if (stop)
		put_folded_frame(sb, "[...]", 5);
	for (int i = n - 1; i >= 0; i--) {
		py->frame(o->pycode_fd, d, i, true, text, sizeof(text));
		put_folded_frame(sb, text, strlen(text));
	}
}

/* A key holding a Python stack and a user stack folds them merged: the
 * Python frames, then the native ones they called. */
typedef struct Merge {
	const Type *u; /* the user stack element, NULL: not merged */
	const void *ud;
	bool py_frames; /* the Python stack has frames */
} Merge;

/* pass 0: the elements that are not stacks; 1: Python stacks; 2: user
 * stacks; 3: kernel */
static void put_elem(StrBuf *sb, const OutCtx *o, const Type *t, const void *d, int pass,
		     const Merge *mg)
{
	static const int kinds[] = {0, TY_PYSTACK, TY_USTACK, TY_KSTACK};
	int want = kinds[pass];
	if (t->kind == TY_PYSTACK) {
		if (pass == 1)
			put_pystack(sb, o, t, d);
		if (pass == 1 && mg->u)
			put_native_inner(sb, o, mg->u, mg->ud, frontend_rt(o)->pystack->eval_func,
					 mg->py_frames);
		return;
	}
	if (is_stack(t)) {
		if (pass && (int)t->kind == want && d != mg->ud)
			put_stack(sb, o, t, d);
		return;
	}
	if (pass)
		return;
	StrBuf v = {0};
	OutCtx text = *o;
	text.fmt = OUT_TEXT;
	value_format(&v, &text, t, d, true);
	put_folded_frame(sb, v.s ? v.s : "", v.len);
	sb_free(&v);
}

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

static void fold_key(StrBuf *sb, const OutCtx *o, const Type *k, const void *key)
{
	Merge mg = find_merge(o, k, key);
	for (int pass = 0; pass < 4; pass++) {
		if (k->kind != TY_TUPLE) {
			put_elem(sb, o, k, key, pass, &mg);
			continue;
		}
		for (int i = 0; i < k->nelem; i++)
			put_elem(sb, o, k->elem[i], (const char *)key + k->offset[i], pass, &mg);
	}
	if (!sb->len)
		sb_puts(sb, "[unknown]");
}

typedef struct Folded {
	char *stack;
	int64_t count;
} Folded;

static int cmp_folded(const void *a, const void *b)
{
	return strcmp(((const Folded *)a)->stack, ((const Folded *)b)->stack);
}

bool map_print_folded(const OutCtx *o, const MapDesc *m, const MapEntry *e, int n)
{
	TypeKind vk = m->val->kind;
	if (!key_has_stack(m->key) || (vk != TY_COUNT && vk != TY_SUM && vk != TY_INT))
		return false;
	Folded *f = xcalloc((size_t)n + 1, sizeof(*f));
	for (int i = 0; i < n; i++) {
		StrBuf sb = {0};
		fold_key(&sb, o, m->key, e[i].key);
		f[i].stack = sb.s;
		f[i].count = rd64(e[i].val);
	}
	qsort(f, (size_t)n, sizeof(*f), cmp_folded);
	StrBuf out = {0};
	for (int i = 0; i < n; i++) {
		int64_t total = f[i].count;
		while (i + 1 < n && !strcmp(f[i].stack, f[i + 1].stack))
			total += f[++i].count;
		sb_printf(&out, "%s %lld\n", f[i].stack, (long long)total);
	}
	fwrite(out.s, 1, out.len, o->f);
	sb_free(&out);
	for (int i = 0; i < n; i++)
		free(f[i].stack);
	free(f);
	return true;
}
