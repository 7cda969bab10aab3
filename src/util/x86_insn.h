/* x86-64 instruction lengths, for checking that a uprobe offset
 * (uprobe:BIN:FUNC+OFFSET) falls on an instruction boundary, as bpftrace
 * does with its disassembler. Lengths only: no operands, no mnemonics. */
#pragma once
#include <stddef.h>
#include <stdint.h>

/* The length of the 64-bit-mode instruction at code[0..avail), or -1 when
 * it is not a valid instruction or runs past avail (or 15 bytes). */
int x86_insn_len(const uint8_t *code, size_t avail);

typedef enum { X86_ALIGNED, X86_MIDDLE, X86_UNDECODABLE } X86Align;

/* Decodes code[0..len) (a function, from its first byte) instruction by
 * instruction: whether offset starts one of them, falls inside one, or
 * could not be reached (an undecodable byte on the way). */
X86Align x86_insn_boundary(const uint8_t *code, size_t len, uint64_t offset);

typedef enum { X86_CALL_NONE, X86_CALL_DIRECT, X86_CALL_INDIRECT } X86Call;

/* Whether the n bytes code[0..n) end with a call instruction, i.e. whether
 * the address after them is a return address a call pushed: a direct call
 * (E8, its displacement from the end in *rel), an indirect one (FF /2), or
 * none.  Unwinding checks each frame a frame-pointer walk found with it. */
X86Call x86_call_before(const uint8_t *code, size_t n, int32_t *rel);
