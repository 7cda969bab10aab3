/* The readers' caches in one context object instead of file-scope globals.
 *
 * Each reader (ksyms.c, kfuncs.c, btf_load.c, ...) keeps what it read for
 * the run behind its own pointer here, made on its first use and kept for
 * the run; the struct behind it is the reader's own (opaque to the others).
 * Layers above sym keep their memos of sym's descriptions here too (the
 * converted BTF and DWARF types of lang/, the uprobe events of probes/):
 * only their names are declared here, sym includes nothing above it. */
#pragma once
#include <stddef.h>

/* frees a cache and what it holds (the reader's own, given with it) */
typedef void (*SymCacheFree)(void *cache);

#define SYM_CACHES_MAX 16

typedef struct SymCtx {
	struct KsymsCache *ksyms;         /* ksyms.c: /proc/kallsyms */
	struct KfuncsCache *kfuncs;       /* kfuncs.c: traceable functions, blacklist, index */
	struct BtfLoadCache *btf;         /* btf_load.c: the BTF objects opened */
	struct BtfFuncsCache *btf_funcs;  /* btf_funcs.c: traceable names, BTF object fds */
	struct DebugInfoCache *debuginfo; /* debuginfo.c: one handle per binary */
	struct DwarfArgsCache *dwarf_args; /* dwarf_args.c: indexed debug info per binary */
	struct ElfSymsCache *elf_syms;    /* elf_syms.c: binaries' symbols, processes' maps */
	struct ProcScanCache *procs;      /* proc_scan.c: every process's mapped files */
	struct BtfTypesCache *btf_types;  /* lang/btf_types.c: Types converted from BTF */
	struct SymTypesCache *sym_types;  /* lang/sym_types.c: Types converted from DWARF */
	struct UeventCache *uevents;      /* probes/uprobe_event.c: uprobe_events parsed */
	struct RawTps *raw_tps;           /* dtrace/d_probes.c: the raw tracepoints with BTF */
	/* the caches made, in order, each with its reader's free: a layer
	 * above sym gives its own, so sym_ctx_free() names none */
	struct {
		void **slot;
		SymCacheFree free;
	} made[SYM_CACHES_MAX];
	int nmade;
} SymCtx;

/* A run's context, empty (each cache is made on its first use): made once
 * per run by the command that starts it and passed down to the readers,
 * which take it as their first argument. */
SymCtx *sym_ctx_new(void);
/* frees every cache made (the last made first: a cache may have read
 * another's on its first use) and the context */
void sym_ctx_free(SymCtx *sc);

/* *slot, allocated (size bytes, zeroed) on first use and freed by
 * free_fn in sym_ctx_free(): a reader's cache. */
void *sym_ctx_part(SymCtx *sc, void *slot, size_t size, SymCacheFree free_fn);
/* sc->field, the reader's cache, made on first use; free_fn(cache) frees
 * it and what it holds */
#define SYM_CACHE(sc, field, free_fn) \
	((__typeof__((sc)->field))sym_ctx_part((sc), &(sc)->field, sizeof(*(sc)->field), (free_fn)))
