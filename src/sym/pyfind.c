/* Which CPython interpreter files a run reads Python stacks with: -p's
 * process's (its executable, or a libpython it maps, at the addresses that
 * process has it), a -c command's (its program, or the libpython3 it
 * links), else every CPython 3.11 of the system: /usr/bin/python3.11, the
 * libpython3.11 the dynamic loader finds, and the libpython3 files the
 * running processes map.  A file at the same addresses in every process (a
 * fixed-address executable) is PyLayout's fixed one; the others' addresses
 * are learned per process (runtime/pycode.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf_needed.h"
#include "elf_syms.h"
#include "proc_scan.h"
#include "pylayout.h"
#include "../util/util.h"

/* Load bias of path in process pid, from its first mapping of the file. */
static bool load_bias(SymCtx *sc, int pid, const char *path, uint64_t *bias)
{
	char mp[64], line[4096 + 128], err[128];
	snprintf(mp, sizeof(mp), "/proc/%d/maps", pid);
	FILE *f = fopen(mp, "re");
	bool found = false;
	const ElfFile *ef = elf_get(sc, path, err, sizeof(err));
	while (f && ef && !found && fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, off;
		char file[4096] = "";
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %4095s", &lo, &hi, &off, file) < 4 ||
		    strcmp(file, path))
			continue;
		uint64_t va = elf_offset_to_vaddr(ef, off);
		if (va != (uint64_t)-1) {
			*bias = lo - va;
			found = true;
		}
	}
	if (f)
		fclose(f);
	return found;
}

/* The file holding _PyRuntime for pid: its executable, or a libpython it maps. */
static bool python_of_pid(int pid, char *path, size_t n)
{
	char link[64];
	snprintf(link, sizeof(link), "/proc/%d/exe", pid);
	ssize_t k = readlink(link, path, n - 1);
	if (k > 0) {
		path[k] = 0;
		if (py_has_runtime(path))
			return true;
	}
	char **paths = NULL;
	int np = proc_binaries(pid, &paths);
	bool ok = false;
	for (int i = 0; i < np; i++) {
		if (!ok && strstr(paths[i], "/libpython3") && strlen(paths[i]) < n &&
		    py_has_runtime(paths[i])) {
			strcpy(path, paths[i]);
			ok = true;
		}
		free(paths[i]);
	}
	free(paths);
	return ok;
}

static bool known_file(const PyLayout *out, const char *path)
{
	if (out->fixed && !strcmp(out->path, path))
		return true;
	for (int i = 0; i < out->nfiles; i++)
		if (!strcmp(out->files[i].path, path))
			return true;
	return false;
}

/* path checked and added: the fixed interpreter if it is the first at
 * fixed addresses, else one whose addresses a process has are learned at
 * its Py_InitializeFromConfig */
static bool add_file(SymCtx *sc, PyLayout *out, const char *path, char *err, size_t errlen)
{
	PyFile pf;
	bool dyn;
	if (known_file(out, path))
		return true;
	if (!pyfile_check(sc, path, out, &pf, &dyn, err, errlen))
		return false;
	if (!dyn && !out->fixed) {
		out->fixed = true;
		memcpy(out->path, pf.path, sizeof(out->path));
		out->runtime = pf.runtime;
		out->code_type = pf.code_type;
		out->code_dealloc = pf.code_dealloc;
		return true;
	}
	if (pf.init_off == (uint64_t)-1) {
		snprintf(err, errlen, "%s: no Py_InitializeFromConfig, where sonde learns where a "
			 "process loaded it", path);
		return false;
	}
	out->files = xrealloc(out->files, sizeof(*out->files) * (size_t)(out->nfiles + 1));
	out->files[out->nfiles++] = pf;
	if (!out->path[0])
		memcpy(out->path, pf.path, sizeof(out->path));
	return true;
}

/* -p: the process's interpreter at the addresses it has there */
static bool pid_python(SymCtx *sc, int pid, PyLayout *out, char *err, size_t errlen)
{
	char path[4096];
	PyFile pf;
	bool dyn;
	uint64_t bias = 0;
	if (!python_of_pid(pid, path, sizeof(path))) {
		snprintf(err, errlen, "process %d runs no CPython that sonde can read "
			 "(neither its executable nor a libpython3.11 it maps has _PyRuntime)", pid);
		return false;
	}
	if (!pyfile_check(sc, path, out, &pf, &dyn, err, errlen))
		return false;
	if (dyn && !load_bias(sc, pid, path, &bias)) {
		snprintf(err, errlen, "cannot find where process %d has %s", pid, path);
		return false;
	}
	out->fixed = true;
	memcpy(out->path, pf.path, sizeof(out->path));
	out->runtime = pf.runtime + bias;
	out->code_type = pf.code_type + bias;
	out->code_dealloc = pf.code_dealloc;
	return true;
}

static void add_candidate(char ***v, int *n, const char *path)
{
	char *r = realpath(path, NULL);
	for (int i = 0; r && i < *n; i++)
		if (!strcmp((*v)[i], r)) {
			free(r);
			return;
		}
	if (!r)
		return;
	*v = xrealloc(*v, sizeof(**v) * (size_t)(*n + 1));
	(*v)[(*n)++] = r;
}

/* the libpython3 files the running processes map (a file deleted since,
 * or on no disk, is not one sonde can open by its name) */
static void mapped_libpythons(SymCtx *sc, char ***v, int *n)
{
	int np;
	const ProcMaps *procs = proc_scan(sc, &np);
	for (int p = 0; p < np; p++)
		for (int i = 0; i < procs[p].n; i++) {
			const ProcFile *f = &procs[p].files[i];
			if (f->exec && strstr(f->path, "/libpython3.") && !strstr(f->path, " (deleted)") &&
			    strncmp(f->path, "/memfd:", 7))
				add_candidate(v, n, f->path);
		}
}

/* any process: every CPython 3.11 file of the system; those of another
 * version or build are left out (their processes' stacks stay empty) */
static bool system_pythons(SymCtx *sc, PyLayout *out, char *err, size_t errlen)
{
	char **c = NULL, e2[128], first[512] = "", e3[512];
	int n = 0;
	add_candidate(&c, &n, "/usr/bin/python3.11");
	char *lib = resolve_binary("libpython3.11", 0, e2, sizeof(e2));
	if (lib)
		add_candidate(&c, &n, lib);
	free(lib);
	mapped_libpythons(sc, &c, &n);
	for (int i = 0; i < n; i++) {
		if (!add_file(sc, out, c[i], e3, sizeof(e3)) && !first[0])
			snprintf(first, sizeof(first), "%s", e3);
		free(c[i]);
	}
	free(c);
	out->any = true;
	if (out->fixed || out->nfiles)
		return true;
	snprintf(err, errlen, "%s", first[0] ? first : "no CPython 3.11 on this system "
		 "(/usr/bin/python3.11, libpython3.11): give -p PID of a python process");
	return false;
}

/* -c: the command's program, or the libpython3 it links; a command not
 * named python* that is neither may start any python: the system's (when
 * system_ok) */
static bool cmd_python(SymCtx *sc, const char *cmd, bool system_ok, PyLayout *out, char *err,
		       size_t errlen)
{
	char e2[128], *p = resolve_binary(cmd, 0, e2, sizeof(e2));
	char *lib = p && !py_has_runtime(p) ? elf_needed_prefix(p, "libpython3") : NULL;
	const char *file = lib ? lib : p;
	const char *base = strrchr(cmd, '/') ? strrchr(cmd, '/') + 1 : cmd;
	bool ok = false;
	if (file && py_has_runtime(file))
		ok = add_file(sc, out, file, err, errlen);
	else if (strncmp(base, "python", 6) && system_ok)
		ok = system_pythons(sc, out, err, errlen);
	else if (strncmp(base, "python", 6))
		snprintf(err, errlen, "%s runs no CPython of its own", cmd);
	else if (!p)
		snprintf(err, errlen, "%s: %s", cmd, e2);
	else if (!elf_get(sc, p, e2, sizeof(e2)))
		snprintf(err, errlen, "%s%s%s is not an ELF executable (a pyenv shim or another "
			 "script?): name the interpreter itself (-c '/path/to/python3.11 ...')", cmd,
			 strcmp(cmd, p) ? ", found at " : "", strcmp(cmd, p) ? p : "");
	else
		snprintf(err, errlen, "%s (%s) is not a CPython sonde can read: neither it nor a "
			 "libpython3 it links has _PyRuntime", cmd, p);
	free(p);
	free(lib);
	return ok;
}

static bool find(SymCtx *sc, int pid, const char *cmd, bool system_ok, PyLayout *out, char *err,
		 size_t errlen)
{
	memset(out, 0, sizeof(*out));
	bool ok = pid > 0 ? pid_python(sc, pid, out, err, errlen)
		  : cmd ? cmd_python(sc, cmd, system_ok, out, err, errlen)
		  : system_ok ? system_pythons(sc, out, err, errlen) : false;
	if (!pid && !cmd && !system_ok)
		snprintf(err, errlen, "no process named (-p) and no command (-c)");
	if (!ok)
		return false;
	out->task_fsbase = py_task_fsbase(sc);
	if (out->task_fsbase < 0) {
		snprintf(err, errlen, "the kernel's BTF has no task_struct.thread.fsbase: sonde "
			 "finds a thread's Python state through it");
		return false;
	}
	return true;
}

bool pylayout_find(SymCtx *sc, int pid, const char *cmd, PyLayout *out, char *err, size_t errlen)
{
	return find(sc, pid, cmd, true, out, err, errlen);
}

bool pylayout_find_own(SymCtx *sc, int pid, const char *cmd, PyLayout *out, char *err, size_t errlen)
{
	return find(sc, pid, cmd, false, out, err, errlen);
}

void pylayout_free(PyLayout *l)
{
	free(l->files);
	l->files = NULL;
	l->nfiles = 0;
}

/* where m's process has one of l's files, from the file's first mapping */
static bool proc_base(SymCtx *sc, const PyLayout *l, const ProcMaps *m, PyBase *out)
{
	char err[128];
	for (int j = 0; j < m->n; j++)
		for (int i = 0; i < l->nfiles; i++) {
			const ProcFile *pf = &m->files[j];
			const ElfFile *ef = strcmp(pf->path, l->files[i].path) ? NULL :
					    elf_get(sc, pf->path, err, sizeof(err));
			uint64_t va = ef ? elf_offset_to_vaddr(ef, pf->off) : (uint64_t)-1;
			if (va == (uint64_t)-1)
				continue;
			out->runtime = l->files[i].runtime + (pf->lo - va);
			out->code_type = l->files[i].code_type + (pf->lo - va);
			return true;
		}
	return false;
}

typedef struct BaseScan {
	SymCtx *sc;
	const PyLayout *l;
} BaseScan;

/* a process that had one of the files when first read may have exec'd
 * the same python since (other addresses): read again */
static bool maps_a_file(const ProcMaps *m, void *arg)
{
	const BaseScan *s = arg;
	PyBase b;
	return proc_base(s->sc, s->l, m, &b);
}

int py_proc_bases(SymCtx *sc, const PyLayout *l, PyProcBase **out)
{
	BaseScan s = {sc, l};
	int np, n = 0;
	const ProcMaps *procs = proc_scan_refresh(sc, maps_a_file, &s, &np);
	*out = xcalloc((size_t)np + 1, sizeof(**out));
	for (int p = 0; p < np; p++)
		if (proc_base(sc, l, &procs[p], &(*out)[n].base))
			(*out)[n++].pid = procs[p].pid;
	return n;
}
