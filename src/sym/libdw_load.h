/* libdw (elfutils' DWARF reader, with its liblzma and libbz2) loaded on
 * first use, not at start-up: most runs read no DWARF, and mapping and
 * relocating the three libraries is about 30 of sonde's page faults
 * (docs/benchmarks.md).  Including this header instead of <elfutils/libdw.h>
 * makes every call below go through sym_libdw()'s table, whose members have
 * the real declarations' types (__typeof__), so a call is checked as before.
 * A static build links libdw and fills the table from it (libdw_static.c). */
#pragma once
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>

/* every libdw function sonde calls; a new one is added here */
#define LIBDW_FUNCS(X) \
	X(dwarf_addrdie) \
	X(dwarf_attr) \
	X(dwarf_attr_integrate) \
	X(dwarf_begin) \
	X(dwarf_begin_elf) \
	X(dwarf_bytesize) \
	X(dwarf_cfi_addrframe) \
	X(dwarf_cfi_end) \
	X(dwarf_child) \
	X(dwarf_decl_file) \
	X(dwarf_decl_line) \
	X(dwarf_diecu) \
	X(dwarf_diename) \
	X(dwarf_dieoffset) \
	X(dwarf_end) \
	X(dwarf_entrypc) \
	X(dwarf_filesrc) \
	X(dwarf_formref_die) \
	X(dwarf_formsdata) \
	X(dwarf_formstring) \
	X(dwarf_formudata) \
	X(dwarf_frame_cfa) \
	X(dwarf_getcfi) \
	X(dwarf_getcfi_elf) \
	X(dwarf_getelf) \
	X(dwarf_getfuncs) \
	X(dwarf_getlocation_addr) \
	X(dwarf_getsrcfiles) \
	X(dwarf_getsrclines) \
	X(dwarf_hasattr) \
	X(dwarf_haspc) \
	X(dwarf_highpc) \
	X(dwarf_lineaddr) \
	X(dwarf_linebeginstatement) \
	X(dwarf_lineendsequence) \
	X(dwarf_lineno) \
	X(dwarf_lineprologueend) \
	X(dwarf_linesrc) \
	X(dwarf_lowpc) \
	X(dwarf_nextcu) \
	X(dwarf_offdie) \
	X(dwarf_onesrcline) \
	X(dwarf_ranges) \
	X(dwarf_siblingof) \
	X(dwarf_tag) \
	X(dwelf_elf_gnu_build_id) \
	X(dwelf_elf_gnu_debuglink)

#define LIBDW_MEMBER(name) __typeof__(name) *name;
typedef struct LibDw {
	LIBDW_FUNCS(LIBDW_MEMBER)
} LibDw;
#undef LIBDW_MEMBER

/* The table, loaded on the first call; a missing libdw.so.1 ends the run
 * with a message naming the library and its package. */
const LibDw *sym_libdw(void);
/* a static build's table (libdw_static.c) */
extern const LibDw sym_libdw_linked;

#ifndef LIBDW_LOADER
#define dwarf_addrdie (sym_libdw()->dwarf_addrdie)
#define dwarf_attr (sym_libdw()->dwarf_attr)
#define dwarf_attr_integrate (sym_libdw()->dwarf_attr_integrate)
#define dwarf_begin (sym_libdw()->dwarf_begin)
#define dwarf_begin_elf (sym_libdw()->dwarf_begin_elf)
#define dwarf_bytesize (sym_libdw()->dwarf_bytesize)
#define dwarf_cfi_addrframe (sym_libdw()->dwarf_cfi_addrframe)
#define dwarf_cfi_end (sym_libdw()->dwarf_cfi_end)
#define dwarf_child (sym_libdw()->dwarf_child)
#define dwarf_decl_file (sym_libdw()->dwarf_decl_file)
#define dwarf_decl_line (sym_libdw()->dwarf_decl_line)
#define dwarf_diecu (sym_libdw()->dwarf_diecu)
#define dwarf_diename (sym_libdw()->dwarf_diename)
#define dwarf_dieoffset (sym_libdw()->dwarf_dieoffset)
#define dwarf_end (sym_libdw()->dwarf_end)
#define dwarf_entrypc (sym_libdw()->dwarf_entrypc)
#define dwarf_filesrc (sym_libdw()->dwarf_filesrc)
#define dwarf_formref_die (sym_libdw()->dwarf_formref_die)
#define dwarf_formsdata (sym_libdw()->dwarf_formsdata)
#define dwarf_formstring (sym_libdw()->dwarf_formstring)
#define dwarf_formudata (sym_libdw()->dwarf_formudata)
#define dwarf_frame_cfa (sym_libdw()->dwarf_frame_cfa)
#define dwarf_getcfi (sym_libdw()->dwarf_getcfi)
#define dwarf_getcfi_elf (sym_libdw()->dwarf_getcfi_elf)
#define dwarf_getelf (sym_libdw()->dwarf_getelf)
#define dwarf_getfuncs (sym_libdw()->dwarf_getfuncs)
#define dwarf_getlocation_addr (sym_libdw()->dwarf_getlocation_addr)
#define dwarf_getsrcfiles (sym_libdw()->dwarf_getsrcfiles)
#define dwarf_getsrclines (sym_libdw()->dwarf_getsrclines)
#define dwarf_hasattr (sym_libdw()->dwarf_hasattr)
#define dwarf_haspc (sym_libdw()->dwarf_haspc)
#define dwarf_highpc (sym_libdw()->dwarf_highpc)
#define dwarf_lineaddr (sym_libdw()->dwarf_lineaddr)
#define dwarf_linebeginstatement (sym_libdw()->dwarf_linebeginstatement)
#define dwarf_lineendsequence (sym_libdw()->dwarf_lineendsequence)
#define dwarf_lineno (sym_libdw()->dwarf_lineno)
#define dwarf_lineprologueend (sym_libdw()->dwarf_lineprologueend)
#define dwarf_linesrc (sym_libdw()->dwarf_linesrc)
#define dwarf_lowpc (sym_libdw()->dwarf_lowpc)
#define dwarf_nextcu (sym_libdw()->dwarf_nextcu)
#define dwarf_offdie (sym_libdw()->dwarf_offdie)
#define dwarf_onesrcline (sym_libdw()->dwarf_onesrcline)
#define dwarf_ranges (sym_libdw()->dwarf_ranges)
#define dwarf_siblingof (sym_libdw()->dwarf_siblingof)
#define dwarf_tag (sym_libdw()->dwarf_tag)
#define dwelf_elf_gnu_build_id (sym_libdw()->dwelf_elf_gnu_build_id)
#define dwelf_elf_gnu_debuglink (sym_libdw()->dwelf_elf_gnu_debuglink)
#endif
