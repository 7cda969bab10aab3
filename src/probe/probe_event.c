/* sonde probe -a, -l, -d: named uprobe events in tracefs (uprobe_events),
 * their fetch arguments computed from DWARF, named and reported as perf
 * probe does.  The events are ordinary tracepoints afterwards. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <libgen.h>
#include <string.h>
#include <unistd.h>

#include "../sym/tracefs.h"
#include "../util/util.h"
#include "probe_event.h"

typedef struct Site {
	ProbeSite s;
	char *realname;
} Site;

typedef struct Added {
	char *group, *event, *line; /* line: as perf shows the new event */
} Added;
typedef VEC(Added) AddedList;

static char *events_path(void)
{
	const char *dir = tracefs_dir();
	if (!dir)
		return NULL;
	StrBuf b = {0};
	sb_printf(&b, "%s/uprobe_events", dir);
	return b.s;
}

static int write_event(const char *cmd)
{
	char *path = events_path();
	int fd = path ? open(path, O_WRONLY | O_APPEND | O_CLOEXEC) : -1;
	free(path);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, cmd, strlen(cmd));
	int e = n < 0 ? errno : 0;
	close(fd);
	return -e;
}

/* An event of uprobe_events: "p:GROUP/EVENT PATH:0xOFF NAME=FETCH ..." */
typedef struct Event {
	char *raw; /* the line of uprobe_events */
	bool ret;
	char *group, *event, *path;
	unsigned long offset;
	VEC(char *) argnames;
} Event;

static bool parse_event(char *line, Event *e)
{
	memset(e, 0, sizeof(*e));
	char *save, *tok = strtok_r(line, " \n", &save);
	if (!tok || (tok[0] != 'p' && tok[0] != 'r') || tok[1] != ':')
		return false;
	e->ret = tok[0] == 'r';
	char *slash = strchr(tok + 2, '/');
	if (!slash)
		return false;
	e->group = xstrndup(tok + 2, (size_t)(slash - tok - 2));
	e->event = xstrdup(slash + 1);
	if (!(tok = strtok_r(NULL, " \n", &save)))
		return false;
	char *colon = strrchr(tok, ':');
	if (!colon)
		return false;
	e->path = xstrndup(tok, (size_t)(colon - tok));
	e->offset = strtoul(colon + 1, NULL, 0);
	while ((tok = strtok_r(NULL, " \n", &save))) {
		char *eq = strchr(tok, '=');
		vec_push(&e->argnames, xstrndup(tok, eq ? (size_t)(eq - tok) : strlen(tok)));
	}
	return true;
}

typedef VEC(Event) Events;

static int read_events(Events *out)
{
	char *path = events_path();
	char *text = path ? read_file_all(path, NULL) : NULL;
	free(path);
	if (!text)
		return -errno;
	char *save;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		Event e;
		char *copy = xstrdup(l);
		if (parse_event(copy, &e)) {
			e.raw = xstrdup(l);
			vec_push(out, e);
		}
		free(copy);
	}
	free(text);
	return 0;
}

static bool name_taken(const char *name)
{
	Events evs = {0};
	read_events(&evs);
	bool taken = false;
	for (int i = 0; i < evs.n; i++)
		taken |= !strcmp(evs.v[i].event, name);
	return taken; /* perf checks the name in every group */
}

/* probe_<basename up to its first character not alphanumeric or '_'> */
static char *exec_group(const char *exec)
{
	char *copy = xstrdup(exec), *base = basename(copy), *p = base;
	while (*p && (isalnum((unsigned char)*p) || *p == '_'))
		p++;
	*p = '\0';
	StrBuf b = {0};
	sb_printf(&b, "probe_%s", base);
	free(copy);
	return b.s;
}

static int new_event_name(const char *base, bool ret, bool allow_suffix, char **out)
{
	if (*base == '.')
		base++;
	char *nb = xstrdup(base), *p = strpbrk(nb, ".@");
	if (p && p != nb)
		*p = '\0'; /* .constprop.0, .isra.0, @GLIBC... */
	StrBuf b = {0};
	sb_printf(&b, "%s%s", nb, ret ? "__return" : "");
	if (name_taken(b.s)) {
		if (!allow_suffix) {
			probe_err("Error: event \"%s\" already exists.\n"
				  " Hint: Remove existing event by 'perf probe -d'\n"
				  "       or force duplicates by 'perf probe -f'\n"
				  "       or set 'force=yes' in BPF source.\n",
				  b.s);
			free(nb);
			sb_free(&b);
			return -EEXIST;
		}
		for (int i = 1; name_taken(b.s); i++) {
			sb_reset(&b);
			sb_printf(&b, "%s_%d", nb, i);
		}
	}
	free(nb);
	*out = b.s;
	return 0;
}

typedef struct AddRun {
	VEC(Site) sites;
} AddRun;

static int collect_site(ProbeSite *s, void *data)
{
	AddRun *run = data;
	const char *rn = dwarf_diename(&s->scope);
	Site st = {*s, xstrdup(rn ? rn : s->symbol)};
	vec_push(&run->sites, st);
	return 0;
}

typedef struct Def {
	char *group, *event;
	ProbePoint pp;
	VEC(ProbeArg) args;
} Def;

static int parse_def(const char *text, Def *d)
{
	char *copy = xstrdup(text), *save;
	char *point = strtok_r(copy, " \t", &save);
	int r = 0;
	memset(d, 0, sizeof(*d));
	if (!point) {
		semantic_error("No probe point is specified.\n");
		free(copy);
		return -EINVAL;
	}
	char *p = strpbrk(point, ";=@+%");
	if (p && *p == '=') {
		*p = '\0';
		char *colon = strchr(point, ':');
		if (colon) {
			*colon = '\0';
			d->group = xstrdup(point);
			d->event = xstrdup(colon + 1);
		} else {
			d->event = xstrdup(point);
		}
		point = p + 1;
	}
	r = probe_point_parse(point, &d->pp);
	for (char *a; !r && (a = strtok_r(NULL, " \t", &save));) {
		ProbeArg pa;
		if (!(r = probe_arg_parse(a, &pa)))
			vec_push(&d->args, pa);
	}
	free(copy);
	return r;
}

static int site_command(ProbeCtx *c, Def *d, Site *st, const char *group, const char *event, StrBuf *cmd)
{
	Dwarf_Addr off = st->s.addr;
	if (c->di->dw && !debuginfo_vaddr_to_offset(c->di, st->s.addr, &off)) {
		probe_err("Failed to find the file offset of 0x%lx\n", (unsigned long)st->s.addr);
		return -EINVAL;
	}
	sb_printf(cmd, "%c:%s/%s %s:0x%lx", d->pp.retprobe ? 'r' : 'p', group, event, c->exec, (unsigned long)off);
	VEC(ProbeArg) args = {0};
	probe_args_expand(&st->s, d->args.v, d->args.n, &args);
	int r = 0;
	for (int i = 0; i < args.n && !r; i++)
		r = probe_arg_fetch(&st->s, c->di, &args.v[i], i, cmd);
	vec_free(&args);
	return r;
}

static void remove_added(AddedList *added)
{
	for (int i = 0; i < added->n; i++) {
		StrBuf b = {0};
		sb_printf(&b, "-:%s/%s", added->v[i].group, added->v[i].event);
		write_event(b.s);
		sb_free(&b);
	}
}

static char *added_line(Def *d, const char *group, const char *event, const char *exec)
{
	StrBuf b = {0}, ge = {0};
	char *place = probe_point_text(&d->pp);
	sb_printf(&ge, "%s:%s", group, event);
	sb_printf(&b, "  %-20s (on %s in %s", ge.s, place, exec);
	if (d->args.n)
		sb_puts(&b, " with");
	for (int i = 0; i < d->args.n; i++) {
		sb_putc(&b, ' ');
		probe_arg_text(&d->args.v[i], &b);
	}
	sb_putc(&b, ')');
	sb_free(&ge);
	free(place);
	return b.s;
}

/* no debug info: a function's symbol, as perf falls back to */
static int symbol_site(ProbeCtx *c, Def *d, AddRun *run)
{
	Dwarf_Addr off;
	for (int i = 0; i < d->args.n; i++)
		if (probe_arg_is_var(&d->args.v[i]))
			goto nodebug;
	if (!d->pp.function || d->pp.line || d->pp.lazy || d->pp.file)
		goto nodebug;
	if (!probe_symbol_offset(c->di, d->pp.function, &off)) {
		probe_err("Probe point '%s' not found.\n", d->pp.function);
		return -ENOENT;
	}
	Site st = {.s = {.addr = off + d->pp.offset}, .realname = xstrdup(d->pp.function)};
	vec_push(&run->sites, st);
	return 0;
nodebug:
	probe_err("The %s file has no debug information.\n"
		  "Rebuild with -g, or install an appropriate debuginfo package.\n",
		  c->exec);
	return -ENOENT;
}

static int find_def_sites(ProbeCtx *c, Def *d, AddRun *run)
{
	FindOpts o = {false};
	if (!c->di->dw)
		return symbol_site(c, d, run);
	for (int i = 0; i < d->args.n; i++)
		o.skip_prologue |= probe_arg_is_var(&d->args.v[i]);
	int r = probe_find_sites(c->di, &d->pp, &o, collect_site, run);
	ProbePoint alt;
	if (r == 0 && probe_alternative(c, &d->pp, &alt) == 0)
		r = probe_find_sites(c->di, &alt, &o, collect_site, run);
	if (r == 0) {
		char *t = probe_point_text(&d->pp);
		probe_err("Probe point '%s' not found.\n", t);
		free(t);
		return -ENOENT;
	}
	return r < 0 ? r : 0;
}

/* one definition: its places, their names and arguments, then the writes;
 * on any failure the events this run added are removed again */
static int add_def(ProbeCtx *c, Def *d, AddedList *added)
{
	AddRun run = {0};
	int r = find_def_sites(c, d, &run);
	char *group = d->group ? xstrdup(d->group) : exec_group(c->exec);
	for (int i = 0; i < run.sites.n && !r; i++) {
		Site *st = &run.sites.v[i];
		char *event = NULL;
		StrBuf base = {0};
		if (d->event)
			sb_puts(&base, d->event);
		else if (d->pp.function && !is_glob(d->pp.function))
			sb_puts(&base, d->pp.function);
		else
			sb_puts(&base, st->realname);
		if (!d->event && d->pp.line && d->pp.function)
			sb_printf(&base, "_L%d", d->pp.line);
		r = new_event_name(base.s, d->pp.retprobe, run.sites.n > 1, &event); /* perf 6.1: named too */
		sb_free(&base);
		StrBuf cmd = {0};
		if (!r)
			r = site_command(c, d, st, group, event, &cmd);
		if (!r && (r = write_event(cmd.s))) {
			probe_err("Failed to write event: %s\n", strerror(-r));
		} else if (!r) {
			Added a = {xstrdup(group), event, added_line(d, group, event, c->exec)};
			vec_push(added, a);
		}
		sb_free(&cmd);
	}
	free(group);
	return r;
}

int probe_add_events(ProbeCtx *c, char **defs, int ndefs)
{
	AddedList added = {0};
	int r = 0;
	for (int i = 0; i < ndefs && !r; i++) {
		Def d;
		r = parse_def(defs[i], &d);
		if (!r)
			r = add_def(c, &d, &added);
	}
	if (r) { /* nothing stays behind */
		remove_added(&added);
		return r;
	}
	probe_err("Added new event%s\n", added.n > 1 ? "s:" : ":");
	for (int i = 0; i < added.n; i++)
		probe_err("%s\n", added.v[i].line);
	if (added.n)
		probe_err("\nYou can now use it in sonde (and in all perf tools), such as:\n\n"
			  "\tsonde -e 'tracepoint:%s:%s { @[comm] = count(); }'\n\n",
			  added.v[added.n - 1].group, added.v[added.n - 1].event);
	return 0;
}

/* perf lists the raw lines sorted */
static int cmp_event(const void *a, const void *b)
{
	return strcmp(((const Event *)a)->raw, ((const Event *)b)->raw);
}

static bool event_matches(const char *pat, const Event *e)
{
	const char *colon = strchr(pat, ':');
	if (!colon)
		return fnmatch(pat, e->event, 0) == 0;
	char *g = xstrndup(pat, (size_t)(colon - pat));
	bool m = fnmatch(g, e->group, 0) == 0 && fnmatch(colon + 1, e->event, 0) == 0;
	free(g);
	return m;
}

/* perf's place of an event: FUNC:LINE@FILE from the binary's DWARF */
static char *event_place(SymCtx *sc, const Event *e)
{
	DebugInfo *di = debuginfo_get(sc, e->path);
	ProbePoint pp = {0};
	StrBuf b = {0};
	if (di->dw && probe_reverse_point(di, e->offset, &pp) == 0) {
		pp.retprobe = e->ret;
		return probe_point_text(&pp);
	}
	sb_printf(&b, "0x%lx", e->offset);
	return b.s;
}

int probe_list_events(ProbeCtx *c, const char *filter)
{
	Events evs = {0};
	int r = read_events(&evs);
	if (r)
		return r;
	qsort(evs.v, (size_t)evs.n, sizeof(*evs.v), cmp_event);
	for (int i = 0; i < evs.n; i++) {
		Event *e = &evs.v[i];
		if (filter && !event_matches(filter, e))
			continue;
		StrBuf ge = {0};
		char *place = event_place(c->sym, e);
		sb_printf(&ge, "%s:%s", e->group, e->event);
		printf("  %-20s (on %s in %s", ge.s, place, e->path);
		if (e->argnames.n)
			printf(" with");
		for (int j = 0; j < e->argnames.n; j++)
			printf(" %s", e->argnames.v[j]);
		printf(")\n");
		sb_free(&ge);
		free(place);
	}
	return 0;
}

static int cmp_group_event(const void *a, const void *b)
{
	const Event *x = a, *y = b;
	int c = strcmp(x->group, y->group);
	return c ? c : strcmp(x->event, y->event);
}

int probe_del_events(const char *const *pats, int npats)
{
	Events evs = {0};
	int r = read_events(&evs);
	if (!r)
		qsort(evs.v, (size_t)evs.n, sizeof(*evs.v), cmp_group_event);
	for (int p = 0; p < npats && !r; p++) {
		int hits = 0;
		for (int i = 0; i < evs.n && !r; i++) {
			if (!event_matches(pats[p], &evs.v[i]))
				continue;
			StrBuf b = {0};
			sb_printf(&b, "-:%s/%s", evs.v[i].group, evs.v[i].event);
			if ((r = write_event(b.s)))
				probe_err("Failed to delete event: %s\n", strerror(-r));
			else
				probe_err("Removed event: %s:%s\n", evs.v[i].group, evs.v[i].event);
			sb_free(&b);
			hits++;
		}
		if (!hits) {
			probe_err("\"%s\" does not hit any event.\n", pats[p]);
			r = -ENOENT;
		}
	}
	return r;
}
