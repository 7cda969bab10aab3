/* Loading a program's code (bpf/program.h) into the kernel, and what the
 * verifier says when it refuses it, in one line and in plainer words. */
#pragma once
#include <bpf/bpf.h>
#include <stdbool.h>
#include <stddef.h>

#include "program.h"

/* How the kernel is to take a program: its type and what it attaches to. */
typedef struct BpfLoadAttr {
	enum bpf_prog_type type;
	const char *name; /* the program's name in the kernel ("sonde") */
	uint32_t expected_attach_type;
	uint32_t attach_btf_id;
	int attach_btf_obj_fd;
} BpfLoadAttr;

/* Loads p's instructions (relocations made).  verbose: with the verifier's
 * log, kept in p->vlog on success.  A load that fails without a log is
 * made again with one.  Returns the fd; on failure -1 (or -errno) with
 * *log the verifier's log (the caller frees it), else *log is NULL. */
int bpf_prog_load_code(BpfProg *p, const BpfLoadAttr *a, bool verbose, char **log);

/* The verifier's reason, in one line: the last line of its log that is not
 * trace, and the instruction it was looking at (-1: none). */
void bpf_verifier_reason(const char *log, char *out, size_t n, int *insn);
/* A common reason in plainer words (the kernel's own text should follow);
 * NULL for the others. */
const char *bpf_verifier_words(const char *reason);
