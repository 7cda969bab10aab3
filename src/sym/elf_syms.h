/* User-space binaries: ELF function symbols (.symtab + .dynsym), address
 * to file offset through PT_LOAD segments, USDT (.note.stapsdt) probes,
 * library short names resolved as the dynamic loader does, and process
 * maps cached while a process lives, so that its addresses still resolve
 * to symbols after it has exited. */
#pragma once
#include "symctx.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ElfSym {
	char *name;
	uint64_t addr, size;
} ElfSym;

typedef struct ElfSeg {
	uint64_t vaddr, memsz, offset, filesz;
	bool exec;
} ElfSeg;

typedef struct UsdtNote {
	char *provider, *name, *args;
	uint64_t pc;   /* virtual address, .stapsdt.base adjusted */
	uint64_t sema; /* virtual address of the semaphore, 0 if none */
} UsdtNote;

typedef struct ElfFile {
	char *path;
	bool dyn;      /* ET_DYN: PIE or shared object */
	ElfSym *syms;  /* function symbols sorted by address */
	int nsyms;
	ElfSym *objs;  /* data symbols (uaddr), in table order */
	int nobjs;
	ElfSeg *segs;
	int nsegs;
	UsdtNote *notes;
	int nnotes;
} ElfFile;

/* Opened once per path and kept (symbolization after a process exits).
 * NULL with err filled ("not an ELF file", "no such file"). */
const ElfFile *elf_get(SymCtx *sc, const char *path, char *err, size_t errlen);

/* File offset of a virtual address, or (uint64_t)-1 if no segment maps it. */
uint64_t elf_vaddr_to_offset(const ElfFile *f, uint64_t vaddr);
/* Virtual address of a file offset, or (uint64_t)-1. */
uint64_t elf_offset_to_vaddr(const ElfFile *f, uint64_t off);
const ElfSym *elf_sym_by_name(const ElfFile *f, const char *name);
/* Symbol containing vaddr; *off = vaddr - start. */
const ElfSym *elf_sym_by_addr(const ElfFile *f, uint64_t vaddr, uint64_t *off);

/* A uprobe/usdt target: a path (with '/'), a library short name ("libc",
 * "libssl.so.3"), or a program in $PATH.  With pid > 0 libraries are
 * looked up in /proc/PID/maps first.  Returns a malloc'ed path or NULL
 * with err filled. */
char *resolve_binary(const char *target, int pid, char *err, size_t errlen);

/* Whether a library file name is what a short name means: "libc" is
 * libc.so, libc.so.6, libc-2.36.so; "libc.so.6" only itself. */
bool lib_name_matches(const char *want, const char *file);

/* Every file-backed executable mapping of a process (unique paths), for
 * `usdt:*` with -p.  Returns the count; *paths malloc'ed. */
int proc_binaries(int pid, char ***paths);

/* Remember /proc/PID/maps now (if the process still lives), so that its
 * addresses resolve later; cheap when called again. refresh: read again. */
void usym_note_pid(SymCtx *sc, int pid, bool refresh);
/* Symbol of a user address of process pid: name (static storage until the
 * next call), *off, *module; NULL if unknown. */
const char *usym_resolve(SymCtx *sc, int pid, uint64_t addr, uint64_t *off, const char **module);
/* The n bytes of code before user address addr of process pid (fewer
 * when its mapping starts nearer), read from the file mapped there, into
 * buf: the count, -1 when no file maps it.  For checking that a frame's
 * return address follows a call. */
int usym_code_before(SymCtx *sc, int pid, uint64_t addr, uint8_t *buf, size_t n);
/* Address of symbol in the main binary of pid (for uaddr()), 0 if none. */
uint64_t usym_addr(SymCtx *sc, const char *path, const char *name);
/* A function or data symbol of the binary at path by name, or NULL. */
const ElfSym *usym_lookup(SymCtx *sc, const char *path, const char *name);
