/* `-l 'struct NAME'` / `-lv 'struct NAME'` (also union and enum): the
 * kernel's named types from its BTF, as bpftrace 0.17 lists them.
 *
 * bpftrace takes this path for a pattern that starts with "struct ",
 * "union " or "enum " and has no ':' (with a ':' it parses the pattern as
 * attach points and finds none).  '*' is the only wildcard, matched the way
 * bpftrace matches it: the pieces between stars are found left to right,
 * each at its first occurrence after the previous one.
 *
 * -l prints "KIND NAME" for each match, sorted, each once.  -lv prints the
 * definitions libbpf's btf_dump writes for every named struct, union and
 * enum (in BTF id order), cut into pieces as bpftrace cuts that text: a
 * piece starts at a line ending in '{' and ends at a line "};", so a
 * typedef of an anonymous struct ("} name_t;") runs on into the next
 * definition.  The pieces that match "PATTERN *{*}*" print sorted, each
 * followed by an empty line. */
#include <bpf/btf.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../lang/ctypes.h"
#include "../util/util.h"
#include "../util/sort.h"
#include "list_types.h"

typedef VEC(char *) StrVec;

bool list_types_wanted(const char *pattern)
{
	static const char *const kinds[] = {"struct ", "union ", "enum "};
	if (strchr(pattern, ':'))
		return false;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strncmp(pattern, kinds[i], strlen(kinds[i])))
			return true;
	return false;
}

/* "struct NAME", "union NAME", "enum NAME"; NULL for other kinds and for
 * anonymous types (bpftrace skips names containing "(anon)") */
static char *type_title(const struct btf *b, const struct btf_type *t)
{
	const char *kind = btf_is_struct(t) ? "struct" : btf_is_union(t) ? "union"
						   : btf_is_enum(t)   ? "enum"
								      : NULL;
	if (!kind || !t->name_off)
		return NULL;
	StrBuf s = {0};
	sb_printf(&s, "%s %s", kind, btf__name_by_offset(b, t->name_off));
	return s.s;
}

/* bpftrace's wildcard match: pattern split at '*', the pieces found in
 * order (first occurrence after the previous piece); anchored at the start
 * unless the pattern starts with '*', at the end unless it ends with '*'. */
static bool star_match(const char *pat, const char *s)
{
	size_t plen = strlen(pat);
	bool open_start = pat[0] == '*', open_end = plen && pat[plen - 1] == '*';
	const char *next = s;
	bool first = true;
	for (const char *p = pat; *p;) {
		size_t n = strcspn(p, "*");
		if (n) {
			char *piece = strndup(p, n);
			const char *at = strstr(next, piece);
			free(piece);
			if (!at || (first && !open_start && at != s))
				return false;
			next = at + n;
			first = false;
		}
		p += n + (p[n] == '*');
	}
	return open_end || *next == 0;
}

/* sorted, each once, those matching pat; frees v */
static int print_matches(FILE *out, StrVec *v, const char *pat, const char *after)
{
	int count = 0;
	qsort(v->v, (size_t)v->n, sizeof(*v->v), cmp_str);
	for (int i = 0; i < v->n; i++) {
		if ((i == 0 || strcmp(v->v[i - 1], v->v[i])) && star_match(pat, v->v[i])) {
			fprintf(out, "%s%s", v->v[i], after);
			count++;
		}
	}
	for (int i = 0; i < v->n; i++)
		free(v->v[i]);
	vec_free(v);
	return count;
}

static void dump_to_buf(void *ctx, const char *fmt, va_list ap)
{
	sb_vprintf(ctx, fmt, ap);
}

/* bpftrace's cut of the dump into definitions (see the top) */
static void split_definitions(const char *text, StrVec *defs)
{
	StrBuf def = {0};
	bool in_def = false;
	for (const char *line = text; *line;) {
		size_t n = strcspn(line, "\n");
		if (in_def || (n && line[n - 1] == '{')) {
			sb_putn(&def, line, n);
			sb_putc(&def, '\n');
			if (in_def && n == 2 && !strncmp(line, "};", 2)) {
				vec_push(defs, def.s);
				def = (StrBuf){0};
				in_def = false;
			} else {
				in_def = true;
			}
		}
		line += n + (line[n] == '\n');
	}
	sb_free(&def);
}

static bool collect_definitions(struct btf *b, StrVec *defs)
{
	StrBuf text = {0};
	struct btf_dump *d = btf_dump__new(b, dump_to_buf, &text, NULL);
	if (!d) {
		fprintf(stderr, "ERROR: BTF: failed to initialize dump\n");
		return false;
	}
	for (__u32 id = 1; id < btf__type_cnt(b); id++) {
		char *title = type_title(b, btf__type_by_id(b, id));
		if (title)
			btf_dump__dump_type(d, id);
		free(title);
	}
	btf_dump__free(d);
	if (text.s)
		split_definitions(text.s, defs);
	sb_free(&text);
	return true;
}

int list_types(SymCtx *sc, FILE *out, const char *pattern, bool verbose)
{
	struct btf *b = btf_kernel(sc);
	if (!b) {
		fprintf(stderr, "ERROR: %s\n", btf_error(sc));
		return -1;
	}
	StrVec v = {0};
	if (verbose) {
		if (!collect_definitions(b, &v))
			return -1;
		StrBuf pat = {0};
		sb_printf(&pat, "%s *{*}*", pattern);
		int n = print_matches(out, &v, pat.s, "\n");
		sb_free(&pat);
		return n;
	}
	for (__u32 id = 1; id < btf__type_cnt(b); id++) {
		char *title = type_title(b, btf__type_by_id(b, id));
		if (title)
			vec_push(&v, title);
	}
	return print_matches(out, &v, pattern, "\n");
}
