/* BPF disassembler for `sonde -d bpf`: prints generated programs in the
 * kernel verifier's notation so they can be compared with verifier logs. */
#pragma once
#include <linux/bpf.h>
#include <stdio.h>

#include "../util/util.h"

/* Appends one instruction as text in the verifier's style, e.g.
 * "r1 = *(u64 *)(r10 -8)", "if r0 == 0x0 goto pc+3",
 * "call bpf_map_lookup_elem#1", "r1 = map[fd:3]".  insns[i] is the
 * instruction, n the program length (a ld_imm64 needs insns[i + 1]).
 * Returns the number of slots consumed: 2 for ld_imm64, else 1. */
int bpf_insn_format(StrBuf *sb, const struct bpf_insn *insns, int i, int n);

/* Whole program, one line per instruction: "  12: (bf) r6 = r1".  Jumps get
 * their absolute target appended: "goto pc+3 <16>".  Before the first
 * instruction of each new source line (lines[i], 1-based, 0 = none) a
 * comment "; <source line text>  (line N)" from text (the program's
 * source, NUL-terminated) is printed.  title (may be NULL) is printed first
 * as "<title>:".  lines and text may be NULL (no comments). */
void bpf_disasm(FILE *out, const char *title, const struct bpf_insn *insns,
		int n, const int *lines, const char *text);

/* Name of helper function id without the "bpf_" prefix, e.g. 1 ->
 * "map_lookup_elem"; NULL if unknown. */
const char *bpf_helper_name(int id);
