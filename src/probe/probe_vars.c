/* sonde probe -V: the variables a probe can record at each place of a probe
 * point, "type\tname" sorted, as perf probe prints them. */
#include <errno.h>
#include <string.h>

#include "../util/util.h"
#include "probe.h"

typedef struct VarList {
	char *symbol;
	unsigned long offset;
	VEC(char *) vars;
} VarList;

typedef struct VarFinder {
	ProbeSite *site;
	VarList *vl;
	bool child; /* locals (descend into scopes holding the address) */
} VarFinder;

static void add_var(VarList *vl, char *s)
{
	int i = 0;
	while (i < vl->vars.n && strcmp(vl->vars.v[i], s) < 0)
		i++;
	if (i < vl->vars.n && !strcmp(vl->vars.v[i], s)) {
		free(s);
		return;
	}
	vec_push(&vl->vars, NULL);
	memmove(vl->vars.v + i + 1, vl->vars.v + i, sizeof(char *) * (size_t)(vl->vars.n - 1 - i));
	vl->vars.v[i] = s;
}

static int collect_cb(Dwarf_Die *d, void *data)
{
	VarFinder *vf = data;
	ProbeSite *s = vf->site;
	int tag = dwarf_tag(d);
	if ((tag == DW_TAG_formal_parameter || tag == DW_TAG_variable) &&
	    dw_var_location(d, s->addr, s->fb, &s->sp, NULL) == 0) {
		StrBuf b = {0};
		if (dw_var_text(d, &b))
			add_var(vf->vl, b.s);
	}
	if (vf->child && dwarf_haspc(d, s->addr) > 0)
		return DWF_CONTINUE;
	return DWF_SIBLING;
}

typedef struct VarsRun {
	ProbeCtx *c;
	VEC(VarList) lists;
} VarsRun;

static int site_vars(ProbeSite *s, void *data)
{
	VarsRun *run = data;
	VarList vl = {xstrdup(s->symbol), s->offset, {0}};
	VarFinder vf = {s, &vl, true};
	Dwarf_Die mem;
	dw_find_child(&s->scope, collect_cb, &vf, &mem);
	if (run->c->externs) {
		vf.child = false;
		dw_find_child(&s->cu, collect_cb, &vf, &mem);
	}
	vec_push(&run->lists, vl);
	return 0;
}

int probe_show_vars(ProbeCtx *c, const char *arg)
{
	ProbePoint pp;
	int r = probe_point_parse(arg, &pp);
	if (r)
		return r;
	char *where = probe_point_text(&pp);
	VarsRun run = {c, {0}};
	r = probe_find_sites(c->di, &pp, NULL, site_vars, &run);
	ProbePoint alt;
	if (r == 0 && (r = probe_alternative(c, &pp, &alt)) == 0)
		r = probe_find_sites(c->di, &alt, NULL, site_vars, &run);
	if (r <= 0) {
		if (r == 0 || r == -ENOENT) {
			probe_err("Failed to find the address of %s\n", where);
			r = -ENOENT;
		} else {
			probe_err("Debuginfo analysis failed.\n");
		}
		free(where);
		return r;
	}
	printf("Available variables at %s\n", where);
	for (int i = 0; i < run.lists.n; i++) {
		VarList *vl = &run.lists.v[i];
		int shown = 0;
		printf("\t@<%s+%lu>\n", vl->symbol, vl->offset);
		for (int j = 0; j < vl->vars.n; j++) {
			if (strfilter_match(c->filter, strchr(vl->vars.v[j], '\t') + 1)) {
				printf("\t\t%s\n", vl->vars.v[j]);
				shown++;
			}
			free(vl->vars.v[j]);
		}
		if (!shown)
			printf("\t\t(No matched variables)\n");
		vec_free(&vl->vars);
		free(vl->symbol);
	}
	vec_free(&run.lists);
	free(where);
	return 0;
}
