/* Kernel functions for kprobes: what can be probed, and why not.
 *
 * available_filter_functions (~50k lines) is read once (or its copy from an
 * earlier run in this boot, kcache.c) and kept in file
 * order (for -l and wildcards, whose matches need no lookup).  Functions
 * named one by one are scanned for, then, past a few, looked up in an index
 * by name (a scan each made hundreds of lookups quadratic: seconds of
 * start-up under emulation). */
#include "kfuncs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../probes/tracefs.h"
#include "../util/phase_time.h"
#include "../util/util.h"
#include "kcache.h"
#include "ksyms.h"

static KFunc *funcs;
static int nfuncs;
static bool funcs_loaded;

/* "name" or "name [module]" per line; names point into the kept buffer */
static void load_traceable(void)
{
	funcs_loaded = true;
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
	funcs = v.v;
	nfuncs = v.n;
	phase_time("split available_filter_functions");
}

const KFunc *kfuncs_traceable(int *n)
{
	if (!funcs_loaded)
		load_traceable();
	*n = nfuncs;
	return funcs;
}

/* Names sorted: each entry points at a name pointer (a KFunc's name, or a
 * blacklisted name), so the entry also leads back to its KFunc. */
typedef const char *const *NameRef;
typedef struct NameIndex {
	NameRef *v;
	int n;
} NameIndex;

static int cmp_name(const void *a, const void *b)
{
	return strcmp(**(const NameRef *)a, **(const NameRef *)b);
}

static void index_sort(NameIndex *ix)
{
	if (ix->n > 1)
		qsort(ix->v, (size_t)ix->n, sizeof(*ix->v), cmp_name);
}

/* The position of the first entry named name, -1 if none. */
static int index_find(const NameIndex *ix, const char *name)
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

static bool traceable_matches(const KFunc *k, const char *module, const char *func)
{
	return !strcmp(k->name, func) && (!module || (k->module && !strcmp(k->module, module)));
}

/* The first entry named func (in module, unless module is NULL), in file
 * order.  The first lookups scan the list (a script names a few functions);
 * sorting all ~50k names costs as much as ~16 scans (0.2 s under emulation),
 * so only a script with more gets the index. */
enum { SCANS_BEFORE_INDEX = 16 };

static const KFunc *find_traceable(const char *module, const char *func)
{
	static NameIndex ix;
	static bool built;
	static int scans;
	int n;
	const KFunc *f = kfuncs_traceable(&n);
	if (!built && scans++ < SCANS_BEFORE_INDEX) {
		for (int i = 0; i < n; i++)
			if (traceable_matches(&f[i], module, func))
				return &f[i];
		return NULL;
	}
	if (!built) {
		built = true;
		ix.v = xcalloc((size_t)(n ? n : 1), sizeof(*ix.v));
		for (int i = 0; i < n; i++)
			ix.v[ix.n++] = &f[i].name;
		index_sort(&ix);
		phase_time("indexed available_filter_functions");
	}
	const KFunc *best = NULL;
	for (int i = index_find(&ix, func); i >= 0 && i < ix.n; i++) {
		const KFunc *k = (const KFunc *)ix.v[i]; /* name is its first member */
		if (strcmp(k->name, func))
			break;
		if (traceable_matches(k, module, func) && (!best || k < best))
			best = k;
	}
	return best;
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
static bool blacklisted(const char *func)
{
	static NameIndex ix;
	static const char **names;
	static bool loaded;
	if (!loaded) {
		loaded = true;
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
		names = v.v;
		ix.v = xcalloc((size_t)(v.n ? v.n : 1), sizeof(*ix.v));
		for (int i = 0; i < v.n; i++)
			ix.v[ix.n++] = &names[i];
		index_sort(&ix);
		phase_time("read and indexed the kprobe blacklist");
	}
	return index_find(&ix, func) >= 0;
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

static const char *why_not_traceable(const char *module, const char *func, char *buf, size_t n)
{
	const KFunc *elsewhere = module ? find_traceable(NULL, func) : NULL;
	if (elsewhere)
		snprintf(buf, n, "%s is not in module %s (it is in %s)", func, module,
			 elsewhere->module ? elsewhere->module : "vmlinux");
	else if (ksym_addr(func))
		snprintf(buf, n, "%s cannot be traced: it is not in available_filter_functions "
			 "(the kernel marks it notrace, or ftrace cannot patch it)", func);
	else
		snprintf(buf, n, "no function %s in this kernel%s%s: it does not exist or the compiler "
			 "inlined it", func, module ? " or module " : "", module ? module : "");
	return buf;
}

const char *kfunc_why_not_listed(const char *func, bool ret, char *buf, size_t n)
{
	if (ret && kretprobe_banned(func)) {
		snprintf(buf, n, "kretprobe:%s can't be used as it might lock up your system.", func);
		return buf;
	}
	if (blacklisted(func)) {
		snprintf(buf, n, "%s is on the kernel's kprobe blacklist "
			 "(/sys/kernel/debug/kprobes/blacklist): a probe there could crash the kernel", func);
		return buf;
	}
	return NULL;
}

const char *kfunc_why_not(const char *module, const char *func, bool ret, bool at_offset,
			  char *buf, size_t n)
{
	if (module && !kmodule_loaded(module)) {
		snprintf(buf, n, "module %s is not loaded (lsmod lists those that are)", module);
		return buf;
	}
	if (kfunc_why_not_listed(func, ret, buf, n))
		return buf;
	if (at_offset) {
		if (ksym_addr(func))
			return NULL;
		snprintf(buf, n, "no function %s in this kernel: it does not exist or the compiler "
			 "inlined it", func);
		return buf;
	}
	return find_traceable(module, func) ? NULL : why_not_traceable(module, func, buf, n);
}

typedef struct NamedAddr {
	const char *name;
	uint64_t addr;
} NamedAddr;

static int cmp_named_addr(const void *a, const void *b)
{
	return strcmp(((const NamedAddr *)a)->name, ((const NamedAddr *)b)->name);
}

/* "ADDR t NAME" (kallsyms' format) for each traceable vmlinux function
 * that exactly one function in kallsyms is named after, sorted by name:
 * a run looks its few names up by binary search (a pass hashing all ~50k
 * lines cost ~70 ms of emulated time at every run; the sort, once per
 * boot, ~0.2 s) */
static char *unique_addrs_text(void *arg, size_t *len)
{
	(void)arg;
	int n, m = 0;
	const KFunc *f = kfuncs_traceable(&n);
	const char **names = xcalloc((size_t)n + 1, sizeof(*names));
	for (int i = 0; i < n; i++)
		if (!f[i].module)
			names[m++] = f[i].name;
	uint64_t *addrs = xcalloc((size_t)m + 1, sizeof(*addrs));
	ksym_unique_addrs(names, m, addrs);
	NamedAddr *v = xcalloc((size_t)m + 1, sizeof(*v));
	int k = 0;
	for (int i = 0; i < m; i++)
		if (addrs[i])
			v[k++] = (NamedAddr){names[i], addrs[i]};
	qsort(v, (size_t)k, sizeof(*v), cmp_named_addr);
	StrBuf b = {0};
	sb_putn(&b, "", 0);
	for (int i = 0; i < k; i++) {
		/* by hand: ~50k printf calls cost a tenth of a second emulated */
		char hex[17];
		int h = 16;
		hex[16] = 0;
		for (uint64_t a = v[i].addr; a; a >>= 4)
			hex[--h] = "0123456789abcdef"[a & 15];
		sb_putn(&b, hex + h, (size_t)(16 - h));
		sb_putn(&b, " t ", 3);
		sb_putn(&b, v[i].name, strlen(v[i].name));
		sb_putn(&b, "\n", 1);
	}
	free(v);
	free(addrs);
	free(names);
	*len = b.len;
	return b.s;
}

/* strcmp of the NAME of the extract's line at p (ends at '\n') with name */
static int line_name_cmp(const char *p, const char *end, const char *name)
{
	const char *sp = memchr(p, ' ', (size_t)(end - p));
	const unsigned char *a = (const unsigned char *)(sp ? sp + 3 : end);
	const unsigned char *z = (const unsigned char *)name;
	for (; (const char *)a < end && *a != '\n' && *a == *z; a++, z++)
		;
	int ca = (const char *)a < end && *a != '\n' ? *a : 0;
	return ca - *z;
}

/* The address on the extract's line named name (binary search over its
 * bytes, each probe moved to the start of its line), 0 if none */
static uint64_t extract_find(const char *text, size_t len, const char *name)
{
	size_t lo = 0, hi = len; /* both at line starts */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *nl = mid > lo ? memrchr(text + lo, '\n', mid - lo) : NULL;
		size_t start = nl ? (size_t)(nl - text) + 1 : lo;
		const char *e = memchr(text + start, '\n', len - start);
		size_t end = e ? (size_t)(e - text) + 1 : len;
		int c = line_name_cmp(text + start, text + end, name);
		if (!c) {
			uint64_t a = 0;
			for (const char *p = text + start; p < text + end && *p != ' '; p++)
				a = a << 4 | (uint64_t)(*p <= '9' ? *p - '0' : *p - 'a' + 10);
			return a;
		}
		if (c < 0)
			lo = end;
		else
			hi = start;
	}
	return 0;
}

void kfuncs_unique_addrs(const char *const *names, int n, uint64_t *addrs)
{
	static char *text;
	static size_t len;
	static bool loaded;
	if (!loaded) {
		loaded = true;
		text = kcache_get("kprobe_addresses_by_name", unique_addrs_text, NULL, &len);
	}
	for (int i = 0; i < n; i++)
		addrs[i] = text ? extract_find(text, len, names[i]) : 0;
}
