/* Debug information of a user-space binary, found as perf finds it: a
 * separate file under /usr/lib/debug (by build id, or by the binary's own
 * path), the binary itself, then the file its .gnu_debuglink names (next to
 * it, in .debug/, under /usr/lib/debug/DIR).  libdw reads DWARF 4 and 5 and
 * decompresses compressed sections.  One cached handle per path for the
 * process: the compiler (args->NAME, line probes) and `sonde probe` share it. */
#pragma once
#include "symctx.h"
#include "libdw_load.h"
#include <stdbool.h>

typedef struct DebugInfo {
	char *path;    /* the binary */
	char *dwpath;  /* the file the DWARF came from */
	Dwarf *dw;     /* NULL: no debug info */
	Elf *elf;      /* the binary's ELF (symbols, sections); NULL: unreadable */
	int fd;
	bool opened;   /* the binary could be opened */
} DebugInfo;

/* Never NULL; ->dw is NULL when no debug info was found. */
DebugInfo *debuginfo_get(SymCtx *sc, const char *path);
/* vaddr as an offset in the binary's file (what uprobes take): vaddr less
 * its loadable segment's p_vaddr - p_offset; false if no segment holds it. */
bool debuginfo_vaddr_to_offset(DebugInfo *di, Dwarf_Addr vaddr, Dwarf_Addr *off);
/* The reverse: a file offset (a uprobe's) as the vaddr DWARF speaks of. */
bool debuginfo_offset_to_vaddr(DebugInfo *di, Dwarf_Addr off, Dwarf_Addr *vaddr);
/* perf's call frame info for a binary: .eh_frame of the file the DWARF is
 * in, else .debug_frame; *owned: the caller ends it (dwarf_cfi_end). */
Dwarf_CFI *debuginfo_cfi(DebugInfo *di, bool *owned);
