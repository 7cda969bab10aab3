/* sonde probe -L: a function's or a file's source with the lines a probe can
 * be put on numbered, as perf probe prints it:
 *   FUNC[@SRC][:SLN[+NUM|-ELN]]   SRC[:SLN[+NUM|-ELN]] */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "../util/util.h"
#include "probe.h"

typedef struct LineRange {
	char *function, *file;
	int start, end; /* relative to offset for a function */
	int offset;     /* the function's declaration line */
	char *path;     /* the source file, as the line table names it */
	const char *comp_dir;
	VEC(int) lines; /* sorted, unique */
} LineRange;

typedef struct LineFinder {
	LineRange *lr;
	Dwarf_Die cu;
	const char *fname;
	int lno_s, lno_e;
	bool found;
	int ret;
} LineFinder;

static int parse_num(char **p, int *v, const char *what)
{
	char *s = *p;
	errno = 0;
	*v = (int)strtol(s, p, 0);
	if (errno || *p == s) {
		semantic_error("'%s' is not a valid number.\n", what);
		return -EINVAL;
	}
	return 0;
}

static bool is_c_name(const char *s)
{
	if (!*s || !(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		return false;
	for (s++; *s; s++)
		if (!(*s == '_' || *s == '.' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

static int parse_line_range(const char *arg, LineRange *lr)
{
	char *name = xstrdup(arg), *range = strchr(name, ':');
	lr->start = 0;
	lr->end = INT_MAX;
	if (range) {
		*range++ = '\0';
		if (parse_num(&range, &lr->start, "start line"))
			return -EINVAL;
		if (*range == '+' || *range == '-') {
			char c = *range++;
			if (parse_num(&range, &lr->end, "end line"))
				return -EINVAL;
			if (c == '+')
				lr->end += lr->start - 1; /* NUM lines from the start */
		}
		if (lr->start > lr->end) {
			semantic_error("Start line must be smaller than end line.\n");
			return -EINVAL;
		}
		if (*range) {
			semantic_error("Tailing with invalid str '%s'.\n", range);
			return -EINVAL;
		}
	}
	char *at = strchr(name, '@');
	if (at) {
		*at = '\0';
		lr->file = xstrdup(at + 1);
		lr->function = name;
	} else if (strchr(name, '/') || strchr(name, '.')) {
		lr->file = name;
	} else if (is_c_name(name)) {
		lr->function = name;
	} else {
		semantic_error("'%s' is not a valid function name.\n", name);
		return -EINVAL;
	}
	return 0;
}

static void add_line(LineRange *lr, const char *src, int line)
{
	int i = 0;
	if (!lr->path)
		lr->path = xstrdup(src);
	while (i < lr->lines.n && lr->lines.v[i] < line)
		i++;
	if (i < lr->lines.n && lr->lines.v[i] == line)
		return;
	vec_push(&lr->lines, 0);
	memmove(lr->lines.v + i + 1, lr->lines.v + i, sizeof(int) * (size_t)(lr->lines.n - 1 - i));
	lr->lines.v[i] = line;
}

static int range_walk_cb(const char *fname, int lineno, Dwarf_Addr addr, void *data)
{
	LineFinder *lf = data;
	const char *rf;
	int rl;
	if (strtailcmp(fname, lf->fname) || lineno < lf->lno_s || lineno > lf->lno_e)
		return 0;
	/* the line must be what its address reverses to.  (perf 6.1 reads an
	 * uninitialized line number when the address has no statement line,
	 * an inline call site: it lists such a line or not by chance; sonde
	 * lists it, a probe can go there) */
	if (dw_cu_lineinfo(&lf->cu, addr, &rf, &rl) > 0 && (lineno != rl || strcmp(fname, rf)))
		return 0;
	add_line(lf->lr, fname, lineno);
	return 0;
}

static int range_by_line(Dwarf_Die *root, LineFinder *lf)
{
	int r = dw_walk_lines(root ? root : &lf->cu, range_walk_cb, lf);
	if (r >= 0 && lf->lr->lines.n)
		return lf->found = true;
	return r < 0 ? r : 0;
}

static int range_inline_cb(Dwarf_Die *in, void *data)
{
	int r = range_by_line(in, data);
	return r < 0 ? r : 0; /* every instance: some paths are optimized out in some */
}

static int clamp(long v)
{
	return v < 0 || v > INT_MAX ? INT_MAX : (int)v;
}

static int range_search_cb(Dwarf_Die *sp, void *data)
{
	LineFinder *lf = data;
	LineRange *lr = lf->lr;
	const char *df = dwarf_decl_file(sp);
	if (lr->file && (!df || strtailcmp(lr->file, df)))
		return DWARF_CB_OK;
	const char *name = dwarf_diename(sp);
	if (!dw_is_func_def(sp) || !name || strcmp(name, lr->function))
		return DWARF_CB_OK;
	lf->fname = df;
	dwarf_decl_line(sp, &lr->offset);
	lf->lno_s = clamp((long)lr->offset + lr->start);
	lf->lno_e = clamp((long)lr->offset + lr->end);
	lr->start = lf->lno_s;
	lr->end = lf->lno_e;
	if (!dw_is_func_instance(sp))
		lf->ret = dw_walk_instances(sp, range_inline_cb, lf);
	else
		lf->ret = range_by_line(sp, lf);
	return DWARF_CB_ABORT;
}

static int find_line_range(DebugInfo *di, LineRange *lr)
{
	LineFinder lf = {.lr = lr};
	Dwarf_Off off = 0, next;
	size_t hsize;
	int r = 0;
	while (!lf.found && r >= 0 && dwarf_nextcu(di->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(di->dw, off + hsize, &lf.cu)) {
			lf.fname = lr->file ? dw_cu_find_file(&lf.cu, lr->file) : NULL;
			if (!lr->file || lf.fname) {
				if (lr->function) {
					lf.ret = 0;
					dwarf_getfuncs(&lf.cu, range_search_cb, &lf, 0);
					r = lf.ret;
				} else {
					lf.lno_s = lr->start;
					lf.lno_e = lr->end;
					r = range_by_line(NULL, &lf);
				}
			}
		}
		off = next;
	}
	if (lf.found) {
		Dwarf_Attribute a;
		lr->comp_dir = dwarf_formstring(dwarf_attr(&lf.cu, DW_AT_comp_dir, &a));
	}
	return r < 0 ? r : lf.found;
}

/* one source line; 1, 0 at the end of the file */
static int one_line(FILE *fp, int l, bool skip, bool num)
{
	char buf[256];
	bool first = true;
	do {
		if (!fgets(buf, sizeof(buf), fp))
			return 0;
		if (skip)
			continue;
		if (first) {
			if (num)
				printf("%7d  ", l);
			else
				fputs("         ", stdout);
			first = false;
		}
		fputs(buf, stdout);
	} while (!strchr(buf, '\n'));
	return 1;
}

static int must_line(FILE *fp, int l, bool skip, bool num)
{
	if (one_line(fp, l, skip, num))
		return 1;
	probe_err("Source file is shorter than expected.\n");
	return -1;
}

static int print_range(LineRange *lr)
{
	char *path = probe_source_path(lr->path, lr->comp_dir);
	if (!path) {
		probe_err("Failed to find source file path.\n");
		return -ENOENT;
	}
	if (lr->function)
		printf("<%s@%s:%d>\n", lr->function, path, lr->start - lr->offset);
	else
		printf("<%s:%d>\n", path, lr->start);
	FILE *fp = fopen(path, "r");
	if (!fp) {
		int e = errno;
		probe_err("Failed to open %s: %s\n", path, strerror(e));
		free(path);
		return -e;
	}
	int l = 1, r = 0;
	while (l < lr->start && r >= 0)
		r = must_line(fp, l++, true, false);
	for (int i = 0; i < lr->lines.n && r >= 0; i++) {
		for (; lr->lines.v[i] > l && r >= 0; l++)
			r = must_line(fp, l - lr->offset, false, false);
		if (r >= 0)
			r = must_line(fp, l++ - lr->offset, false, true);
	}
	if (lr->end == INT_MAX)
		lr->end = l + 2; /* perf's NR_ADDITIONAL_LINES */
	while (r >= 0 && l <= lr->end && one_line(fp, l - lr->offset, false, false))
		l++;
	fclose(fp);
	free(path);
	return r < 0 ? r : 0;
}

/* perf's second try, from the symbol of that name; then the search again */
static int alternative_range(ProbeCtx *c, LineRange *lr)
{
	ProbePoint pp = {.function = lr->function, .file = lr->file, .line = lr->start}, alt;
	int len = lr->end != INT_MAX ? lr->end - lr->start : 0;
	int r = probe_alternative(c, &pp, &alt);
	if (r)
		return r;
	lr->function = alt.function;
	lr->file = alt.file;
	lr->start = alt.line;
	if (lr->end != INT_MAX)
		lr->end = lr->start + len;
	return find_line_range(c->di, lr);
}

int probe_show_lines(ProbeCtx *c, const char *arg)
{
	LineRange lr = {0};
	int r = parse_line_range(arg, &lr);
	if (r)
		return r;
	r = find_line_range(c->di, &lr);
	if (r == 0)
		r = alternative_range(c, &lr);
	if (r == 0 || r == -ENOENT) {
		probe_err("Specified source line is not found.\n");
		return -ENOENT;
	}
	if (r < 0) {
		probe_err("Debuginfo analysis failed.\n");
		return r;
	}
	fflush(stderr);
	r = print_range(&lr);
	fflush(stdout);
	return r;
}
