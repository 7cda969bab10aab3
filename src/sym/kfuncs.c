/* Kernel functions for kprobes: what can be probed, and why not.
 *
 * available_filter_functions (~50k lines) is read in file order for -l and
 * the other providers (or its copy from an earlier run in this boot,
 * kcache.c).  kprobes look functions up in an index made from it once per
 * boot and module set: every traceable function sorted by name, with its
 * address and whether it is on the kprobe blacklist.  A run maps the index
 * and binary-searches it for a name or the literal start of a wildcard
 * (tcp_*), touching a few pages: reading and splitting the whole listing,
 * matching every name against the wildcard, indexing the blacklist and
 * reading an extract of kallsyms for the addresses cost ~0.2 s of emulated
 * time at every run. */
#include "kfuncs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracefs.h"
#include "../util/phase_time.h"
#include "../util/strindex.h"
#include "../util/util.h"
#include "kcache.h"
#include "kindex.h"
#include "ksyms.h"
#include "symctx.h"

typedef struct NameIndex NameIndex;
/* what was read, in the run's SymCtx */
typedef struct KfuncsCache {
	KFunc *funcs; /* available_filter_functions */
	int nfuncs;
	bool funcs_loaded;
	char *funcs_text; /* the listing read: the names point into it */
	VEC(KFunc) distinct; /* kfuncs_distinct() */
	bool distinct_made;
	struct NameIndex *black; /* the kprobe blacklist, NULL until read */
	KIndex index; /* the kprobe index (kindex.c) */
	KcacheHold index_hold;
	bool index_loaded;
} KfuncsCache;

static void names_free(struct NameIndex *ix);

static void kfuncs_free(void *cache)
{
	KfuncsCache *c = cache;
	free(c->funcs);
	free(c->funcs_text);
	vec_free(&c->distinct);
	names_free(c->black);
	kcache_unmap(&c->index_hold);
	free(c);
}

/* "name" or "name [module]" per line; names point into the kept buffer */
static void load_traceable(KfuncsCache *c)
{
	c->funcs_loaded = true;
	const char *dir = tracefs_dir();
	if (!dir)
		return;
	char path[512];
	snprintf(path, sizeof(path), "%s/available_filter_functions", dir);
	char *text = kcache_read("available_filter_functions", path, NULL);
	phase_time("read available_filter_functions");
	if (!text)
		return;
	VEC(KFunc) v = {0};
	for (char *line = text, *next; *line; line = next) {
		next = strchrnul(line, '\n');
		if (*next)
			*next++ = 0;
		char *sp = strchr(line, ' ');
		KFunc f = {line, NULL};
		if (sp) {
			*sp = 0;
			char *m = strchr(sp + 1, '[');
			if (m) {
				f.module = m + 1;
				m[1 + strcspn(m + 1, "]")] = 0;
			}
		}
		if (*line)
			vec_push(&v, f);
	}
	c->funcs = v.v;
	c->nfuncs = v.n;
	c->funcs_text = text;
	phase_time("split available_filter_functions");
}

const KFunc *kfuncs_traceable(SymCtx *sc, int *n)
{
	KfuncsCache *c = SYM_CACHE(sc, kfuncs, kfuncs_free);
	if (!c->funcs_loaded)
		load_traceable(c);
	*n = c->nfuncs;
	return c->funcs;
}

/* the traceable functions once each (a name can be listed more than once,
 * for static functions sharing it), without the compiler's .part/.cold
 * pieces: made once, for fbt's probe list */
static void make_distinct(SymCtx *sc, KfuncsCache *c)
{
	c->distinct_made = true;
	int n;
	const KFunc *f = kfuncs_traceable(sc, &n);
	StrIndex seen = {0};
	VEC(char *) keys = {0}; /* "MODULE:FUNC" of modules' functions */
	for (int i = 0; i < n; i++) {
		if (strchr(f[i].name, '.'))
			continue;
		const char *key = f[i].name;
		if (f[i].module) {
			StrBuf b = {0};
			sb_printf(&b, "%s:%s", f[i].module, f[i].name);
			vec_push(&keys, b.s);
			key = b.s;
		}
		if (str_index_find(&seen, key))
			continue;
		str_index_put(&seen, key, 1);
		vec_push(&c->distinct, f[i]);
	}
	str_index_free(&seen);
	for (int i = 0; i < keys.n; i++)
		free(keys.v[i]);
	vec_free(&keys);
}

const KFunc *kfuncs_distinct(SymCtx *sc, int *n)
{
	KfuncsCache *c = SYM_CACHE(sc, kfuncs, kfuncs_free);
	if (!c->distinct_made)
		make_distinct(sc, c);
	*n = c->distinct.n;
	return c->distinct.v;
}

/* Names sorted: each entry points at a name pointer (a KFunc's name, or a
 * blacklisted name), so the entry also leads back to its KFunc. */
typedef const char *const *NameRef;
struct NameIndex {
	NameRef *v;
	int n;
	const char **names; /* the blacklist's, pointing into text */
	char *text;
};

static void names_free(NameIndex *ix)
{
	if (!ix)
		return;
	free(ix->v);
	free(ix->names);
	free(ix->text);
	free(ix);
}

static int cmp_name_ref(const void *a, const void *b)
{
	return strcmp(**(const NameRef *)a, **(const NameRef *)b);
}

static void index_sort(NameIndex *ix)
{
	if (ix->n > 1)
		qsort(ix->v, (size_t)ix->n, sizeof(*ix->v), cmp_name_ref);
}

/* The position of the first entry named name, -1 if none. */
static int names_find(const NameIndex *ix, const char *name)
{
	int lo = 0, hi = ix->n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (strcmp(*ix->v[mid], name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ix->n && !strcmp(*ix->v[lo], name) ? lo : -1;
}

bool kmodule_loaded(const char *module)
{
	char *text = read_file_all("/proc/modules", NULL);
	bool found = false;
	size_t len = strlen(module);
	for (char *l = text; l && *l && !found; l = strchrnul(l, '\n'), l += *l == '\n')
		found = !strncmp(l, module, len) && l[len] == ' ';
	free(text);
	return found;
}

/* debugfs kprobes/blacklist: "0xSTART-0xEND\tNAME" per line, indexed by name */
static NameIndex *read_blacklist(void)
{
	char *text = kcache_read("kprobe_blacklist", "/sys/kernel/debug/kprobes/blacklist", NULL);
	VEC(const char *) v = {0};
	for (char *l = text, *next; l && *l; l = next) {
		next = strchrnul(l, '\n');
		if (*next)
			*next++ = 0;
		char *name = strchr(l, '\t');
		if (name)
			vec_push(&v, name + 1);
	}
	const char **names = v.v;
	NameIndex *ix = xcalloc(1, sizeof(*ix));
	ix->v = xcalloc((size_t)(v.n ? v.n : 1), sizeof(*ix->v));
	for (int i = 0; i < v.n; i++)
		ix->v[ix->n++] = &names[i];
	ix->names = names;
	ix->text = text;
	index_sort(ix);
	phase_time("read and indexed the kprobe blacklist");
	return ix;
}

static bool blacklisted(SymCtx *sc, const char *func)
{
	KfuncsCache *c = SYM_CACHE(sc, kfuncs, kfuncs_free);
	if (!c->black)
		c->black = read_blacklist();
	return names_find(c->black, func) >= 0;
}

/* ---- the kprobe index (kindex.c), made once per boot and module set ---- */
static char *index_make(void *arg, size_t *len)
{
	SymCtx *sc = arg;
	int n, m = 0;
	const KFunc *f = kfuncs_traceable(sc, &n);
	KIndexRow *rows = xcalloc((size_t)n + 1, sizeof(*rows));
	const char **names = xcalloc((size_t)n + 1, sizeof(*names));
	for (int i = 0; i < n; i++) {
		rows[i] = (KIndexRow){f[i].name, f[i].module, 0, blacklisted(sc, f[i].name)};
		if (!f[i].module)
			names[m++] = f[i].name;
	}
	uint64_t *addrs = xcalloc((size_t)m + 1, sizeof(*addrs));
	ksym_unique_addrs(names, m, addrs);
	for (int i = 0, j = 0; i < n; i++)
		if (!f[i].module)
			rows[i].addr = addrs[j++];
	char *text = kindex_make(rows, n, len);
	free(addrs);
	free(names);
	free(rows);
	return text;
}

static KIndex index_get(SymCtx *sc)
{
	KfuncsCache *c = SYM_CACHE(sc, kfuncs, kfuncs_free);
	if (!c->index_loaded) {
		c->index_loaded = true;
		c->index.text = kcache_map("kprobe_index", index_make, sc, &c->index.len, &c->index_hold);
		if (!c->index.text)
			c->index.len = 0;
		phase_time("kprobe index ready");
	}
	return c->index;
}

static bool find_traceable(SymCtx *sc, const char *module, const char *func, KIndexLine *l)
{
	return kindex_find(index_get(sc), func, kindex_line_in, module, l);
}

int kfuncs_match(SymCtx *sc, const char *module, const char *glob, KIndexMatch **out)
{
	return kindex_match(index_get(sc), module, glob, out);
}

/* bpftrace's list: not notrace, yet a kretprobe on them can hang the machine */
static bool kretprobe_banned(const char *func)
{
	static const char *const banned[] = {"_raw_spin_lock", "_raw_spin_lock_irqsave",
					     "_raw_spin_unlock_irqrestore",
					     "queued_spin_lock_slowpath", NULL};
	for (int i = 0; banned[i]; i++)
		if (!strcmp(banned[i], func))
			return true;
	return false;
}

static const char *why_not_traceable(SymCtx *sc, const char *module, const char *func, char *buf, size_t n)
{
	KIndexLine l;
	if (module && find_traceable(sc, NULL, func, &l))
		snprintf(buf, n, "%s is not in module %s (it is in %.*s)", func, module,
			 l.module ? (int)l.module_len : 7, l.module ? l.module : "vmlinux");
	else if (ksym_addr(sc, func))
		snprintf(buf, n, "%s cannot be traced: it is not in available_filter_functions "
			 "(the kernel marks it notrace, or ftrace cannot patch it)", func);
	else
		snprintf(buf, n, "no function %s in this kernel%s%s: it does not exist or the compiler "
			 "inlined it", func, module ? " or module " : "", module ? module : "");
	return buf;
}

static const char *why_not_listed(const char *func, bool black, bool ret, char *buf, size_t n)
{
	if (ret && kretprobe_banned(func)) {
		snprintf(buf, n, "kretprobe:%s can't be used as it might lock up your system.", func);
		return buf;
	}
	if (black) {
		snprintf(buf, n, "%s is on the kernel's kprobe blacklist "
			 "(/sys/kernel/debug/kprobes/blacklist): a probe there could crash the kernel", func);
		return buf;
	}
	return NULL;
}

const char *kfunc_why_not_matched(const KIndexMatch *m, bool ret, char *buf, size_t n)
{
	return why_not_listed(m->name, m->black, ret, buf, n);
}

const char *kfunc_why_not(SymCtx *sc, const char *module, const char *func, bool ret, bool at_offset,
			  char *buf, size_t n)
{
	if (module && !kmodule_loaded(module)) {
		snprintf(buf, n, "module %s is not loaded (lsmod lists those that are)", module);
		return buf;
	}
	/* a traceable function's index line says; else (FUNC+OFFSET) the list */
	KIndexLine l;
	if (why_not_listed(func, find_traceable(sc, NULL, func, &l) ? l.black : blacklisted(sc, func), ret, buf, n))
		return buf;
	if (at_offset) {
		if (ksym_addr(sc, func))
			return NULL;
		snprintf(buf, n, "no function %s in this kernel: it does not exist or the compiler "
			 "inlined it", func);
		return buf;
	}
	return find_traceable(sc, module, func, &l) ? NULL : why_not_traceable(sc, module, func, buf, n);
}
