/* tracefs: locating (and if needed mounting) it, enumerating tracepoints and
 * parsing their format files. */
#include "tracefs.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "../util/sort.h"
#include "../util/util.h"

static bool has_events_dir(const char *dir)
{
	char p[1024];
	struct stat st;
	snprintf(p, sizeof(p), "%s/events", dir);
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The first tracefs mount point in /proc/mounts, or NULL.  A mount listed
 * there is authoritative even when it lives somewhere unusual. */
static char *mounted_tracefs(void)
{
	FILE *f = fopen("/proc/mounts", "r");
	if (!f)
		return NULL;
	char line[1024], *found = NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		char dev[256], dir[512], fs[64];
		if (sscanf(line, "%255s %511s %63s", dev, dir, fs) == 3 &&
		    !strcmp(fs, "tracefs") && has_events_dir(dir))
			found = xstrdup(dir);
	}
	fclose(f);
	return found;
}

static const char *find_tracefs(void)
{
	char *m = mounted_tracefs();
	if (m)
		return m;
	if (has_events_dir("/sys/kernel/tracing"))
		return "/sys/kernel/tracing";
	/* Touching the debugfs path automounts tracefs on older kernels. */
	if (has_events_dir("/sys/kernel/debug/tracing"))
		return "/sys/kernel/debug/tracing";
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) == 0 &&
	    has_events_dir("/sys/kernel/tracing"))
		return "/sys/kernel/tracing";
	return NULL;
}

const char *tracefs_denied(void)
{
	static const char *const dirs[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};
	char p[64];
	struct stat st;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(p, sizeof(p), "%s/events", dirs[i]);
		if (stat(p, &st) < 0 && errno == EACCES)
			return dirs[i];
	}
	return NULL;
}

/* Where tracefs is mounted is the same for every run of the process: found
 * once, kept here rather than in a run's SymCtx. */
const char *tracefs_dir(void)
{
	static const char *dir;
	static bool done;
	if (!done) {
		dir = find_tracefs();
		done = true;
	}
	return dir;
}

/* ---- format files ---- */

/* Category and event names are single path components. */
static bool valid_component(const char *s)
{
	return *s && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

/* Copy s[0..n) collapsing whitespace runs to one space and trimming. */
static char *squeeze(const char *s, size_t n)
{
	char *out = xmalloc(n + 1), *o = out;
	for (size_t i = 0; i < n; i++) {
		bool sp = s[i] == ' ' || s[i] == '\t';
		if (sp && (o == out || o[-1] == ' '))
			continue;
		*o++ = sp ? ' ' : s[i];
	}
	while (o > out && o[-1] == ' ')
		o--;
	*o = 0;
	return out;
}

static bool is_ident(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* Split a (whitespace-squeezed) declaration "const char * filename" /
 * "char comm[16]" / "__data_loc char[] name" into name and normalized type:
 * the name's array suffix moves onto the type without a space
 * ("char[16]"). */
static void parse_decl(const char *decl, TpField *f)
{
	size_t n = strlen(decl);
	/* A trailing "[N]" belongs to the name ("char comm[16]"); brackets
	 * before the name ("char[] name") are already part of the type. */
	const char *br = n && decl[n - 1] == ']' ? strrchr(decl, '[') : NULL;
	const char *name_end = br ? br : decl + n;
	while (name_end > decl && name_end[-1] == ' ')
		name_end--;
	const char *name = name_end;
	while (name > decl && is_ident(name[-1]))
		name--;
	f->name = xstrndup(name, name_end - name);
	StrBuf t = {0};
	char *base = squeeze(decl, name - decl);
	sb_puts(&t, base);
	free(base);
	if (br) {
		sb_puts(&t, br);
		f->array_len = (int)strtol(br + 1, NULL, 0);
	}
	f->type = t.s ? t.s : xstrdup("");
}

static bool is_char_type(const char *t, size_t n)
{
	return (n == 4 && !strncmp(t, "char", 4)) ||
	       (n == 10 && !strncmp(t, "const char", 10));
}

static void classify(TpField *f)
{
	const char *t = f->type;
	f->is_ptr = strchr(t, '*') != NULL;
	f->is_data_loc = !strncmp(t, "__data_loc ", 11);
	if (f->is_data_loc)
		t += 11;
	const char *br = strchr(t, '[');
	if (br)
		f->is_str = !f->is_ptr && is_char_type(t, br - t);
}

/* One "\tfield:DECL;\toffset:O;\tsize:S;\tsigned:G;" line. */
static bool parse_field_line(const char *line, TpField *f)
{
	const char *d = strstr(line, "field:");
	if (!d)
		return false;
	d += 6;
	const char *semi = strchr(d, ';');
	const char *o = strstr(line, "offset:"), *s = strstr(line, "size:");
	const char *g = strstr(line, "signed:");
	if (!semi || !o || !s)
		return false;
	memset(f, 0, sizeof(*f));
	char *decl = squeeze(d, semi - d);
	parse_decl(decl, f);
	free(decl);
	f->decl = xstrndup(d, semi - d); /* as written, for -lv */
	f->offset = atoi(o + 7);
	f->size = atoi(s + 5);
	f->is_signed = g && atoi(g + 7) != 0;
	classify(f);
	return true;
}

static void free_field(TpField *f)
{
	free(f->name);
	free(f->type);
	free(f->decl);
}

bool tp_format_parse(const char *text, TpFormat *out)
{
	memset(out, 0, sizeof(*out));
	out->id = -1;
	char *copy = xstrdup(text);
	VEC(TpField) v = {0};
	for (char *line = copy, *next; *line; line = next) {
		next = strchrnul(line, '\n');
		if (*next)
			*next++ = 0;
		if (!strncmp(line, "ID:", 3)) {
			out->id = atoi(line + 3);
			continue;
		}
		TpField f;
		if (!parse_field_line(line, &f))
			continue;
		if (!strncmp(f.name, "common_", 7)) {
			free_field(&f);
			continue;
		}
		vec_push(&v, f);
	}
	free(copy);
	out->fields = v.v;
	out->nfields = v.n;
	return out->id >= 0;
}

bool tracefs_read_format(const char *cat, const char *name, TpFormat *out,
			 char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	const char *dir = tracefs_dir();
	if (!dir) {
		snprintf(err, errlen, "tracefs is not mounted and could not be "
				      "mounted at /sys/kernel/tracing");
		return false;
	}
	char path[1024];
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, cat, name);
	char *text = valid_component(cat) && valid_component(name)
			     ? read_file_all(path, NULL)
			     : NULL;
	if (!text) {
		if (errno == EACCES || errno == EPERM)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		else
			snprintf(err, errlen, "tracepoint not found: %s:%s",
				 cat, name);
		return false;
	}
	bool ok = tp_format_parse(text, out);
	free(text);
	if (!ok) {
		snprintf(err, errlen, "%s: no ID line", path);
		tp_format_free(out);
		return false;
	}
	return true;
}

void tp_format_free(TpFormat *f)
{
	for (int i = 0; i < f->nfields; i++)
		free_field(&f->fields[i]);
	free(f->fields);
	f->fields = NULL;
	f->nfields = 0;
}

const TpField *tp_format_field(const TpFormat *f, const char *name)
{
	for (int i = 0; i < f->nfields; i++)
		if (!strcmp(f->fields[i].name, name))
			return &f->fields[i];
	return NULL;
}

/* ---- enumeration ---- */

typedef VEC(char *) StrVec;

/* "cat:name" lines of available_events: one read, and it leaves out the
 * ftrace-internal events (ftrace:function...) that can't be attached. */
static bool list_available_events(const char *dir, StrVec *out)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/available_events", dir);
	char *text = read_file_all(path, NULL);
	if (!text)
		return false;
	for (char *line = text, *next; *line; line = next) {
		next = strchrnul(line, '\n');
		if (*next)
			*next++ = 0;
		if (strchr(line, ':'))
			vec_push(out, xstrdup(line));
	}
	free(text);
	return true;
}

static void list_dir_entries(const char *path, const char *prefix,
			     StrVec *out)
{
	DIR *d = opendir(path);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || e->d_type != DT_DIR)
			continue;
		if (!prefix) {
			vec_push(out, xstrdup(e->d_name));
			continue;
		}
		StrBuf b = {0};
		sb_printf(&b, "%s:%s", prefix, e->d_name);
		vec_push(out, b.s);
	}
	closedir(d);
}

/* Fallback when available_events can't be read: walk events/CAT/NAME. */
static void list_events_dirs(const char *dir, const char *cat_glob,
			     StrVec *out)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/events", dir);
	StrVec cats = {0};
	list_dir_entries(path, NULL, &cats);
	for (int i = 0; i < cats.n; i++) {
		/* ftrace's own events aren't tracepoints (available_events
		 * leaves them out too). */
		if (strcmp(cats.v[i], "ftrace") &&
		    glob_match(cat_glob, cats.v[i])) {
			snprintf(path, sizeof(path), "%s/events/%s", dir,
				 cats.v[i]);
			list_dir_entries(path, cats.v[i], out);
		}
		free(cats.v[i]);
	}
	vec_free(&cats);
}

int tracefs_foreach(const char *cat_glob, const char *name_glob,
		    void (*fn)(const char *cat, const char *name, void *arg),
		    void *arg)
{
	const char *dir = tracefs_dir();
	if (!dir)
		return 0;
	StrVec all = {0};
	if (!list_available_events(dir, &all) || all.n == 0)
		list_events_dirs(dir, cat_glob, &all);
	/* Sort "cat:name" as whole strings, as bpftrace's listing does. */
	qsort(all.v, all.n, sizeof(*all.v), cmp_str);
	int count = 0;
	for (int i = 0; i < all.n; i++) {
		char *colon = strchr(all.v[i], ':');
		*colon = 0;
		bool dup = i > 0 && !strcmp(all.v[i - 1], all.v[i]) &&
			   !strcmp(strchr(all.v[i - 1], 0) + 1, colon + 1);
		if (!dup && glob_match(cat_glob, all.v[i]) &&
		    glob_match(name_glob, colon + 1)) {
			fn(all.v[i], colon + 1, arg);
			count++;
		}
	}
	for (int i = 0; i < all.n; i++)
		free(all.v[i]);
	vec_free(&all);
	return count;
}
