/* -f pprof: the maps keyed by stacks, as one profile.proto message
 * (build/gen/profile.pb-c.h, from src/export/profile.proto by protoc-c),
 * gzipped as pprof files are.  Each map is a sample type (its values in its
 * own column); a map entry is a sample whose locations are its kernel
 * frames then its user frames, innermost first; the key's other elements
 * (comm, pid...) are labels key0, key1... as in --metrics.  Frames carry
 * their function names (has_functions): sonde symbolizes as it prints
 * stacks, so no tool needs the binaries again; a mapping per module with
 * the addresses its frames had and the module's GNU build id (the
 * kernel's from /sys/kernel/notes). */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include "../sym/libdw_load.h"

#include "profile.pb-c.h"
#include "metrics.h"
#include "pprof.h"
#include "../runtime/frontend_rt.h"
#include "../runtime/stack_merge.h"
#include "../util/bytes.h"
#include "../util/strindex.h"

typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Function Function;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__Label Label;

#define KERNEL_MODULE "[kernel.kallsyms]"

/* a sample before the number of sample types is known */
typedef struct PSample {
	int type;
	int64_t value;
	uint64_t *locs;
	size_t nlocs;
	Label **labels;
	size_t nlabels;
} PSample;

struct Pprof {
	char *path;
	FILE *f;
	uint64_t start_ns;
	VEC(char *) strs;  /* the string table */
	StrIndex str_ix;
	VEC(char *) keys;  /* the index keys below own their text here */
	StrIndex loc_ix, func_ix, map_ix;
	VEC(Location *) locs;
	VEC(Function *) funcs;
	VEC(Mapping *) maps;
	VEC(Perftools__Profiles__ValueType *) types;
	VEC(PSample) samples;
	MapsSink sink;
};

static uint64_t wall_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

Pprof *pprof_new(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "wb");
	if (!f) {
		snprintf(err, errlen, "-f pprof: cannot write '%s': %s", path, strerror(errno));
		return NULL;
	}
	Pprof *p = xcalloc(1, sizeof(*p));
	p->path = xstrdup(path);
	p->f = f;
	p->start_ns = wall_ns();
	vec_push(&p->strs, xstrdup("")); /* string 0 is "" */
	str_index_put(&p->str_ix, p->strs.v[0], 0);
	return p;
}

static int64_t str_id(Pprof *p, const char *s)
{
	int *id = str_index_find(&p->str_ix, s);
	if (id)
		return *id;
	vec_push(&p->strs, xstrdup(s));
	str_index_put(&p->str_ix, p->strs.v[p->strs.n - 1], p->strs.n - 1);
	return p->strs.n - 1;
}

/* an index key owned by p */
static const char *own_key(Pprof *p, const char *k)
{
	vec_push(&p->keys, xstrdup(k));
	return p->keys.v[p->keys.n - 1];
}

/* ---- which maps, and their sample types ---- */

bool pprof_takes(const MapDesc *m)
{
	const Type *k = m->key;
	TypeKind v = m->val->kind;
	if (!k || (v != TY_COUNT && v != TY_SUM && (v != TY_INT || m->val->pointee)))
		return false;
	if (stack_type_is(k))
		return true;
	for (int i = 0; k->kind == TY_TUPLE && i < k->nelem; i++)
		if (stack_type_is(k->elem[i]))
			return true;
	return false;
}

void pprof_sample_type(const MapDesc *m, StrBuf *type, const char **unit)
{
	static const struct { const char *suffix, *unit; } units[] = {
		{"_ns", "nanoseconds"}, {"_us", "microseconds"}, {"_bytes", "bytes"},
	};
	const char *name = m->name[0] == '@' ? m->name + 1 : m->name;
	size_t len = strlen(name);
	*unit = "count";
	for (size_t i = 0; m->val->kind != TY_COUNT && i < sizeof(units) / sizeof(units[0]); i++) {
		size_t sl = strlen(units[i].suffix);
		if (len > sl && !strcmp(name + len - sl, units[i].suffix)) {
			*unit = units[i].unit;
			len -= sl;
			break;
		}
	}
	if (len)
		sb_putn(type, name, len);
	else
		sb_puts(type, m->val->kind == TY_COUNT ? "samples" : "value");
}

/* ---- build ids ---- */

static void put_hex_bytes(StrBuf *sb, const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sb_printf(sb, "%02x", b[i]);
}

/* the kernel's: /sys/kernel/notes holds its ELF notes */
static void kernel_build_id(StrBuf *sb)
{
	unsigned char buf[4096];
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
	if (fd >= 0)
		close(fd);
	for (ssize_t off = 0; off + 12 <= n;) {
		uint32_t namesz, descsz, type;
		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		ssize_t name = off + 12, desc = name + ((namesz + 3) & ~3u);
		if (desc + (ssize_t)descsz > n)
			return;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(buf + name, "GNU", 4)) {
			put_hex_bytes(sb, buf + desc, descsz);
			return;
		}
		off = desc + ((descsz + 3) & ~3u);
	}
}

static void file_build_id(StrBuf *sb, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	const void *id;
	ssize_t n = elf ? dwelf_elf_gnu_build_id(elf, &id) : -1;
	if (n > 0)
		put_hex_bytes(sb, id, (size_t)n);
	if (elf)
		elf_end(elf);
	close(fd);
}

/* ---- mappings, functions, locations ---- */

static uint64_t mapping_id(Pprof *p, const char *module, uint64_t ip)
{
	int *id = str_index_find(&p->map_ix, module);
	if (id) {
		Mapping *m = p->maps.v[*id - 1];
		if (ip < m->memory_start)
			m->memory_start = ip;
		if (ip >= m->memory_limit)
			m->memory_limit = ip + 1;
		return (uint64_t)*id;
	}
	Mapping *m = xcalloc(1, sizeof(*m));
	perftools__profiles__mapping__init(m);
	StrBuf bid = {0};
	if (!strcmp(module, KERNEL_MODULE))
		kernel_build_id(&bid);
	else if (module[0] == '/')
		file_build_id(&bid, module);
	m->id = (uint64_t)p->maps.n + 1;
	m->memory_start = ip;
	m->memory_limit = ip + 1;
	m->filename = str_id(p, module);
	m->build_id = str_id(p, bid.s ? bid.s : "");
	m->has_functions = true;
	sb_free(&bid);
	vec_push(&p->maps, m);
	str_index_put(&p->map_ix, own_key(p, module), (int)m->id);
	return m->id;
}

static uint64_t function_id(Pprof *p, const char *name, const char *module)
{
	StrBuf key = {0};
	sb_printf(&key, "%s\t%s", name, module);
	int *id = str_index_find(&p->func_ix, key.s);
	if (id) {
		sb_free(&key);
		return (uint64_t)*id;
	}
	Function *f = xcalloc(1, sizeof(*f));
	perftools__profiles__function__init(f);
	f->id = (uint64_t)p->funcs.n + 1;
	f->name = f->system_name = str_id(p, name);
	f->filename = str_id(p, module);
	vec_push(&p->funcs, f);
	str_index_put(&p->func_ix, own_key(p, key.s), (int)f->id);
	sb_free(&key);
	return f->id;
}

/* a location with one line, in the profile's list */
static Location *new_location(Pprof *p)
{
	Location *l = xcalloc(1, sizeof(*l));
	perftools__profiles__location__init(l);
	l->id = (uint64_t)p->locs.n + 1;
	l->n_line = 1;
	l->line = xcalloc(1, sizeof(*l->line));
	l->line[0] = xcalloc(1, sizeof(**l->line));
	perftools__profiles__line__init(l->line[0]);
	vec_push(&p->locs, l);
	return l;
}

/* where frames are missing: a function "[...]", as -f folded names it */
static uint64_t gap_location_id(Pprof *p)
{
	int *id = str_index_find(&p->loc_ix, "gap");
	if (id)
		return (uint64_t)*id;
	Location *l = new_location(p);
	l->line[0]->function_id = function_id(p, "[...]", "");
	str_index_put(&p->loc_ix, own_key(p, "gap"), (int)l->id);
	return l->id;
}

/* The location of frame ip of stack value d (type t); its function as
 * -f folded names it when there is no symbol: "[module]" or "[unknown]" */
static uint64_t location_id(Pprof *p, const OutCtx *o, const Type *t, const void *d, uint64_t ip)
{
	bool kernel = t->kind == TY_KSTACK;
	char key[64], unknown[256];
	snprintf(key, sizeof(key), kernel ? "k%llx" : "u%lld:%llx",
		 kernel ? (unsigned long long)ip : (unsigned long long)rd64((const char *)d + 8),
		 (unsigned long long)ip);
	int *id = str_index_find(&p->loc_ix, key);
	if (id)
		return (uint64_t)*id;
	uint64_t off;
	const char *mod = NULL, *found = stack_frame_name_o(o, t, d, ip, &off, &mod);
	char *name = found ? xstrdup(found) : NULL; /* a user name's storage is reused */
	const char *module = kernel ? KERNEL_MODULE : mod ? mod : "[unknown]";
	if (!name) {
		const char *base = strrchr(module, '/');
		snprintf(unknown, sizeof(unknown), "%s%s%s", base ? "[" : "", base ? base + 1 : module,
			 base ? "]" : "");
		name = xstrdup(unknown);
	}
	Location *l = new_location(p);
	l->address = ip;
	l->mapping_id = mapping_id(p, module, ip);
	l->line[0]->function_id = function_id(p, name, module);
	free(name);
	str_index_put(&p->loc_ix, own_key(p, key), (int)l->id);
	return l->id;
}

/* A Python frame's location: its function and file, the line it was at
 * (no address, no mapping); a code object sonde did not cache is named as
 * -f folded names it */
static uint64_t py_location_id(Pprof *p, const OutCtx *o, const MergedFrame *f)
{
	PyFrameParts fp;
	char key[512];
	if (!frontend_rt(o)->pystack->frame_parts(o->pycode_fd, f->d, f->py, &fp))
		snprintf(fp.name, sizeof(fp.name), "[code 0x%llx]", (unsigned long long)fp.code);
	snprintf(key, sizeof(key), "py\t%s\t%s\t%d", fp.name, fp.file, fp.line);
	int *id = str_index_find(&p->loc_ix, key);
	if (id)
		return (uint64_t)*id;
	Location *l = new_location(p);
	l->line[0]->function_id = function_id(p, fp.name, fp.file);
	l->line[0]->line = fp.line > 0 ? fp.line : 0;
	str_index_put(&p->loc_ix, own_key(p, key), (int)l->id);
	return l->id;
}

/* ---- samples ---- */

static uint64_t frame_location(Pprof *p, const OutCtx *o, const MergedFrame *f)
{
	if (f->kind == SF_NATIVE)
		return location_id(p, o, f->t, f->d, f->ip);
	if (f->kind == SF_PYTHON)
		return py_location_id(p, o, f);
	return gap_location_id(p);
}

/* the key's merged stack, innermost frame first */
static void add_frames(Pprof *p, const OutCtx *o, PSample *s, const Type *k, const void *key)
{
	MergedStack st = {0};
	stack_merge(o, k, key, &st);
	s->locs = xcalloc((size_t)st.n + 1, sizeof(uint64_t));
	for (int i = st.n - 1; i >= 0; i--)
		s->locs[s->nlocs++] = frame_location(p, o, &st.v[i]);
	vec_free(&st);
}

static void add_label(Pprof *p, const OutCtx *o, PSample *s, const Type *mkey, int i,
		      const void *d)
{
	Label *l = xcalloc(1, sizeof(*l));
	const Type *t = mkey->kind == TY_TUPLE ? mkey->elem[i] : mkey;
	perftools__profiles__label__init(l);
	char key[64];
	metrics_key_name(key, sizeof(key), mkey, i);
	l->key = str_id(p, key);
	if (t->kind == TY_INT) {
		l->num = rd64(d);
	} else {
		StrBuf v = {0};
		OutCtx text = *o;
		text.fmt = OUT_TEXT;
		value_format(&v, &text, t, d, true);
		l->str = str_id(p, v.s ? v.s : "");
		sb_free(&v);
	}
	s->labels = xrealloc(s->labels, (s->nlabels + 1) * sizeof(Label *));
	s->labels[s->nlabels++] = l;
}

/* the key's stacks merged (kernel frames on the leaf side, Python frames
 * in place of the eval loop's: stack_merge.c); other elements are labels */
static void add_sample(Pprof *p, const OutCtx *o, const MapDesc *m, int type, const MapEntry *e)
{
	const Type *k = m->key;
	int n = k->kind == TY_TUPLE ? k->nelem : 1;
	PSample s = {.type = type, .value = rd64(e->val)};
	add_frames(p, o, &s, k, e->key);
	for (int i = 0; i < n; i++) {
		const Type *t = k->kind == TY_TUPLE ? k->elem[i] : k;
		const char *d = (const char *)e->key + (k->kind == TY_TUPLE ? k->offset[i] : 0);
		if (!stack_type_is(t))
			add_label(p, o, &s, k, i, d);
	}
	if (s.nlocs && s.value)
		vec_push(&p->samples, s);
	else { /* no frame: the kernel could not take the stacks */
		for (size_t i = 0; i < s.nlabels; i++)
			free(s.labels[i]);
		free(s.labels);
		free(s.locs);
	}
}

static bool sink_take(void *self, const OutCtx *o, const MapDesc *m)
{
	Pprof *p = self;
	if (!pprof_takes(m))
		return false;
	StrBuf type = {0};
	const char *unit;
	pprof_sample_type(m, &type, &unit);
	Perftools__Profiles__ValueType *vt = xcalloc(1, sizeof(*vt));
	perftools__profiles__value_type__init(vt);
	vt->type = str_id(p, type.s);
	vt->unit = str_id(p, unit);
	sb_free(&type);
	vec_push(&p->types, vt);
	MapEntry *e;
	void *mem;
	int n = map_read(m, &e, &mem);
	for (int i = 0; i < n; i++)
		add_sample(p, o, m, p->types.n - 1, &e[i]);
	free(e);
	free(mem);
	return true;
}

/* ---- writing ---- */

static bool write_gz(Pprof *p, const uint8_t *buf, size_t len, char *err, size_t errlen)
{
	fflush(p->f);
	int fd = dup(fileno(p->f));
	gzFile gz = fd >= 0 ? gzdopen(fd, "wb") : NULL;
	bool ok = gz && gzwrite(gz, buf, (unsigned)len) == (int)len;
	if (gz)
		ok &= gzclose(gz) == Z_OK;
	else if (fd >= 0)
		close(fd);
	if (!ok)
		snprintf(err, errlen, "-f pprof: writing '%s' failed: %s", p->path, strerror(errno));
	return ok;
}

/* pprof takes the first mapping for the main binary: files first, the
 * kernel last (ids renumbered, locations follow) */
static void order_mappings(Pprof *p)
{
	int n = p->maps.n, k = 0;
	Mapping **sorted = xcalloc((size_t)n + 1, sizeof(Mapping *));
	uint64_t *new_id = xcalloc((size_t)n + 1, sizeof(uint64_t));
	for (int rank = 0; rank < 3; rank++)
		for (int i = 0; i < n; i++) {
			const char *file = p->strs.v[p->maps.v[i]->filename];
			int r = file[0] == '/' ? 0 : strcmp(file, KERNEL_MODULE) ? 1 : 2;
			if (r != rank)
				continue;
			new_id[i] = (uint64_t)k + 1;
			sorted[k++] = p->maps.v[i];
		}
	for (int i = 0; i < n; i++)
		sorted[i]->id = (uint64_t)i + 1;
	for (int i = 0; i < p->locs.n; i++)
		p->locs.v[i]->mapping_id = new_id[p->locs.v[i]->mapping_id - 1];
	memcpy(p->maps.v, sorted, sizeof(Mapping *) * (size_t)n);
	free(sorted);
	free(new_id);
}

static bool sink_done(void *self, char *err, size_t errlen)
{
	Pprof *p = self;
	order_mappings(p);
	Perftools__Profiles__Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	size_t nt = (size_t)p->types.n;
	Perftools__Profiles__Sample **samples = xcalloc((size_t)p->samples.n + 1, sizeof(*samples));
	int64_t *values = xcalloc((size_t)p->samples.n * nt + 1, sizeof(int64_t));
	for (int i = 0; i < p->samples.n; i++) {
		PSample *s = &p->samples.v[i];
		samples[i] = xcalloc(1, sizeof(**samples));
		perftools__profiles__sample__init(samples[i]);
		samples[i]->n_location_id = s->nlocs;
		samples[i]->location_id = s->locs;
		samples[i]->n_value = nt;
		samples[i]->value = values + (size_t)i * nt;
		samples[i]->value[s->type] = s->value;
		samples[i]->n_label = s->nlabels;
		samples[i]->label = s->labels;
	}
	prof.n_sample_type = nt;
	prof.sample_type = p->types.v;
	prof.n_sample = (size_t)p->samples.n;
	prof.sample = samples;
	prof.n_mapping = (size_t)p->maps.n;
	prof.mapping = p->maps.v;
	prof.n_location = (size_t)p->locs.n;
	prof.location = p->locs.v;
	prof.n_function = (size_t)p->funcs.n;
	prof.function = p->funcs.v;
	prof.n_string_table = (size_t)p->strs.n;
	prof.string_table = p->strs.v;
	prof.time_nanos = (int64_t)p->start_ns;
	prof.duration_nanos = (int64_t)(wall_ns() - p->start_ns);
	size_t len = perftools__profiles__profile__get_packed_size(&prof);
	uint8_t *buf = xmalloc(len + 1);
	perftools__profiles__profile__pack(&prof, buf);
	bool ok = write_gz(p, buf, len, err, errlen);
	if (ok && !p->samples.n)
		fprintf(stderr, "sonde: -f pprof: no map keyed by stacks had samples: %s is empty\n",
			p->path);
	free(buf);
	for (int i = 0; i < p->samples.n; i++)
		free(samples[i]);
	free(samples);
	free(values);
	return ok;
}

const MapsSink *pprof_sink(Pprof *p)
{
	p->sink = (MapsSink){.self = p, .take = sink_take, .done = sink_done};
	return &p->sink;
}

static void free_locations(Pprof *p)
{
	for (int i = 0; i < p->locs.n; i++) {
		free(p->locs.v[i]->line[0]);
		free(p->locs.v[i]->line);
		free(p->locs.v[i]);
	}
	vec_free(&p->locs);
}

void pprof_free(Pprof *p)
{
	if (!p)
		return;
	free_locations(p);
	for (int i = 0; i < p->samples.n; i++) {
		for (size_t j = 0; j < p->samples.v[i].nlabels; j++)
			free(p->samples.v[i].labels[j]);
		free(p->samples.v[i].labels);
		free(p->samples.v[i].locs);
	}
	vec_free(&p->samples);
	VEC(void *) *lists[] = {(void *)&p->strs, (void *)&p->keys, (void *)&p->funcs,
				(void *)&p->maps, (void *)&p->types};
	for (size_t l = 0; l < sizeof(lists) / sizeof(lists[0]); l++) {
		for (int i = 0; i < lists[l]->n; i++)
			free(lists[l]->v[i]);
		vec_free(lists[l]);
	}
	StrIndex *ix[] = {&p->str_ix, &p->loc_ix, &p->func_ix, &p->map_ix};
	for (size_t i = 0; i < sizeof(ix) / sizeof(ix[0]); i++)
		str_index_free(ix[i]);
	if (p->f)
		fclose(p->f);
	free(p->path);
	free(p);
}
