/* bpftrace 0.26's map declarations (`let @m = lruhash(100);`, parsed by
 * lang/parse_mapdecl.c): after the last pass has typed the maps, each
 * declaration names its map's BPF type and size.  An aggregation's values
 * are per CPU, so a per-CPU kind needs one and a plain kind refuses one. */
#include <string.h>

#include "sema_int.h"

static const struct {
	const char *name;
	bool lru, percpu;
} kinds[] = {
	{"hash", false, false},
	{"lruhash", true, false},
	{"percpuhash", false, true},
	{"percpulruhash", true, true},
};

static int kind_named(const char *name)
{
	for (int i = 0; i < (int)(sizeof(kinds) / sizeof(*kinds)); i++)
		if (!strcmp(kinds[i].name, name))
			return i;
	return -1;
}

static MapInfo *declared_map(Script *sc, const char *name)
{
	const int *id = str_index_find(&sc->map_ids, name);
	return id ? sc->maps.v[*id] : NULL;
}

static bool apply_decl(Sema *s, const MapDecl *d)
{
	int k = kind_named(d->kind);
	if (k < 0)
		return sema_error(s, d->loc, "Invalid bpf map type: %s\nhint: valid map types: hash, "
				  "lruhash, percpuhash, percpulruhash", d->kind);
	if (!d->max_entries || d->max_entries > INT32_MAX)
		return sema_error(s, d->loc, "a map's max entries must be between 1 and %d",
				  INT32_MAX);
	MapInfo *m = declared_map(s->sc, d->name);
	if (!m || !m->val) {
		sema_warn(s, d->loc, "Unused map: @%s", d->name);
		return true;
	}
	if (m->percpu != kinds[k].percpu)
		return sema_error(s, m->loc, "Incompatible map types. Type from declaration: %s. "
				  "Type from value/key type: %s", d->kind,
				  m->percpu ? "percpuhash" : "hash");
	m->decl_entries = (int64_t)d->max_entries;
	m->lru = kinds[k].lru;
	return true;
}

bool sema_map_decls(Sema *s)
{
	const Program *p = s->sc->ast;
	bool ok = true;
	for (int i = 0; i < p->nmap_decls; i++)
		for (int j = 0; j < i; j++)
			if (!strcmp(p->map_decls[i].name, p->map_decls[j].name))
				return sema_error(s, p->map_decls[i].loc, "map @%s is declared twice",
						  p->map_decls[i].name);
	for (int i = 0; i < p->nmap_decls; i++)
		ok &= apply_decl(s, &p->map_decls[i]);
	return ok;
}
