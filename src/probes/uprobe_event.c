/* Parsing uprobe_events lines (see uprobe_event.h):
 *   p:GROUP/EVENT PATH:0xOFFSET[(0xREFCTR)] NAME=FETCH[:TYPE] ...
 * FETCH: %REG, @+FILEOFFSET, \IMM, $retval, $comm, or OFF(FETCH). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/util.h"
#include "../sym/symctx.h"
#include "../sym/tracefs.h"
#include "uprobe_event.h"

/* the events parsed, once per run: a list in the run's SymCtx */
typedef struct Parsed {
	Uevent *u;
	struct Parsed *next;
} Parsed;
typedef struct UeventCache {
	Parsed *list;
} UeventCache;


/* FETCH at *p; false if sonde cannot read it */
static bool parse_fetch(const char **p, UeventArg *a)
{
	const char *s = *p;
	char *end;
	if (*s == '+' || *s == '-' || (*s >= '0' && *s <= '9')) {
		long long off = strtoll(s, &end, 0);
		if (*end != '(' || a->nderef == (int)(sizeof(a->deref) / sizeof(*a->deref)))
			return false;
		*p = end + 1;
		if (!parse_fetch(p, a) || **p != ')')
			return false;
		(*p)++;
		a->deref[a->nderef++] = off;
		return true;
	}
	if (*s == '%') {
		size_t n = strspn(s + 1, "abcdefghijklmnopqrstuvwxyz0123456789_");
		if (!n || n >= sizeof(a->reg))
			return false;
		memcpy(a->reg, s + 1, n);
		a->base = UA_REG;
		*p = s + 1 + n;
		return true;
	}
	if (!strncmp(s, "@+", 2) || *s == '\\') {
		a->base = *s == '@' ? UA_FILEADDR : UA_IMM;
		a->imm = strtoll(s + (*s == '@' ? 2 : 1), &end, 0);
		*p = end;
		return end != s + 1;
	}
	if (!strncmp(s, "$retval", 7) || !strncmp(s, "$comm", 5)) {
		bool ret = s[1] == 'r';
		a->base = ret ? UA_REG : UA_COMM;
		if (ret)
			strcpy(a->reg, "ax");
		*p = s + (ret ? 7 : 5);
		return true;
	}
	return false;
}

/* NAME=FETCH[:TYPE] */
static void parse_arg(const char *word, UeventArg *a)
{
	const char *eq = strchr(word, '=');
	a->name = eq ? xstrndup(word, (size_t)(eq - word)) : xstrdup(word);
	a->text = xstrdup(eq ? eq + 1 : word);
	const char *p = a->text;
	if (!parse_fetch(&p, a) || (*p && *p != ':'))
		a->base = UA_BAD;
	a->bitfield = *p == ':' && p[1] == 'b';
}

static Uevent *parse_line(char *line)
{
	char *save, *w = strtok_r(line, " \t", &save), *sl, *colon;
	if (!w || (w[0] != 'p' && w[0] != 'r') || w[1] != ':' || !(sl = strchr(w, '/')))
		return NULL;
	Uevent *u = xcalloc(1, sizeof(*u));
	u->ret = w[0] == 'r';
	u->group = xstrndup(w + 2, (size_t)(sl - w - 2));
	u->event = xstrdup(sl + 1);
	if ((w = strtok_r(NULL, " \t", &save)) && (colon = strrchr(w, ':'))) {
		u->path = xstrndup(w, (size_t)(colon - w));
		u->offset = strtoull(colon + 1, NULL, 0);
	}
	while ((w = strtok_r(NULL, " \t", &save))) {
		u->args = realloc(u->args, (size_t)(u->nargs + 1) * sizeof(*u->args));
		if (!u->args)
			abort();
		u->args[u->nargs] = (UeventArg){0};
		parse_arg(w, &u->args[u->nargs++]);
	}
	return u;
}

static void uevent_free(Uevent *u)
{
	for (int i = 0; i < u->nargs; i++) {
		free(u->args[i].name);
		free(u->args[i].text);
	}
	free(u->args);
	free(u->group);
	free(u->event);
	free(u->path);
	free(u);
}

static Uevent *read_uevent(const char *group, const char *event)
{
	const char *dir = tracefs_dir();
	char path[512];
	if (!dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/uprobe_events", dir);
	char *text = read_file_all(path, NULL), *save = NULL;
	Uevent *found = NULL;
	for (char *l = text ? strtok_r(text, "\n", &save) : NULL; l && !found; l = strtok_r(NULL, "\n", &save)) {
		Uevent *u = parse_line(l);
		if (u && !strcmp(u->group, group) && !strcmp(u->event, event) && u->path)
			found = u;
		else if (u)
			uevent_free(u);
	}
	free(text);
	return found;
}

static void uevents_free(void *cache)
{
	UeventCache *uc = cache;
	for (Parsed *c = uc->list, *next; c; c = next) {
		next = c->next;
		uevent_free(c->u);
		free(c);
	}
	free(uc);
}

const Uevent *uevent_find(SymCtx *sc, const char *group, const char *event)
{
	UeventCache *uc = SYM_CACHE(sc, uevents, uevents_free);
	for (Parsed *c = uc->list; c; c = c->next)
		if (!strcmp(c->u->group, group) && !strcmp(c->u->event, event))
			return c->u;
	Uevent *u = read_uevent(group, event);
	if (!u)
		return NULL;
	Parsed *c = xcalloc(1, sizeof(*c));
	c->u = u;
	c->next = uc->list;
	uc->list = c;
	return u;
}

const UeventArg *uevent_arg(const Uevent *u, const char *name)
{
	for (int i = 0; i < u->nargs; i++)
		if (!strcmp(u->args[i].name, name))
			return &u->args[i];
	return NULL;
}
