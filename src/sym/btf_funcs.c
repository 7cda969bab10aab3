/* Kernel functions from BTF: see btf_funcs.h.  The BTF itself is opened
 * once per run by btf_load.c (btf_kernel(), btf_module()). */
#include "btf_funcs.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "btf_load.h"
#include "kfuncs.h"
#include "../util/sort.h"
#include "../util/util.h"
#include "symctx.h"
#include "tracefs.h"

/* what was read, in the run's SymCtx */
typedef struct BtfFuncsCache {
	/* Names in available_filter_functions (sorted), NULL when unreadable
	 * (no tracefs, or locked down as on the development machine). */
	char **traceable;
	size_t ntraceable;
	bool traceable_read;
	struct { /* btf_obj_fd()'s answers */
		const struct btf *b;
		int fd;
	} fds[64];
	int nfds;
} BtfFuncsCache;

static void btf_funcs_free(void *cache)
{
	BtfFuncsCache *c = cache;
	free(c->traceable); /* the names are kfuncs.c's */
	for (int i = 0; i < c->nfds; i++)
		close(c->fds[i].fd);
	free(c);
}

static BtfFuncsCache *read_traceable(SymCtx *sc)
{
	BtfFuncsCache *c = SYM_CACHE(sc, btf_funcs, btf_funcs_free);
	if (c->traceable_read)
		return c;
	c->traceable_read = true;
	int n;
	const KFunc *f = kfuncs_traceable(sc, &n);
	if (!f)
		return c;
	c->traceable = xcalloc((size_t)n + 1, sizeof(*c->traceable));
	for (int i = 0; i < n; i++)
		c->traceable[c->ntraceable++] = (char *)f[i].name;
	qsort(c->traceable, c->ntraceable, sizeof(*c->traceable), cmp_str);
	return c;
}

bool btf_funcs_traceable_known(SymCtx *sc)
{
	return read_traceable(sc)->traceable != NULL;
}

static bool is_traceable(SymCtx *sc, const char *name)
{
	BtfFuncsCache *c = read_traceable(sc);
	return !c->traceable ||
	       bsearch(&name, c->traceable, c->ntraceable, sizeof(*c->traceable), cmp_str);
}

/* The spaces a module glob names: vmlinux, then the modules with BTF. */
static int spaces_of(SymCtx *sc, const char *module_glob, struct btf **out, int max)
{
	int n = 0, nmod;
	if (glob_match(module_glob, "vmlinux") && btf_kernel(sc))
		out[n++] = btf_kernel(sc);
	char **mods = btf_kernel(sc) ? btf_module_names(sc, &nmod) : NULL;
	for (int i = 0; mods && i < nmod && n < max; i++) {
		struct btf *b = glob_match(module_glob, mods[i]) ? btf_module(sc, mods[i]) : NULL;
		if (b)
			out[n++] = b;
	}
	return n;
}

/* A module's own FUNCs start after vmlinux's types, which it shares. */
static __u32 first_own_id(SymCtx *sc, struct btf *b)
{
	return b == btf_kernel(sc) ? 1 : btf__type_cnt(btf_kernel(sc));
}

bool btf_funcs_foreach(SymCtx *sc, const char *module_glob, const char *glob,
		       void (*found)(const BtfFunc *f, void *arg), void *arg)
{
	struct btf *sp[64];
	int nsp = spaces_of(sc, module_glob, sp, 64);
	if (!btf_kernel(sc))
		return false;
	for (int i = 0; i < nsp; i++) {
		__u32 n = btf__type_cnt(sp[i]);
		for (__u32 id = first_own_id(sc, sp[i]); id < n; id++) {
			const struct btf_type *t = btf__type_by_id(sp[i], id);
			if (!btf_is_func(t))
				continue;
			BtfFunc f = {btf_module_name(sc, sp[i]), btf__name_by_offset(sp[i], t->name_off),
				     (int)id, sp[i]};
			if (glob_match(glob, f.name) && is_traceable(sc, f.name))
				found(&f, arg);
		}
	}
	return true;
}

int btf_funcs_find(SymCtx *sc, const char *module_glob, const char *name,
		   void (*found)(const BtfFunc *f, void *arg), void *arg)
{
	struct btf *sp[64];
	int nsp = spaces_of(sc, module_glob, sp, 64), count = 0;
	for (int i = 0; i < nsp; i++) {
		int id = btf__find_by_name_kind(sp[i], name, BTF_KIND_FUNC);
		if (id > 0 && (__u32)id >= first_own_id(sc, sp[i])) {
			BtfFunc f = {btf_module_name(sc, sp[i]), name, id, sp[i]};
			found(&f, arg);
			count++;
		}
	}
	return count;
}

int btf_func_id(SymCtx *sc, const char *name)
{
	struct btf *b = btf_kernel(sc);
	int id = b ? btf__find_by_name_kind(b, name, BTF_KIND_FUNC) : 0;
	return id > 0 ? id : 0;
}

int btf_obj_fd(SymCtx *sc, const struct btf *b)
{
	if (b == btf_kernel(sc))
		return 0;
	BtfFuncsCache *c = SYM_CACHE(sc, btf_funcs, btf_funcs_free);
	for (int i = 0; i < c->nfds; i++)
		if (c->fds[i].b == b)
			return c->fds[i].fd;
	const char *module = btf_module_name(sc, b);
	int fd = -1;
	for (__u32 id = 0; fd < 0 && !bpf_btf_get_next_id(id, &id);) {
		int f = bpf_btf_get_fd_by_id(id);
		if (f < 0)
			continue;
		char name[64] = "";
		struct bpf_btf_info info = {.name = (__u64)(uintptr_t)name, .name_len = sizeof(name)};
		__u32 len = sizeof(info);
		if (!bpf_obj_get_info_by_fd(f, &info, &len) && info.kernel_btf && !strcmp(name, module))
			fd = f;
		else
			close(f);
	}
	if (fd >= 0 && c->nfds < 64)
		c->fds[c->nfds++] = (typeof(c->fds[0])){b, fd};
	return fd;
}

static void dump_printf(void *ctx, const char *fmt, va_list ap)
{
	sb_vprintf(ctx, fmt, ap);
}

/* "struct file *", "const char *", "size_t": btf_dump's declaration of an
 * unnamed object of type id, as bpftrace prints parameters. */
static char *type_spelling(struct btf *b, __u32 id)
{
	StrBuf sb = {0};
	struct btf_dump *d = btf_dump__new(b, dump_printf, &sb, NULL);
	LIBBPF_OPTS(btf_dump_emit_type_decl_opts, o, .field_name = "");
	if (!d || btf_dump__emit_type_decl(d, id, &o) < 0)
		sb_puts(&sb, "?");
	btf_dump__free(d);
	return sb.s ? sb.s : xstrdup("");
}

const DwarfFunc *btf_func_params(const BtfFunc *func, const char **ret)
{
	struct btf *b = func->btf;
	const struct btf_type *fn = btf__type_by_id(b, (__u32)func->id);
	const struct btf_type *proto = fn ? btf__type_by_id(b, fn->type) : NULL;
	if (!proto || !btf_is_func_proto(proto))
		return NULL;
	DwarfFunc *f = xcalloc(1, sizeof(*f));
	int n = btf_vlen(proto);
	const struct btf_param *p = btf_params(proto);
	f->params = xcalloc((size_t)(n ? n : 1), sizeof(*f->params));
	for (int i = 0; i < n; i++) {
		if (!p[i].type) /* "..." of a variadic function */
			break;
		f->params[i].name = xstrdup(btf__name_by_offset(b, p[i].name_off));
		f->params[i].ctype = type_spelling(b, p[i].type);
		f->params[i].btf_id = (int)p[i].type;
		f->nparams++;
	}
	f->btf = b;
	f->ret_btf_id = (int)proto->type;
	if (ret)
		*ret = proto->type ? type_spelling(b, proto->type) : "void";
	return f;
}
