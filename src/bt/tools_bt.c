/* The ready tools.  Searched in order: $SONDE_TOOLS_DIR, tools/ next to the
 * binary (a build in the repository), ../share/sonde/tools from the binary
 * (an installed sonde under any prefix), then the directory `make install`
 * was given (SONDE_TOOLS_DIR). */
#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../util/util.h"
#include "../util/sort.h"
#include "tools_bt.h"

#ifndef SONDE_TOOLS_DIR
#define SONDE_TOOLS_DIR "/usr/local/share/sonde/tools"
#endif

/* The first directory of the search order that exists, malloc'ed. */
static char *tools_dir(void)
{
	const char *env = getenv("SONDE_TOOLS_DIR");
	if (env && *env)
		return is_dir(env) ? xstrdup(env) : NULL;
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		const char *bindir = dirname(exe);
		const char *rel[] = {"/tools", "/../share/sonde/tools"};
		for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			char p[PATH_MAX + 32];
			snprintf(p, sizeof(p), "%s%s", bindir, rel[i]);
			if (is_dir(p))
				return xstrdup(p);
		}
	}
	return is_dir(SONDE_TOOLS_DIR) ? xstrdup(SONDE_TOOLS_DIR) : NULL;
}

/* The header's " * NAME.bt<TAB>text" line and its tab-indented
 * continuation lines, joined. */
static void describe(const char *path, const char *file, StrBuf *out)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char line[512];
	bool in = false;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		const char *s = line + strspn(line, " *");
		if (!in && !strncmp(s, file, strlen(file)) && (s[strlen(file)] == '\t' || s[strlen(file)] == ' ')) {
			in = true;
			s += strlen(file);
		} else if (!in || strncmp(line, " *\t", 3)) {
			if (in)
				break;
			continue;
		}
		s += strspn(s, " \t");
		if (out->len)
			sb_putc(out, ' ');
		sb_puts(out, s);
	}
	fclose(f);
}

int tools_list(FILE *out)
{
	char *dir = tools_dir();
	DIR *d = dir ? opendir(dir) : NULL;
	if (!d) {
		fprintf(stderr, "sonde: no tools directory found (set SONDE_TOOLS_DIR)\n");
		free(dir);
		return 1;
	}
	VEC(char *) names = {0};
	for (struct dirent *e; (e = readdir(d));) {
		size_t n = strlen(e->d_name);
		if (n > 3 && !strcmp(e->d_name + n - 3, ".bt"))
			vec_push(&names, xstrdup(e->d_name));
	}
	closedir(d);
	qsort(names.v, (size_t)names.n, sizeof(char *), cmp_str);
	for (int i = 0; i < names.n; i++) {
		char path[PATH_MAX + 256];
		snprintf(path, sizeof(path), "%s/%s", dir, names.v[i]);
		StrBuf what = {0};
		describe(path, names.v[i], &what);
		names.v[i][strlen(names.v[i]) - 3] = 0;
		fprintf(out, "%-16s %s\n", names.v[i], what.s ? what.s : "");
		sb_free(&what);
		free(names.v[i]);
	}
	vec_free(&names);
	free(dir);
	return 0;
}

char *tool_path(const char *name)
{
	if (!*name || strchr(name, '/')) {
		fprintf(stderr, "sonde: --tool takes a tool's name (sonde --tools lists them), not '%s'\n",
			name);
		return NULL;
	}
	char *dir = tools_dir();
	if (!dir) {
		fprintf(stderr, "sonde: no tools directory found (set SONDE_TOOLS_DIR)\n");
		return NULL;
	}
	size_t n = strlen(name);
	bool has_ext = n > 3 && !strcmp(name + n - 3, ".bt");
	char path[PATH_MAX + 256];
	snprintf(path, sizeof(path), "%s/%s%s", dir, name, has_ext ? "" : ".bt");
	free(dir);
	if (access(path, R_OK) != 0) {
		fprintf(stderr, "sonde: no tool '%s' (sonde --tools lists them)\n", name);
		return NULL;
	}
	return xstrdup(path);
}

/* A script that does not compile here (bpftrace's own biolatency.bt on
 * kprobes, on a kernel without them) may have a sonde tool of its name,
 * written for what this machine has: say so.  Nothing when the script is
 * that tool. */
void tool_suggest(const char *file)
{
	const char *base = file ? strrchr(file, '/') : NULL;
	base = base ? base + 1 : file;
	size_t n = base ? strlen(base) : 0;
	if (n <= 3 || strcmp(base + n - 3, ".bt"))
		return;
	char *dir = tools_dir();
	if (!dir)
		return;
	char path[PATH_MAX + 256], real_tool[PATH_MAX], real_file[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, base);
	free(dir);
	if (access(path, R_OK) || !realpath(path, real_tool) ||
	    (realpath(file, real_file) && !strcmp(real_tool, real_file)))
		return;
	fprintf(stderr, "HINT: sonde has its own %s for this machine: sonde --tool %.*s\n", base,
		(int)(n - 3), base);
}

