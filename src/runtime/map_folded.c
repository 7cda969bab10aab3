/* -f folded: maps keyed by stacks as folded stacks, the input format of
 * flame graph tools ("outer;...;inner COUNT").  In a line, the key's other
 * elements come first (comm, pid: one frame each, in key order), then the
 * user stack and then the kernel stack, each outermost frame first;
 * kernel frames end in "_[k]" as stackcollapse-perf marks them.  Frames are
 * function names without offsets, so samples in one function merge (a
 * frame without a symbol is its module, "[libc.so.6]", or "[unknown]");
 * identical lines are merged.  A Python stack comes before the user
 * stack, and merges with it when the key holds both (stack_merge.c). */
#include <stdlib.h>
#include <string.h>

#include "frontend_rt.h"
#include "output.h"
#include "stack_merge.h"
#include "../util/bytes.h"

static bool key_has_stack(const Type *k)
{
	if (!k)
		return false;
	if (stack_type_is(k))
		return true;
	if (k->kind != TY_TUPLE)
		return false;
	for (int i = 0; i < k->nelem; i++)
		if (stack_type_is(k->elem[i]))
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

/* the key's elements that are not stacks, one frame each, in key order */
static void put_others(StrBuf *sb, const OutCtx *o, const Type *k, const void *key)
{
	int n = k->kind == TY_TUPLE ? k->nelem : 1;
	for (int i = 0; i < n; i++) {
		const Type *t = k->kind == TY_TUPLE ? k->elem[i] : k;
		if (stack_type_is(t))
			continue;
		StrBuf v = {0};
		OutCtx text = *o;
		text.fmt = OUT_TEXT;
		value_format(&v, &text, t, (const char *)key + (k->kind == TY_TUPLE ? k->offset[i] : 0),
			     true);
		put_folded_frame(sb, v.s ? v.s : "", v.len);
		sb_free(&v);
	}
}

static void fold_key(StrBuf *sb, const OutCtx *o, const Type *k, const void *key)
{
	MergedStack st = {0};
	char text[512];
	put_others(sb, o, k, key);
	stack_merge(o, k, key, &st);
	for (int i = 0; i < st.n; i++) {
		const MergedFrame *f = &st.v[i];
		if (f->kind == SF_NATIVE)
			put_frame_at(sb, o, f->t, f->d, f->ip);
		else if (f->kind == SF_GAP)
			put_folded_frame(sb, "[...]", 5);
		else {
			frontend_rt(o)->pystack->frame(o->pycode_fd, f->d, f->py, true, text, sizeof(text));
			put_folded_frame(sb, text, strlen(text));
		}
	}
	vec_free(&st);
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
