/* -f folded: maps keyed by stacks as folded stacks, the input format of
 * flame graph tools ("outer;...;inner COUNT").  In a line, the key's other
 * elements come first (comm, pid: one frame each, in key order), then the
 * user stack and then the kernel stack, each outermost frame first;
 * kernel frames end in "_[k]" as stackcollapse-perf marks them.  Frames are
 * function names without offsets, so samples in one function merge (a
 * frame without a symbol is its module, "[libc.so.6]", or "[unknown]");
 * identical lines are merged. */
#include <stdlib.h>
#include <string.h>

#include "frontend_rt.h"
#include "output.h"
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

static void put_stack(StrBuf *sb, const OutCtx *o, const Type *t, const void *d)
{
	uint64_t ips[STACK_IPS_MAX];
	int n = stack_read(o, t, d, ips);
	bool kernel = t->kind == TY_KSTACK;
	for (int i = n - 1; i >= 0; i--) {
		uint64_t off;
		const char *mod = NULL;
		const char *name = stack_frame_name_o(o, t, d, ips[i], &off, &mod);
		char unknown[256];
		if (!name) { /* as stackcollapse-perf: the module, so that they merge */
			const char *base = mod ? strrchr(mod, '/') : NULL;
			snprintf(unknown, sizeof(unknown), "[%s]", base ? base + 1 : "unknown");
			name = unknown;
		}
		put_folded_frame(sb, name, strlen(name));
		if (kernel)
			sb_puts(sb, "_[k]");
	}
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

/* pass 0: the elements that are not stacks; 1: Python stacks; 2: user
 * stacks; 3: kernel */
static void put_elem(StrBuf *sb, const OutCtx *o, const Type *t, const void *d, int pass)
{
	static const int kinds[] = {0, TY_PYSTACK, TY_USTACK, TY_KSTACK};
	int want = kinds[pass];
	if (t->kind == TY_PYSTACK) {
		if (pass == 1)
			put_pystack(sb, o, t, d);
		return;
	}
	if (is_stack(t)) {
		if (pass && (int)t->kind == want)
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

static void fold_key(StrBuf *sb, const OutCtx *o, const Type *k, const void *key)
{
	for (int pass = 0; pass < 4; pass++) {
		if (k->kind != TY_TUPLE) {
			put_elem(sb, o, k, key, pass);
			continue;
		}
		for (int i = 0; i < k->nelem; i++)
			put_elem(sb, o, k->elem[i], (const char *)key + k->offset[i], pass);
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
