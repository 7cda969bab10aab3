/* libdw loaded when a run first reads DWARF (libdw_load.h says why). */
#define LIBDW_LOADER
#include "libdw_load.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#define LIBDW_SONAME "libdw.so.1"

/* defined only in a static build: the dynamic sonde sees NULL */
#pragma weak sym_libdw_linked

static void libdw_missing(const char *what)
{
	fprintf(stderr, "sonde: reading debug info needs %s (elfutils; Debian: apt install libdw1): %s\n",
		LIBDW_SONAME, what);
	exit(1);
}

static void libdw_fill(LibDw *t)
{
	void *h = dlopen(LIBDW_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		libdw_missing(dlerror());
#define LIBDW_RESOLVE(name)                                   \
	if (!(*(void **)&t->name = dlsym(h, #name)))          \
		libdw_missing("no " #name " in it");
	LIBDW_FUNCS(LIBDW_RESOLVE)
#undef LIBDW_RESOLVE
}

const LibDw *sym_libdw(void)
{
	/* the library is the process's, as the dynamic loader's own state:
	 * loaded once, never closed */
	static LibDw table;
	static const LibDw *loaded;
	if (!loaded) {
		if (&sym_libdw_linked)
			loaded = &sym_libdw_linked;
		else {
			libdw_fill(&table);
			loaded = &table;
		}
	}
	return loaded;
}
