/* The files the BINARY part of a uprobe/uretprobe/usdt attach point names,
 * as bpftrace 0.17 finds them:
 * - a wildcard is globbed as written and, when it has no '/', in every
 *   $PATH directory; of the matches, ELF shared objects and executable ELF
 *   programs count (sorted, each once);
 * - with -p, a process in another mount namespace sees its own files: a
 *   path is taken under /proc/PID/root (named so in `probe`, as bpftrace);
 * - with -p, no binary (or `*`) means the process's files: its program for
 *   uprobe:FUNC, every file it maps for usdt and for uprobe:*:FUNC; a
 *   wildcard without '/' (`*libc*`) picks among the files it maps.
 * A name without '/' that is not a wildcard (a library, a program in
 * $PATH) goes to resolve_binary. */
#include "uprobe_targets.h"

#include <fcntl.h>
#include <gelf.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../sym/elf_syms.h"
#include "../util/util.h"

bool pid_in_other_mntns(int pid)
{
	char path[64];
	struct stat self, other;
	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", pid);
	if (pid <= 0 || stat(path, &other) != 0 || stat("/proc/self/ns/mnt", &self) != 0)
		return false;
	return self.st_ino != other.st_ino || self.st_dev != other.st_dev;
}

char *path_in_pid_root(int pid, const char *path)
{
	char root[64];
	snprintf(root, sizeof(root), "/proc/%d/root", pid);
	if (!strncmp(path, root, strlen(root)))
		return xstrdup(path);
	StrBuf b = {0};
	sb_printf(&b, "%s%s%s", root, path[0] == '/' ? "" : "/", path);
	return b.s;
}

/* bpftrace's test: shared objects (PIEs too), and ET_EXEC programs that
 * may be executed */
static bool probe_able_elf(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	unsigned char h[EI_NIDENT + 2];
	bool ok = false;
	if (read(fd, h, sizeof(h)) == (ssize_t)sizeof(h) && !memcmp(h, ELFMAG, SELFMAG)) {
		uint16_t type;
		memcpy(&type, h + EI_NIDENT, 2);
		ok = type == ET_DYN || (type == ET_EXEC && access(path, X_OK) == 0);
	}
	close(fd);
	return ok;
}

static void add_unique(UTargets *t, char *path)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->v[i], path)) {
			free(path);
			return;
		}
	vec_push(t, path);
}

/* One glob pattern; in the process's namespace when root_pid > 0 */
static void glob_into(const char *pattern, int root_pid, UTargets *out)
{
	char *pat = root_pid > 0 ? path_in_pid_root(root_pid, pattern) : xstrdup(pattern);
	glob_t g;
	if (glob(pat, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++)
			if (probe_able_elf(g.gl_pathv[i]))
				add_unique(out, xstrdup(g.gl_pathv[i]));
		globfree(&g);
	}
	free(pat);
}

static void glob_target(const char *target, int pid, UTargets *out)
{
	int root_pid = pid > 0 && pid_in_other_mntns(pid) ? pid : 0;
	glob_into(target, root_pid, out);
	if (strchr(target, '/'))
		return;
	const char *env = getenv("PATH");
	char *dirs = xstrdup(env ? env : "");
	for (char *save, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		StrBuf b = {0};
		sb_printf(&b, "%s/%s", d, target);
		glob_into(b.s, root_pid, out);
		sb_free(&b);
	}
	free(dirs);
}

static bool not_found(const char *prov, const char *target, char *err, size_t errlen)
{
	/* uretprobe's files are "uprobe target file"s in bpftrace's words */
	snprintf(err, errlen, "%s target file '%s' does not exist or is not executable",
		 strcmp(prov, "usdt") ? "uprobe" : "usdt", target);
	return false;
}

/* The program of process pid, as that process sees it, under /proc/PID/root
 * (bpftrace names uprobe:FUNC with -p so) */
static bool pid_program(int pid, UTargets *out, char *err, size_t errlen)
{
	char link[64], exe[PATH_MAX];
	snprintf(link, sizeof(link), "/proc/%d/exe", pid);
	ssize_t n = readlink(link, exe, sizeof(exe) - 1);
	if (n <= 0) {
		snprintf(err, errlen, "pid %d: No such process", pid);
		return false;
	}
	exe[n] = 0;
	char *p = path_in_pid_root(pid, exe);
	if (access(p, F_OK) != 0) { /* deleted, or a memfd: reached through the link */
		free(p);
		p = xstrdup(link);
	}
	vec_push(out, p);
	return true;
}

/* Every file process pid maps executable (its program, the libraries it
 * links), under /proc/PID/root as bpftrace names them (map_files paths of
 * memfds and deleted files as they are) */
static bool pid_mapped_files(int pid, UTargets *out, char *err, size_t errlen)
{
	char **paths;
	int n = proc_binaries(pid, &paths);
	for (int i = 0; i < n; i++) {
		if (strncmp(paths[i], "/proc/", 6))
			add_unique(out, path_in_pid_root(pid, paths[i]));
		else
			add_unique(out, xstrdup(paths[i]));
		free(paths[i]);
	}
	free(paths);
	if (!n)
		snprintf(err, errlen, "pid %d: No such process", pid);
	return n > 0;
}

/* A path with '/' as process pid sees it: under /proc/PID/root when it
 * lives in another mount namespace, and for usdt always (bpftrace reads a
 * process's USDT probes through its root); relative paths from sonde's
 * directory in its own namespace */
static char *pid_path(const char *prov, const char *target, int pid)
{
	if (pid <= 0)
		return xstrdup(target);
	if (pid_in_other_mntns(pid))
		return path_in_pid_root(pid, target);
	if (strcmp(prov, "usdt"))
		return xstrdup(target);
	char *abs = realpath(target, NULL);
	char *p = path_in_pid_root(pid, abs ? abs : target);
	free(abs);
	return p;
}

/* A wildcard without '/' with -p ("*libc*", "wild_*"): the mapped files
 * whose name it matches (bpftrace 0.17 globs it in the current directory
 * and $PATH, which is seldom what is meant); false when none does */
static bool pid_mapped_matching(int pid, const char *pattern, UTargets *out)
{
	char **paths;
	int n = proc_binaries(pid, &paths), found = 0;
	for (int i = 0; i < n; i++) {
		const char *slash = strrchr(paths[i], '/');
		if (strncmp(paths[i], "/proc/", 6) && glob_match(pattern, slash ? slash + 1 : paths[i])) {
			add_unique(out, path_in_pid_root(pid, paths[i]));
			found++;
		}
		free(paths[i]);
	}
	free(paths);
	return found > 0;
}

/* A library short name ("libc", "libfoo.so") of a process in another
 * mount namespace: the first mapped file it names (sonde's own ld.so.cache
 * describes sonde's namespace, not the process's) */
static bool pid_library(const char *prov, const char *target, int pid, UTargets *out, char *err,
			size_t errlen)
{
	UTargets mapped = {0};
	char *found = NULL;
	if (pid_mapped_files(pid, &mapped, err, errlen)) {
		for (int i = 0; i < mapped.n && !found; i++) {
			const char *slash = strrchr(mapped.v[i], '/');
			if (lib_name_matches(target, slash ? slash + 1 : mapped.v[i]))
				found = xstrdup(mapped.v[i]);
		}
	}
	utargets_free(&mapped);
	if (!found)
		return not_found(prov, target, err, errlen);
	vec_push(out, found);
	return true;
}

bool utargets_resolve(const char *prov, const char *target, int pid, UTargets *out, char *err,
		      size_t errlen)
{
	if (pid > 0 && !*target && strcmp(prov, "usdt"))
		return pid_program(pid, out, err, errlen);
	if (pid > 0 && (!*target || !strcmp(target, "*")))
		return pid_mapped_files(pid, out, err, errlen);
	if (!*target && !strcmp(prov, "usdt")) {
		snprintf(err, errlen, "usdt probe must specify at least path or pid to probe");
		return false;
	}
	if (!*target) {
		snprintf(err, errlen, "uprobe should have a target");
		return false;
	}
	if (has_wildcard(target)) {
		if (pid > 0 && !strchr(target, '/') && pid_mapped_matching(pid, target, out))
			return true;
		glob_target(target, pid, out);
		return out->n || not_found(prov, target, err, errlen);
	}
	if (strchr(target, '/')) {
		char *p = pid_path(prov, target, pid);
		if (access(p, F_OK) != 0) {
			free(p);
			return not_found(prov, target, err, errlen);
		}
		vec_push(out, p); /* as given: `probe` shows it so */
		return true;
	}
	if (pid > 0 && pid_in_other_mntns(pid))
		return pid_library(prov, target, pid, out, err, errlen);
	char msg[512] = "";
	char *p = resolve_binary(target, pid, msg, sizeof(msg));
	if (!p && !*msg)
		return not_found(prov, target, err, errlen);
	if (!p) {
		snprintf(err, errlen, "%s: %s", prov, msg);
		return false;
	}
	vec_push(out, p);
	return true;
}

void utargets_free(UTargets *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->v[i]);
	vec_free(t);
}
