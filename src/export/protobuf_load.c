/* libprotobuf-c loaded when a run first writes a profile (protobuf_load.h
 * says why). */
#define PROTOBUF_LOADER
#include "protobuf_load.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#define PROTOBUF_SONAME "libprotobuf-c.so.1"

/* defined only in a static build: the dynamic sonde sees NULL */
#pragma weak export_protobuf_linked

const char export_protobuf_empty_string[] = "";

static void protobuf_missing(const char *what)
{
	fprintf(stderr, "sonde: -f pprof needs %s (Debian: apt install libprotobuf-c1): %s\n",
		PROTOBUF_SONAME, what);
	exit(1);
}

static void protobuf_fill(LibProtobuf *t)
{
	void *h = dlopen(PROTOBUF_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		protobuf_missing(dlerror());
#define PROTOBUF_RESOLVE(name)                                \
	if (!(*(void **)&t->name = dlsym(h, #name)))          \
		protobuf_missing("no " #name " in it");
	PROTOBUF_FUNCS(PROTOBUF_RESOLVE)
#undef PROTOBUF_RESOLVE
}

const LibProtobuf *export_protobuf(void)
{
	/* the library is the process's, as the dynamic loader's own state:
	 * loaded once, never closed */
	static LibProtobuf table;
	static const LibProtobuf *loaded;
	if (!loaded) {
		if (&export_protobuf_linked)
			loaded = &export_protobuf_linked;
		else {
			protobuf_fill(&table);
			loaded = &table;
		}
	}
	return loaded;
}
