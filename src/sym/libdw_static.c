/* The static build's libdw table: the functions linked in, no dlopen.
 * Linked only into static builds (the Makefile's STATIC_OBJ). */
#define LIBDW_LOADER
#include "libdw_load.h"

#define LIBDW_LINK(name) .name = name,
const LibDw sym_libdw_linked = { LIBDW_FUNCS(LIBDW_LINK) };
