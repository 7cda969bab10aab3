/* The libraries an ELF file links (DT_NEEDED), for messages about symbols
 * that live in one of them rather than in the file named (stub libraries
 * such as glibc 2.34's libpthread.so.0). */
#pragma once
#include "symctx.h"

/* Path of the first library path links (DT_NEEDED, resolved as the dynamic
 * loader does) that defines function name; NULL if none.  malloc'ed. */
char *elf_needed_defining(SymCtx *sc, const char *path, const char *name);
/* Path of the first library path links whose name starts with prefix
 * ("libpython3."), found in its DT_RUNPATH/DT_RPATH, else as the dynamic
 * loader's cache and directories have it; NULL if none.  malloc'ed. */
char *elf_needed_prefix(const char *path, const char *prefix);
/* Every library path needs, its own DT_NEEDED and theirs (breadth first,
 * each once, resolved as the dynamic loader does): what a program maps
 * once it has exec'd.  Returns the count; *out and its paths malloc'ed. */
int elf_needed_all(const char *path, char ***out);
