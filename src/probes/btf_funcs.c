/* Kernel functions from BTF: see btf_funcs.h.  The BTF itself is the one
 * the type layer opened (btf_kernel()), parsed once per run. */
#include "btf_funcs.h"

#include <bpf/btf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lang/ctypes.h"
#include "../util/util.h"
#include "tracefs.h"

/* Names in available_filter_functions (sorted), NULL when unreadable
 * (no tracefs, or locked down as on the development machine). */
static char **traceable;
static size_t ntraceable;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void read_traceable(void)
{
	static bool done;
	if (done)
		return;
	done = true;
	char path[512];
	snprintf(path, sizeof(path), "%s/available_filter_functions", tracefs_dir() ? tracefs_dir() : "");
	char *text = read_file_all(path, NULL);
	if (!text)
		return;
	size_t cap = 0;
	for (char *line = text, *next; *line; line = next) {
		next = strchrnul(line, '\n');
		if (*next)
			*next++ = 0;
		line[strcspn(line, " \t")] = 0;
		if (ntraceable == cap) {
			cap = cap ? cap * 2 : 4096;
			traceable = xrealloc(traceable, cap * sizeof(*traceable));
		}
		traceable[ntraceable++] = line;
	}
	qsort(traceable, ntraceable, sizeof(*traceable), cmp_str);
}

bool btf_funcs_traceable_known(void)
{
	read_traceable();
	return traceable != NULL;
}

static bool is_traceable(const char *name)
{
	read_traceable();
	return !traceable || bsearch(&name, traceable, ntraceable, sizeof(*traceable), cmp_str);
}

bool btf_funcs_foreach(const char *glob, void (*found)(const char *name, int id, void *arg),
		       void *arg)
{
	struct btf *b = btf_kernel();
	if (!b)
		return false;
	__u32 n = btf__type_cnt(b);
	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(b, id);
		if (!btf_is_func(t))
			continue;
		const char *name = btf__name_by_offset(b, t->name_off);
		if (glob_match(glob, name) && is_traceable(name))
			found(name, (int)id, arg);
	}
	return true;
}

int btf_func_id(const char *name)
{
	struct btf *b = btf_kernel();
	int id = b ? btf__find_by_name_kind(b, name, BTF_KIND_FUNC) : 0;
	return id > 0 ? id : 0;
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

const DwarfFunc *btf_func_params(int id, const char **ret)
{
	struct btf *b = btf_kernel();
	const struct btf_type *fn = b ? btf__type_by_id(b, (__u32)id) : NULL;
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
		f->params[i].type = btf_type_of_id((int)p[i].type);
		f->nparams++;
	}
	f->ret_type = proto->type ? btf_type_of_id((int)proto->type) : NULL;
	if (ret)
		*ret = proto->type ? type_spelling(b, proto->type) : "void";
	return f;
}
