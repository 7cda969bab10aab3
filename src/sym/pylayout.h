/* Where a CPython interpreter keeps its frames: the per-version table of
 * structure offsets, checked against the binary (its ELF symbols and the
 * data they point to) before any program reads a stack with them, and the
 * layout of the per-code-object cache that the BPF programs fill and the
 * printer reads (so stacks print after the process has exited). */
#pragma once
#include "symctx.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* An interpreter file whose addresses differ per process (a libpython, a
 * position-independent python): what its processes' sonde_pybase entries
 * are made of (runtime/pybase.c) */
typedef struct PyFile {
	char path[4096];
	uint64_t runtime, code_type;   /* file addresses of _PyRuntime and PyCode_Type */
	uint64_t code_dealloc;         /* file offset of code_dealloc */
	uint64_t init_vaddr, init_off; /* Py_InitializeFromConfig's address and file offset */
} PyFile;

/* sonde_pybase: key a process's tgid (u32), value where its interpreter's
 * _PyRuntime and PyCode_Type are in it */
#define PYBASE_ENTRIES 16384
typedef struct PyBase {
	uint64_t runtime, code_type;
} PyBase;

typedef struct PyLayout {
	char version[16];      /* "3.11.2" (from Py_Version) */
	/* fixed: an interpreter at the same addresses in every process that
	 * runs it (a fixed-address executable, or -p's process): */
	bool fixed;
	char path[4096];       /* the ELF file holding _PyRuntime */
	uint64_t runtime;      /* run-time address of _PyRuntime */
	uint64_t code_type;    /* run-time address of PyCode_Type */
	uint64_t code_dealloc; /* file offset of PyCode_Type's tp_dealloc (code_dealloc) */
	/* the others: a walk finds its process's addresses in sonde_pybase
	 * (which Py_InitializeFromConfig's uprobes and a scan of the running
	 * processes fill), else takes the fixed one's */
	int nfiles;
	PyFile *files;         /* nfiles of them, owned (pylayout_free) */
	bool any;              /* found for any process (no -p, or a -c command that is no CPython) */
	/* glibc TLS: pthread_getspecific(key) for key < 32 is at
	 * fsbase + tls_block + key * 16 + 8 (struct pthread's specific_1stblock) */
	int tss_key;           /* offset of the autoTSSkey's key in _PyRuntime */
	int tls_block;
	int ts_cframe, cf_frame;                 /* PyThreadState -> _PyCFrame -> frame */
	int fr_code, fr_previous, fr_instr;      /* _PyInterpreterFrame */
	int co_type, co_firstlineno, co_filename, co_qualname, co_linetable,
	    co_firsttraceable, co_code, co_head; /* PyCodeObject (co_head: bytes read) */
	int str_state, str_ascii_data, str_utf8; /* PyUnicode (compact ASCII / utf8) */
	int bytes_size, bytes_data;              /* PyBytes */
	int task_fsbase;       /* task_struct.thread.fsbase (kernel BTF) */
} PyLayout;

/* Find the interpreter of the traced process: /proc/PID/exe (and a
 * libpython it maps) with pid > 0, else the -c command's program or the
 * libpython3 it links, else every CPython 3.11 of the system
 * (/usr/bin/python3.11, the dynamic loader's libpython3.11 and those the
 * running processes map); load its offsets and cross-check them.  false
 * with a message saying what did not match. */
bool pylayout_find(SymCtx *sc, int pid, const char *cmd, PyLayout *out, char *err, size_t errlen);
/* The same, for -p's process or the -c command's own interpreter only:
 * never the system's (which costs a read of every process's maps) */
bool pylayout_find_own(SymCtx *sc, int pid, const char *cmd, PyLayout *out, char *err, size_t errlen);
/* what a found layout owns (its files), freed */
void pylayout_free(PyLayout *l);

/* One interpreter file checked: its CPython version's offsets into out
 * (version, tss_key .. bytes_data), its file addresses into pf, *dyn when
 * its addresses differ per process.  false with a message saying why. */
bool pyfile_check(SymCtx *sc, const char *path, PyLayout *out, PyFile *pf, bool *dyn, char *err,
		  size_t errlen);
/* path has CPython's _PyRuntime, PyCode_Type and Py_Version */
bool py_has_runtime(const char *path);
/* task_struct.thread.fsbase's offset (kernel BTF, kept per boot), -1 */
int py_task_fsbase(SymCtx *sc);

/* The running processes that map one of l's files (PyLayout.files) and
 * where each has its interpreter, from their maps: the scan the layout's
 * search made (sym/proc_scan.c), with the processes new or changed since
 * read again.  *out (freed by the caller) holds the count returned. */
typedef struct PyProcBase {
	int pid;
	PyBase base;
} PyProcBase;
int py_proc_bases(SymCtx *sc, const PyLayout *l, PyProcBase **out);

/* The traced process's interpreter as the run found it before compiling
 * (python/py_target.c): its layout when ok, else why not (err), which
 * sema reports where the script first walks a Python stack. */
typedef struct PyTarget {
	bool ok;
	PyLayout layout;
	char err[512];
} PyTarget;

/* CPython 3.11 fires function__entry for Python-to-Python calls only
 * while its line probe's semaphore is raised (CPython issue 98894).  For such a binary: true, with the file offsets of its entry
 * point (code that runs once, at start) and of the line semaphore. */
bool py311_line_semaphore(SymCtx *sc, const char *path, uint64_t *entry_off, uint64_t *sema_off);

/* The code-object cache, two maps.  sonde_pylive: key (pid, code address),
 * value the generation given to the code object living there, taken from
 * the control page's CONTROL_PY_GEN counter when a walk first met it; a
 * uprobe on code_dealloc deletes the entry, so a code object allocated at
 * a freed one's address gets a new generation.  sonde_pycode: key (pid |
 * generation << 32, code address), value below: what printing needs, kept
 * after the object is freed for the values recorded while it lived. */
#define PYC_FILE 128
#define PYC_NAME 96
#define PYC_LT 1024
#define PYC_ENTRIES 8192
typedef struct PyCodeInfo {
	uint32_t firstlineno;
	uint32_t lt_size;     /* co_linetable's full size; at most PYC_LT bytes kept */
	uint64_t lt_addr;     /* where the whole table is, while the process lives */
	char file[PYC_FILE];
	char name[PYC_NAME];
	uint8_t lt[PYC_LT];
} PyCodeInfo;

/* A stack value (TY_PYSTACK): pid, frame count (bit 63 set when the walk
 * stopped at memory that is not a code object, bit 62 when a read of the
 * thread's state or of a frame failed: memory BPF cannot fault in), then
 * per frame the code address and a word holding the index of the
 * instruction it is executing (low 32 bits, signed) and the code object's
 * generation (high 32 bits; 0: the object was being freed), which with the
 * pid and the address is the frame's key in sonde_pycode. */
#define PYSTACK_BAD (1ull << 63)
#define PYSTACK_CUT (1ull << 62)
static inline int pystack_size(int depth)
{
	return 16 + 16 * depth;
}
/* frame i of a stack value d: its key in sonde_pycode, and the
 * instruction index */
static inline void pystack_frame_key(const void *d, int i, uint64_t key[2], int64_t *lasti)
{
	const unsigned char *v = (const unsigned char *)d;
	uint64_t pid, fr[2];
	memcpy(&pid, v, 8);
	memcpy(fr, v + 16 + 16 * i, 16);
	key[0] = (uint32_t)pid | (fr[1] >> 32 << 32);
	key[1] = fr[0];
	*lasti = (int32_t)(uint32_t)fr[1];
}

/* Line of instruction `lasti` (code units) from a 3.11 line table; -1 when
 * the table (as kept) does not cover it or has no line for it. */
int py_linetable_line(const uint8_t *lt, size_t n, int firstlineno, int64_t lasti);
