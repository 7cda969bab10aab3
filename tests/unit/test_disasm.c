/* Disassembler: one instruction of every class as verifier-style text, and a
 * whole-program dump with source-line comments. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "bpf/disasm.h"
#include "bpf/insn.h"

/* Raw constructors for forms insn.h has no macro for. */
#define RAW(CODE, DST, SRC, OFF, IMM)                                          \
	((struct bpf_insn){.code = (CODE), .dst_reg = (DST), .src_reg = (SRC), \
			   .off = (OFF), .imm = (IMM)})

static StrBuf sb;

/* Formats insns[0] (and [1] for ld_imm64); checks the slot count too. */
static const char *fmt_n(const struct bpf_insn *insns, int n, int want_used)
{
	sb_reset(&sb);
	int used = bpf_insn_format(&sb, insns, 0, n);
	CHECK(used == want_used);
	return sb.s;
}

static const char *fmt(struct bpf_insn in)
{
	return fmt_n(&in, 1, 1);
}

static void test_alu(void)
{
	CHECK_STR(fmt(I_MOV64_REG(6, 1)), "r6 = r1");
	CHECK_STR(fmt(I_MOV64_IMM(1, -1)), "r1 = -1");
	CHECK_STR(fmt(I_MOV32_REG(1, 2)), "w1 = w2");
	CHECK_STR(fmt(I_ALU64_REG(BPF_ADD, 1, 2)), "r1 += r2");
	CHECK_STR(fmt(I_ALU64_IMM(BPF_ADD, 10, -8)), "r10 += -8");
	CHECK_STR(fmt(I_ALU64_IMM(BPF_SUB, 1, 3)), "r1 -= 3");
	CHECK_STR(fmt(I_ALU64_REG(BPF_MUL, 1, 2)), "r1 *= r2");
	CHECK_STR(fmt(I_ALU64_IMM(BPF_DIV, 1, 1000)), "r1 /= 1000");
	CHECK_STR(fmt(I_ALU64_REG(BPF_MOD, 3, 4)), "r3 %= r4");
	CHECK_STR(fmt(I_ALU64_IMM(BPF_OR, 1, 0x10)), "r1 |= 16");
	CHECK_STR(fmt(I_ALU64_IMM(BPF_AND, 1, 255)), "r1 &= 255");
	CHECK_STR(fmt(I_ALU64_REG(BPF_XOR, 1, 1)), "r1 ^= r1");
	CHECK_STR(fmt(I_ALU64_IMM(BPF_LSH, 1, 32)), "r1 <<= 32");
	CHECK_STR(fmt(I_ALU64_IMM(BPF_RSH, 1, 32)), "r1 >>= 32");
	CHECK_STR(fmt(I_ALU64_IMM(BPF_ARSH, 1, 32)), "r1 s>>= 32");
	CHECK_STR(fmt(I_NEG64(7)), "r7 = -r7");
	CHECK_STR(fmt(RAW(BPF_ALU | BPF_NEG, 7, 0, 0, 0)), "w7 = -w7");
	CHECK_STR(fmt(I_ALU32_IMM(BPF_MOV, 0, 5)), "w0 = 5");
	CHECK_STR(fmt(I_ALU32_IMM(BPF_ADD, 1, 2)), "w1 += 2");
	CHECK_STR(fmt(RAW(BPF_ALU | BPF_ADD | BPF_X, 1, 2, 0, 0)), "w1 += w2");
	CHECK_STR(fmt(RAW(BPF_ALU | BPF_LSH | BPF_X, 1, 2, 0, 0)), "w1 <<= w2");
	/* signed division and modulo are DIV/MOD with off = 1 */
	CHECK_STR(fmt(RAW(BPF_ALU64 | BPF_DIV | BPF_X, 1, 2, 1, 0)), "r1 s/= r2");
	CHECK_STR(fmt(RAW(BPF_ALU64 | BPF_MOD | BPF_K, 1, 0, 1, 7)), "r1 s%= 7");
	CHECK_STR(fmt(RAW(BPF_ALU | BPF_DIV | BPF_X, 1, 2, 1, 0)), "w1 s/= w2");
	/* sign-extending moves are MOV X with off = source width */
	CHECK_STR(fmt(RAW(BPF_ALU64 | BPF_MOV | BPF_X, 1, 2, 8, 0)), "r1 = (s8)r2");
	CHECK_STR(fmt(RAW(BPF_ALU64 | BPF_MOV | BPF_X, 1, 2, 32, 0)),
		  "r1 = (s32)r2");
	CHECK_STR(fmt(RAW(BPF_ALU | BPF_MOV | BPF_X, 1, 2, 16, 0)), "w1 = (s16)w2");
	/* byte order */
	CHECK_STR(fmt(RAW(BPF_ALU | BPF_END | BPF_TO_BE, 1, 0, 0, 16)),
		  "r1 = be16 r1");
	CHECK_STR(fmt(RAW(BPF_ALU | BPF_END | BPF_TO_LE, 1, 0, 0, 32)),
		  "r1 = le32 r1");
	CHECK_STR(fmt(RAW(BPF_ALU64 | BPF_END, 3, 0, 0, 64)), "r3 = bswap64 r3");
	CHECK_STR(fmt(RAW(BPF_ALU64 | 0xe0 | BPF_K, 1, 0, 0, 0)),
		  "invalid insn code 0xe7");
}

static void test_mem(void)
{
	CHECK_STR(fmt(I_LDX(BPF_DW, 1, 10, -8)), "r1 = *(u64 *)(r10 -8)");
	CHECK_STR(fmt(I_LDX(BPF_W, 0, 1, 4)), "r0 = *(u32 *)(r1 +4)");
	CHECK_STR(fmt(I_LDX(BPF_H, 0, 1, 0)), "r0 = *(u16 *)(r1 +0)");
	CHECK_STR(fmt(I_LDX(BPF_B, 0, 1, 2)), "r0 = *(u8 *)(r1 +2)");
	CHECK_STR(fmt(RAW(BPF_LDX | BPF_B | 0x80, 0, 1, 2, 0)),
		  "r0 = *(s8 *)(r1 +2)");
	CHECK_STR(fmt(RAW(BPF_LDX | BPF_W | 0x80, 0, 1, -4, 0)),
		  "r0 = *(s32 *)(r1 -4)");
	CHECK_STR(fmt(I_STX(BPF_W, 1, 2, 8)), "*(u32 *)(r1 +8) = r2");
	CHECK_STR(fmt(I_STX(BPF_DW, 10, 0, -16)), "*(u64 *)(r10 -16) = r0");
	CHECK_STR(fmt(I_STX(BPF_B, 10, 3, -1)), "*(u8 *)(r10 -1) = r3");
	CHECK_STR(fmt(I_ST(BPF_DW, 10, -8, 0)), "*(u64 *)(r10 -8) = 0");
	CHECK_STR(fmt(I_ST(BPF_H, 10, -2, -1)), "*(u16 *)(r10 -2) = -1");
	CHECK_STR(fmt(RAW(BPF_LD | BPF_ABS | BPF_H, 0, 0, 0, 12)),
		  "r0 = *(u16 *)skb[12]");
}

static void test_atomic(void)
{
	const int A64 = BPF_STX | BPF_DW | BPF_ATOMIC;
	const int A32 = BPF_STX | BPF_W | BPF_ATOMIC;

	CHECK_STR(fmt(I_ATOMIC_ADD64(1, 2, 0)), "lock *(u64 *)(r1 +0) += r2");
	CHECK_STR(fmt(RAW(A32, 1, 2, 8, BPF_OR)), "lock *(u32 *)(r1 +8) |= r2");
	CHECK_STR(fmt(RAW(A64, 1, 2, 0, BPF_AND)), "lock *(u64 *)(r1 +0) &= r2");
	CHECK_STR(fmt(RAW(A64, 1, 2, 0, BPF_XOR)), "lock *(u64 *)(r1 +0) ^= r2");
	CHECK_STR(fmt(RAW(A64, 1, 2, -8, BPF_ADD | BPF_FETCH)),
		  "r2 = atomic64_fetch_add((u64 *)(r1 -8), r2)");
	CHECK_STR(fmt(RAW(A32, 1, 2, 0, BPF_XOR | BPF_FETCH)),
		  "r2 = atomic_fetch_xor((u32 *)(r1 +0), r2)");
	CHECK_STR(fmt(RAW(A64, 1, 2, 0, BPF_XCHG)),
		  "r2 = atomic64_xchg((u64 *)(r1 +0), r2)");
	CHECK_STR(fmt(RAW(A64, 1, 2, 0, BPF_CMPXCHG)),
		  "r0 = atomic64_cmpxchg((u64 *)(r1 +0), r0, r2)");
	CHECK_STR(fmt(RAW(A64, 1, 2, 0, 0x7)), "invalid atomic op 0x7");
}

static void test_ld_imm64(void)
{
	struct bpf_insn a[] = {I_LD_IMM64_1(1, 0, 0x1234567890ULL),
			       I_LD_IMM64_2(0x1234567890ULL)};
	CHECK_STR(fmt_n(a, 2, 2), "r1 = 0x1234567890 ll");

	struct bpf_insn m[] = {I_LD_IMM64_1(1, BPF_PSEUDO_MAP_FD, 5),
			       I_LD_IMM64_2(0)};
	CHECK_STR(fmt_n(m, 2, 2), "r1 = map[fd:5]");

	/* the value offset is the second slot's imm: bits 32..63 of IMM */
	struct bpf_insn v[] = {I_LD_IMM64_1(2, BPF_PSEUDO_MAP_VALUE, 5),
			       I_LD_IMM64_2((uint64_t)16 << 32)};
	CHECK_STR(fmt_n(v, 2, 2), "r2 = map[fd:5][0]+16");

	/* a ld_imm64 cut off at the end of the program uses one slot */
	CHECK_STR(fmt_n(a, 1, 1), "r1 = <truncated ld_imm64>");
}

static void test_jmp(void)
{
	CHECK_STR(fmt(I_JMP_REG(BPF_JSGT, 1, 2, 4)), "if r1 s> r2 goto pc+4");
	CHECK_STR(fmt(I_JMP_IMM(BPF_JEQ, 0, 0, 3)), "if r0 == 0x0 goto pc+3");
	CHECK_STR(fmt(I_JMP_IMM(BPF_JNE, 0, 0, -5)), "if r0 != 0x0 goto pc-5");
	CHECK_STR(fmt(I_JMP_REG(BPF_JGT, 1, 2, 1)), "if r1 > r2 goto pc+1");
	CHECK_STR(fmt(I_JMP_REG(BPF_JGE, 1, 2, 1)), "if r1 >= r2 goto pc+1");
	CHECK_STR(fmt(I_JMP_REG(BPF_JLT, 1, 2, 1)), "if r1 < r2 goto pc+1");
	CHECK_STR(fmt(I_JMP_REG(BPF_JLE, 1, 2, 1)), "if r1 <= r2 goto pc+1");
	CHECK_STR(fmt(I_JMP_REG(BPF_JSGE, 1, 2, 1)), "if r1 s>= r2 goto pc+1");
	CHECK_STR(fmt(I_JMP_REG(BPF_JSLT, 1, 2, 1)), "if r1 s< r2 goto pc+1");
	CHECK_STR(fmt(I_JMP_IMM(BPF_JSLE, 1, -1, 1)),
		  "if r1 s<= 0xffffffff goto pc+1");
	CHECK_STR(fmt(I_JMP_IMM(BPF_JSET, 1, 4, 2)), "if r1 & 0x4 goto pc+2");
	CHECK_STR(fmt(RAW(BPF_JMP32 | BPF_JEQ | BPF_K, 1, 0, -2, 3)),
		  "if w1 == 0x3 goto pc-2");
	CHECK_STR(fmt(RAW(BPF_JMP32 | BPF_JSLT | BPF_X, 1, 2, 7, 0)),
		  "if w1 s< w2 goto pc+7");
	CHECK_STR(fmt(I_JA(3)), "goto pc+3");
	CHECK_STR(fmt(RAW(BPF_JMP32 | BPF_JA, 0, 0, 0, -100)), "gotol pc-100");
	CHECK_STR(fmt(I_CALL(BPF_FUNC_map_lookup_elem)),
		  "call bpf_map_lookup_elem#1");
	CHECK_STR(fmt(I_CALL(BPF_FUNC_get_current_pid_tgid)),
		  "call bpf_get_current_pid_tgid#14");
	CHECK_STR(fmt(I_CALL(9999)), "call unknown#9999");
	CHECK_STR(fmt(RAW(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 6)),
		  "call pc+6");
	CHECK_STR(fmt(I_EXIT()), "exit");
}

static void test_helper_names(void)
{
	CHECK_STR(bpf_helper_name(1), "map_lookup_elem");
	CHECK_STR(bpf_helper_name(BPF_FUNC_ringbuf_output), "ringbuf_output");
	CHECK_STR(bpf_helper_name(BPF_FUNC_probe_read_kernel),
		  "probe_read_kernel");
	CHECK_STR(bpf_helper_name(BPF_FUNC_user_ringbuf_drain),
		  "user_ringbuf_drain");
	CHECK_STR(bpf_helper_name(211), "cgrp_storage_delete");
	CHECK(bpf_helper_name(0) == NULL);
	CHECK(bpf_helper_name(212) == NULL);
	CHECK(bpf_helper_name(-1) == NULL);
	/* every id up to the table's end has a name: no holes */
	int holes = 0;
	for (int id = 1; id <= 211; id++)
		holes += bpf_helper_name(id) == NULL;
	CHECK(holes == 0);
}

static void test_program(void)
{
	const char *text = "kprobe:do_nanosleep\n"
			   "{\n"
			   "  @n = count();   \n"
			   "}\n";
	struct bpf_insn p[] = {
		I_MOV64_REG(6, 1),
		I_LD_IMM64_1(1, BPF_PSEUDO_MAP_FD, 4),
		I_LD_IMM64_2(0),
		I_MOV64_REG(2, 10),
		I_CALL(BPF_FUNC_map_lookup_elem),
		I_JMP_IMM(BPF_JEQ, 0, 0, 1),
		I_ATOMIC_ADD64(0, 7, 0),
		I_MOV64_IMM(0, 0),
		I_EXIT(),
	};
	int lines[] = {0, 3, 3, 3, 3, 3, 3, 4, 0};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bpf_disasm(f, "kprobe:do_nanosleep", p, 9, lines, text);
	fclose(f);
	CHECK_STR(buf, "kprobe:do_nanosleep:\n"
		       "   0: (bf) r6 = r1\n"
		       "; @n = count();  (line 3)\n"
		       "   1: (18) r1 = map[fd:4]\n"
		       "   3: (bf) r2 = r10\n"
		       "   4: (85) call bpf_map_lookup_elem#1\n"
		       "   5: (15) if r0 == 0x0 goto pc+1 <7>\n"
		       "   6: (db) lock *(u64 *)(r0 +0) += r7\n"
		       "; }  (line 4)\n"
		       "   7: (b7) r0 = 0\n"
		       "   8: (95) exit\n");
	free(buf);

	/* no lines, no source, no title: bare listing */
	buf = NULL;
	f = open_memstream(&buf, &len);
	bpf_disasm(f, NULL, p + 7, 2, NULL, NULL);
	fclose(f);
	CHECK_STR(buf, "   0: (b7) r0 = 0\n"
		       "   1: (95) exit\n");
	free(buf);

	/* a line past the end of the text still gets its number */
	buf = NULL;
	f = open_memstream(&buf, &len);
	int far[] = {42};
	bpf_disasm(f, NULL, p + 8, 1, far, text);
	fclose(f);
	CHECK_STR(buf, "; (line 42)\n"
		       "   0: (95) exit\n");
	free(buf);
}

int main(void)
{
	test_alu();
	test_mem();
	test_atomic();
	test_ld_imm64();
	test_jmp();
	test_helper_names();
	test_program();
	sb_free(&sb);
	return check_done("test_disasm");
}
