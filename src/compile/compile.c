/* The compiler driver: expand attach points, type the program until map
 * types settle, then generate one BPF program per concrete probe. */
#include <stdlib.h>
#include <string.h>

#include "codegen.h"
#include "sema_hooks.h"
#include "../lang/ctypes.h"
#include "../sym/symctx.h"

MapInfo *script_map(Script *s, const char *name, Loc loc)
{
	/* indexed: a script of thousands of maps would search them all per name */
	const int *id = str_index_find(&s->map_ids, name);
	if (id)
		return s->maps.v[*id];
	MapInfo *m = arena_alloc(&s->arena, sizeof(MapInfo));
	m->name = arena_strdup(&s->arena, name);
	size_t n = strlen(name);
	m->print_name = arena_alloc(&s->arena, n + 2);
	m->print_name[0] = '@';
	memcpy(m->print_name + 1, name, n + 1);
	m->id = s->maps.n;
	m->loc = loc;
	m->fd = -1;
	vec_push(&s->maps, m);
	str_index_put(&s->map_ids, m->name, m->id);
	return m;
}

int script_rodata_add(Script *s, const char *str, size_t len)
{
	/* reuse an identical constant: strncmp needs only its bytes */
	for (size_t off = 0; off + len < s->rodata.len + (s->rodata.len ? 0 : 1); ) {
		if (!s->rodata.s)
			break;
		size_t l = strlen(s->rodata.s + off);
		if (l == len && !memcmp(s->rodata.s + off, str, len))
			return (int)off;
		off += l + 1;
	}
	int off = (int)s->rodata.len;
	sb_putn(&s->rodata, str, len);
	sb_putc(&s->rodata, 0);
	return off;
}

/* Raw bytes (a table of fixed-size strings) appended to the read-only map. */
int script_rodata_bytes(Script *s, const char *bytes, size_t len)
{
	int off = (int)s->rodata.len;
	sb_putn(&s->rodata, bytes, len);
	return off;
}

const char *options_d_get(const Options *o, const char *name)
{
	size_t n = strlen(name);
	for (int i = o->nd_opts - 1; i >= 0; i--) {
		const char *v = o->d_opts[i];
		if (!strncmp(v, name, n) && (v[n] == '=' || !v[n]))
			return v[n] ? v + n + 1 : "";
	}
	return NULL;
}

void script_keep_fmt(Script *s, Fmt *f)
{
	vec_push(&s->fmts, f);
}

/* `interval:ms:$1`, `BEG$1`: positional parameters inside an attach point
 * are replaced by their text (a missing one by nothing), as in bpftrace. */
static char *subst_params(Script *sc, char *text)
{
	if (!strchr(text, '$'))
		return text;
	StrBuf b = {0};
	for (const char *c = text; *c;) {
		if (c[0] == '$' && c[1] >= '0' && c[1] <= '9') {
			char *end;
			long n = strtol(c + 1, &end, 10);
			if (n >= 1 && n <= sc->opt.nparams)
				sb_puts(&b, sc->opt.params[n - 1]);
			c = end;
		} else {
			sb_putc(&b, *c++);
		}
	}
	char *r = arena_strdup(&sc->arena, b.s ? b.s : "");
	sb_free(&b);
	return r;
}

/* Every attach point was dropped (uprobe functions missing): bpftrace's
 * words, then why as hints */
static bool no_probes_left(Script *sc, Error *err)
{
	StrBuf b = {0};
	sb_puts(&b, "No probes to attach");
	for (int p = 0; p < sc->ast->nprobes; p++)
		if (sc->specs[p].dropped)
			sb_printf(&b, "\nhint: %s", sc->specs[p].dropped);
	error_at(err, (Loc){0}, "%s", b.s);
	err->plain = true;
	sb_free(&b);
	return false;
}

/* A uprobe offset that is not on an instruction boundary (or that could not
 * be decoded) is refused, as bpftrace refuses it; --unsafe only warns, as
 * bpftrace built with ALLOW_UNSAFE_PROBE. Messages are bpftrace's. */
static bool check_insn_boundary(Script *sc, const ProbeSpec *s, Error *err)
{
	static const char *const refuse[] = {
		[INSN_MIDDLE] = "Could not add %s into middle of instruction: %s",
		[INSN_UNCHECKED] = "Failed to check if %s is in proper place: %s",
	};
	static const char *const warn[] = {
		[INSN_MIDDLE] = "Unsafe %s in the middle of the instruction: %s",
		[INSN_UNCHECKED] = "Unchecked %s: %s",
	};
	if (s->insn_check == INSN_OK || (s->insn_check == INSN_ZERO_SIZE && sc->opt.unsafe))
		return true;
	if (s->insn_check == INSN_ZERO_SIZE)
		return error_at(err, s->loc, "Could not determine boundary for %s (symbol has size 0). "
				"Use --unsafe to force attachment.", s->insn_where);
	if (!sc->opt.unsafe)
		return error_at(err, s->loc, refuse[s->insn_check], s->prov->name, s->insn_where);
	Error w = {0};
	error_at(&w, s->loc, warn[s->insn_check], s->prov->name, s->insn_where);
	vec_push(&sc->warnings, w);
	return true;
}

/* An attach point its provider found missing, under missing_probes: stops
 * in 0.26's words, or is skipped (the specs it added dropped) with a warning
 * or silently; true when skipped.  Other errors always stop. */
static bool skip_missing(Script *sc, int p, const AttachPoint *ap, int before, Error *err)
{
	MissingProbes m = sc->opt.missing_probes;
	if (!err->missing || m == MISSING_STOP)
		return false;
	size_t tlen = strcspn(ap->text, ":");
	char *type = xstrndup(ap->text, tlen);
	const Provider *pv = provider_find(type);
	StrBuf words = {0};
	sb_printf(&words, "No matches for %s %s.", pv ? pv->name : type,
		  ap->text[tlen] ? ap->text + tlen + 1 : "");
	free(type);
	Loc loc = err->loc;
	*err = (Error){0};
	if (m == MISSING_ERROR) {
		error_at(err, loc, "%s", words.s);
	} else {
		sc->specs[p].n = before;
		if (!sc->specs[p].dropped)
			sc->specs[p].dropped = xstrdup(words.s);
		if (m == MISSING_WARN) {
			Error w = {0};
			error_at(&w, ap->loc, "%s Skipping.", words.s);
			vec_push(&sc->warnings, w);
		}
	}
	sb_free(&words);
	return m != MISSING_ERROR;
}

/* missing_probes=warn: a probe all of whose attach points were skipped */
static void warn_removed(Script *sc, int p, bool skipped)
{
	if (!skipped || sc->specs[p].n || sc->opt.missing_probes != MISSING_WARN)
		return;
	Error w = {0};
	error_at(&w, sc->ast->probes[p]->loc, "Probe has no valid attach points. It is being "
		 "removed which may cause issues with program behavior.");
	vec_push(&sc->warnings, w);
}

/* self:signal:SIGUSR1 where the dialect has no self probes: an unknown type */
static bool self_probe_known(Script *sc, int p, int before, const AttachPoint *ap, Error *err)
{
	for (int i = before; i < sc->specs[p].n; i++)
		if (sc->specs[p].v[i].prov->is_special == SPECIAL_SIGNAL && !codegen_hooks(sc)->self_probes)
			return probe_type_unknown("self", ap->text, ap->loc, err);
	return true;
}

/* later: an error bpftrace finds only after its semantic analysis (a second
 * BEGIN), reported when that finds none */
static bool expand_all(Script *sc, Error *err, Error *later)
{
	Program *ast = sc->ast;
	sc->specs = xcalloc((size_t)(ast->nprobes ? ast->nprobes : 1), sizeof(ProbeSpecList));
	const CodegenHooks *h = codegen_hooks(sc);
	int nbegin = 0, nend = 0;
	for (int p = 0; p < ast->nprobes; p++) {
		bool skipped = false;
		for (int a = 0; a < ast->probes[p]->naps; a++) {
			AttachPoint *ap = &ast->probes[p]->aps[a];
			if (h->late_clause && h->late_clause(sc, ast->probes[p]))
				break; /* after the others: h->link */
			ap->text = subst_params(sc, ap->text);
			int before = sc->specs[p].n;
			const char *was_dropped = sc->specs[p].dropped;
			bool ok = probe_expand(ap->text, ap->loc, &sc->opt.target, &sc->specs[p], err);
			/* a uprobe function missing from its file: dropped by the
			 * provider (0.17's rule), missing under missing_probes */
			if (ok && sc->specs[p].dropped != was_dropped && sc->opt.missing_probes) {
				error_at(err, ap->loc, "%s", sc->specs[p].dropped);
				err->missing = true;
				ok = false;
			}
			if (!ok) {
				if (!skip_missing(sc, p, ap, before, err))
					return false;
				skipped = true;
				continue;
			}
			if (!self_probe_known(sc, p, before, ap, err))
				return false;
			for (int i = before; i < sc->specs[p].n; i++) {
				sc->specs[p].v[i].ap = ap;
				if (!check_insn_boundary(sc, &sc->specs[p].v[i], err))
					return false;
			}
			/* as in bpftrace: one BEGIN and one END at most */
			for (int i = before; i < sc->specs[p].n; i++) {
				const Provider *pv = sc->specs[p].v[i].prov;
				int *cnt = pv->is_special == SPECIAL_BEGIN ? &nbegin
					   : pv->is_special == SPECIAL_END ? &nend : NULL;
				if (cnt && ++*cnt > 1 && !h->many_begin_end) /* D: any number */
					error_at(later, ap->loc, "More than one %s probe defined", pv->name);
			}
		}
		warn_removed(sc, p, skipped);
		sc->nattach += sc->specs[p].n;
	}
	if (h->link && !h->link(sc, err))
		return false;
	if (!ast->nprobes)
		return error_at(err, (Loc){0}, "the program has no probes");
	if (!sc->nattach)
		return no_probes_left(sc, err);
	return true;
}

/* A probe whose attach points were all dropped still declares its maps, as
 * in bpftrace (they print at exit, empty): its body is checked against a
 * stand-in of its first attach point, errors ignored; no code is made. */
static void sema_dropped(Sema *s, Script *sc, int p)
{
	const Probe *pr = sc->ast->probes[p];
	const char *text = pr->aps[0].text;
	char *type = xstrndup(text, strcspn(text, ":"));
	ProbeSpec stand_in = {.prov = provider_find(type), .loc = pr->aps[0].loc,
			      .name = (char *)text, .func = (char *)"", .target = (char *)"",
			      .ap = &pr->aps[0]};
	free(type);
	if (!stand_in.prov)
		return;
	Error ignored = {0};
	Error *keep = s->err;
	s->err = &ignored;
	sema_probe(s, pr, &stand_in);
	s->err = keep;
}

static bool sema_pass(Script *sc, Sema *s, bool strict, Error *err)
{
	Error scratch_err = {0};
	bool ok = true;
	s->strict = strict;
	s->warn = strict;
	s->err = strict ? err : &scratch_err;
	/* bpftrace lists every error of its pass; dtrace stops at the first */
	s->all = strict && sc->opt.sema->every_error;
	s->changed = false;
	for (int p = 0; p < sc->ast->nprobes; p++) {
		if (!sc->specs[p].n && sc->specs[p].dropped && sc->ast->probes[p]->naps)
			sema_dropped(s, sc, p);
		for (int i = 0; i < sc->specs[p].n; i++) {
			/* a wildcard's group shares one program: its first member
			 * stands for all (same provider, same registers) */
			if (sc->specs[p].v[i].group_idx > 0)
				continue;
			scratch_err.set = false;
			if (!sema_probe(s, sc->ast->probes[p], &sc->specs[p].v[i]) && strict) {
				ok = false;
				if (!s->all)
					return false;
			}
		}
	}
	s->all = false;
	if (strict)
		error_keep_first_tier(err);
	return ok && !err->set;
}

static bool generate_all(Script *sc, Sema *s, Error *err)
{
	s->warn = false;
	s->changed = false;
	for (int p = 0; p < sc->ast->nprobes; p++)
		for (int i = 0; i < sc->specs[p].n; i++) {
			const Probe *pr = sc->ast->probes[p];
			if (sc->specs[p].v[i].group_idx > 0)
				continue; /* runs its group's first program */
			if (!sema_probe(s, pr, &sc->specs[p].v[i]))
				return false;
			if (!codegen_probe(sc, pr, &sc->specs[p].v[i], s->vars.v, s->vars.n, err))
				return false;
			if (s->changed)
				return error_at(err, pr->loc, "internal error: map types changed "
						"during code generation");
		}
	return true;
}

static bool check_maps(Script *sc, Error *err)
{
	for (int i = 0; i < sc->maps.n; i++) {
		MapInfo *m = sc->maps.v[i];
		if (!m->val)
			return error_at(err, m->loc, "map %s is used but never assigned a value",
					m->print_name);
	}
	return true;
}

/* Keys each map holds: map_keys_max (BPFTRACE_MAP_KEYS_MAX, 4096); in D,
 * as many as fit in -x aggsize bytes for an aggregation and -x dynvarsize
 * bytes for an associative array or thread-local, when given (as Oracle's
 * dtrace-utils sizes its maps: bytes / (key + value), here per map).
 * Fewer when the program provably makes fewer keys (key_bound: @[func] in
 * a probe on N functions makes at most N): the kernel preallocates every
 * entry, and under the VM lane's emulation 4096 per-CPU entries cost
 * 60-180 ms of start-up.  Such a map never fills either way, so nothing a
 * user sees changes: the kernel's preallocated hash holds exactly
 * max_entries keys (a new key takes a free element, a per-CPU value is
 * updated in place, a plain one through a spare element per CPU), so no
 * margin is needed.  At least 8 keys all the same: the kernel locks a
 * hash's buckets through min(buckets, 8) per-CPU slots, and a smaller map
 * would share them more (an update re-entered on a CPU fails -EBUSY). */
enum { MAP_KEYS_MIN = 8 };
static void size_maps(Script *sc)
{
	for (int i = 0; i < sc->maps.n; i++) {
		MapInfo *m = sc->maps.v[i];
		int64_t n = sc->opt.map_keys_max;
		if (m->decl_entries) { /* as the script declares it */
			m->max_entries = (int)m->decl_entries;
			continue;
		}
		if (codegen_hooks(sc)->map_entries)
			n = codegen_hooks(sc)->map_entries(&sc->opt, m, n);
		if (m->key_bound > 0 && m->key_bound < n)
			n = m->key_bound < MAP_KEYS_MIN ? (n < MAP_KEYS_MIN ? n : MAP_KEYS_MIN) : m->key_bound;
		m->max_entries = (int)n;
	}
}

/* bpftrace prints the warnings of its final pass as it finds them, so
 * before that pass's errors: when those are what is reported, the
 * warnings go first in the list (Error.warning) */
static void warnings_before_errors(Script *sc, Error *err)
{
	if (!err->set || err->tier != ERR_TIER_FINAL || !sc->warnings.n)
		return;
	Error *rest = arena_alloc(&sc->ast->arena, sizeof(Error));
	*rest = *err;
	for (int i = sc->warnings.n - 1; i >= 0; i--) {
		Error *w = arena_alloc(&sc->ast->arena, sizeof(Error));
		*w = sc->warnings.v[i];
		w->warning = true;
		w->next = rest;
		rest = w;
	}
	*err = *rest;
}

Script *compile_program(Program *ast, const Options *opt, Error *err)
{
	Script *sc = xcalloc(1, sizeof(Script));
	sc->ast = ast;
	sc->opt = *opt;
	if (!sc->opt.target.sym) /* the providers read the same */
		sc->opt.target.sym = sc->opt.sym;
	sc->zero_size = 8;
	sc->expands = arena_alloc(&sc->arena, sizeof(bool) * (size_t)(ast->nprobes + 1));
	Sema s = {.sc = sc};
	Error later = {0};
	bool ok = sema_ctype_setup(sc, err) && expand_all(sc, err, &later);
	/* lenient passes until map types stop changing: a map read before the
	 * probe that assigns it gets its type, and strings settle on their
	 * widest size before any code depends on a layout */
	for (int pass = 0; ok && pass < 32; pass++) {
		sema_pass(sc, &s, false, err);
		if (!s.changed)
			break;
	}
	ok = ok && sema_pass(sc, &s, true, err) && sema_map_decls(&s);
	if (!ok)
		warnings_before_errors(sc, err);
	ok = ok && (!codegen_hooks(sc)->check || codegen_hooks(sc)->check(ast, err));
	if (ok && later.set) {
		*err = later;
		ok = false;
	}
	ok = ok && check_maps(sc, err) && generate_all(sc, &s, err);
	if (ok)
		size_maps(sc);
	vec_free(&s.vars);
	if (!ok) {
		script_free(sc);
		return NULL;
	}
	return sc;
}

void script_free(Script *sc)
{
	if (!sc)
		return;
	for (int i = 0; i < sc->progs.n; i++) {
		free(sc->progs.v[i]->insns);
		free(sc->progs.v[i]->lines);
		free(sc->progs.v[i]->relocs);
		free(sc->progs.v[i]->funcs);
	}
	for (int i = 0; i < sc->fmts.n; i++)
		fmt_free(sc->fmts.v[i]);
	vec_free(&sc->fmts);
	vec_free(&sc->warnings);
	if (sc->specs)
		for (int p = 0; p < sc->ast->nprobes; p++)
			probe_spec_list_free(&sc->specs[p]);
	free(sc->specs);
	if (sc->cdefs) {
		vec_free(&sc->cdefs->names);
		vec_free(&sc->cdefs->sys_seen);
	}
	vec_free(&sc->maps);
	str_index_free(&sc->map_ids);
	vec_free(&sc->events);
	vec_free(&sc->progs);
	sb_free(&sc->rodata);
	arena_free(&sc->arena);
	free(sc);
}
