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

/* The parameters of the FUNC_PROTO proto in b from the skip-th on */
static DwarfFunc *proto_params(struct btf *b, const struct btf_type *proto, int skip,
			       const char **ret)
{
	DwarfFunc *f = xcalloc(1, sizeof(*f));
	int n = btf_vlen(proto);
	const struct btf_param *p = btf_params(proto);
	f->params = xcalloc((size_t)(n ? n : 1), sizeof(*f->params));
	for (int i = skip; i < n; i++) {
		if (!p[i].type) /* "..." of a variadic function */
			break;
		f->params[f->nparams].name = xstrdup(btf__name_by_offset(b, p[i].name_off));
		f->params[f->nparams].ctype = type_spelling(b, p[i].type);
		f->params[f->nparams].btf_id = (int)p[i].type;
		f->nparams++;
	}
	f->btf = b;
	f->ret_btf_id = (int)proto->type;
	if (ret)
		*ret = proto->type ? type_spelling(b, proto->type) : "void";
	return f;
}

const DwarfFunc *btf_func_params(const BtfFunc *func, const char **ret)
{
	struct btf *b = func->btf;
	const struct btf_type *fn = btf__type_by_id(b, (__u32)func->id);
	const struct btf_type *proto = fn ? btf__type_by_id(b, fn->type) : NULL;
	if (!proto || !btf_is_func_proto(proto))
		return NULL;
	return proto_params(b, proto, 0, ret);
}

/* ---- raw tracepoints: btf_trace_NAME ---- */

#define RAWTP_PREFIX "btf_trace_"

/* the FUNC_PROTO a btf_trace_ typedef points to, NULL if it is not one */
static const struct btf_type *rawtp_proto(struct btf *b, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(b, id);
	if (!t || !btf_is_typedef(t))
		return NULL;
	const struct btf_type *ptr = btf__type_by_id(b, t->type);
	if (!ptr || !btf_is_ptr(ptr))
		return NULL;
	const struct btf_type *proto = btf__type_by_id(b, ptr->type);
	return proto && btf_is_func_proto(proto) && btf_vlen(proto) >= 1 ? proto : NULL;
}

static void rawtp_found(SymCtx *sc, struct btf *b, __u32 id, const char *glob,
			void (*found)(const BtfFunc *f, void *arg), void *arg)
{
	const char *name = btf__name_by_offset(b, btf__type_by_id(b, id)->name_off);
	if (strncmp(name, RAWTP_PREFIX, strlen(RAWTP_PREFIX)) || !rawtp_proto(b, id))
		return;
	BtfFunc f = {btf_module_name(sc, b), name + strlen(RAWTP_PREFIX), (int)id, b};
	if (glob_match(glob, f.name))
		found(&f, arg);
}

int btf_rawtp_foreach(SymCtx *sc, const char *module_glob, const char *glob,
		      void (*found)(const BtfFunc *f, void *arg), void *arg)
{
	struct btf *sp[64];
	int nsp = spaces_of(sc, module_glob, sp, 64), count = 0;
	for (int i = 0; i < nsp; i++) {
		if (!has_wildcard(glob)) {
			StrBuf name = {0};
			sb_printf(&name, RAWTP_PREFIX "%s", glob);
			int id = btf__find_by_name_kind(sp[i], name.s, BTF_KIND_TYPEDEF);
			free(name.s);
			if (id > 0 && (__u32)id >= first_own_id(sc, sp[i]) && rawtp_proto(sp[i], (__u32)id)) {
				rawtp_found(sc, sp[i], (__u32)id, glob, found, arg);
				count++;
			}
			continue;
		}
		__u32 n = btf__type_cnt(sp[i]);
		for (__u32 id = first_own_id(sc, sp[i]); id < n; id++)
			if (btf_is_typedef(btf__type_by_id(sp[i], id)))
				rawtp_found(sc, sp[i], id, glob, found, arg);
	}
	return count;
}

/* The typedef's prototype has no parameter names (pahole keeps them for
 * functions only): a function of the kernel with the same parameters has
 * them: the tracepoint's stub, __probestub_NAME (Linux 6.4+), else the
 * wrapper that runs its BPF programs, __bpf_trace_NAME (named for the
 * event's class, so only for a class of one event). */
static const struct btf_type *rawtp_named_proto(const BtfFunc *f, const struct btf_type *proto)
{
	static const char *const prefix[] = {"__probestub_", "__bpf_trace_"};
	for (int i = 0; i < 2; i++) {
		StrBuf name = {0};
		sb_printf(&name, "%s%s", prefix[i], f->name);
		int id = btf__find_by_name_kind(f->btf, name.s, BTF_KIND_FUNC);
		free(name.s);
		const struct btf_type *fn = id > 0 ? btf__type_by_id(f->btf, (__u32)id) : NULL;
		const struct btf_type *named = fn ? btf__type_by_id(f->btf, fn->type) : NULL;
		if (named && btf_is_func_proto(named) && btf_vlen(named) == btf_vlen(proto))
			return named;
	}
	return proto;
}

const DwarfFunc *btf_rawtp_params(const BtfFunc *f)
{
	const struct btf_type *proto = rawtp_proto(f->btf, (__u32)f->id);
	return proto ? proto_params(f->btf, rawtp_named_proto(f, proto), 1, NULL) : NULL;
}
