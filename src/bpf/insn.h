/* Constructors for BPF instructions (struct bpf_insn from linux/bpf.h). */
#pragma once
#include <linux/bpf.h>
#include <stdint.h>

#define I_ALU64_REG(OP, DST, SRC)                                              \
	((struct bpf_insn){.code = BPF_ALU64 | BPF_OP(OP) | BPF_X,             \
			   .dst_reg = DST, .src_reg = SRC})
#define I_ALU64_IMM(OP, DST, IMM)                                              \
	((struct bpf_insn){.code = BPF_ALU64 | BPF_OP(OP) | BPF_K,             \
			   .dst_reg = DST, .imm = IMM})
#define I_ALU32_IMM(OP, DST, IMM)                                              \
	((struct bpf_insn){.code = BPF_ALU | BPF_OP(OP) | BPF_K,               \
			   .dst_reg = DST, .imm = IMM})
#define I_MOV64_REG(DST, SRC) I_ALU64_REG(BPF_MOV, DST, SRC)
#define I_MOV64_IMM(DST, IMM) I_ALU64_IMM(BPF_MOV, DST, IMM)
#define I_MOV32_REG(DST, SRC)                                                  \
	((struct bpf_insn){.code = BPF_ALU | BPF_MOV | BPF_X, .dst_reg = DST,   \
			   .src_reg = SRC})
#define I_NEG64(DST)                                                           \
	((struct bpf_insn){.code = BPF_ALU64 | BPF_NEG, .dst_reg = DST})
/* two-slot 64-bit immediate load; pseudo = 0 or BPF_PSEUDO_MAP_FD/_VALUE */
#define I_LD_IMM64_1(DST, PSEUDO, IMM)                                         \
	((struct bpf_insn){.code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = DST,  \
			   .src_reg = PSEUDO, .imm = (int32_t)(uint32_t)(IMM)})
#define I_LD_IMM64_2(IMM)                                                      \
	((struct bpf_insn){.imm = (int32_t)(uint32_t)((uint64_t)(IMM) >> 32)})
#define I_LDX(SIZE, DST, SRC, OFF)                                             \
	((struct bpf_insn){.code = BPF_LDX | BPF_SIZE(SIZE) | BPF_MEM,         \
			   .dst_reg = DST, .src_reg = SRC, .off = OFF})
#define I_STX(SIZE, DST, SRC, OFF)                                             \
	((struct bpf_insn){.code = BPF_STX | BPF_SIZE(SIZE) | BPF_MEM,         \
			   .dst_reg = DST, .src_reg = SRC, .off = OFF})
#define I_ST(SIZE, DST, OFF, IMM)                                              \
	((struct bpf_insn){.code = BPF_ST | BPF_SIZE(SIZE) | BPF_MEM,          \
			   .dst_reg = DST, .off = OFF, .imm = IMM})
#define I_ATOMIC_ADD64(DST, SRC, OFF)                                          \
	((struct bpf_insn){.code = BPF_STX | BPF_DW | BPF_ATOMIC,              \
			   .dst_reg = DST, .src_reg = SRC, .off = OFF,         \
			   .imm = BPF_ADD})
#define I_JMP_REG(OP, DST, SRC, OFF)                                           \
	((struct bpf_insn){.code = BPF_JMP | BPF_OP(OP) | BPF_X,               \
			   .dst_reg = DST, .src_reg = SRC, .off = OFF})
#define I_JMP_IMM(OP, DST, IMM, OFF)                                           \
	((struct bpf_insn){.code = BPF_JMP | BPF_OP(OP) | BPF_K,               \
			   .dst_reg = DST, .off = OFF, .imm = IMM})
#define I_JA(OFF) ((struct bpf_insn){.code = BPF_JMP | BPF_JA, .off = OFF})
#define I_CALL(HELPER)                                                         \
	((struct bpf_insn){.code = BPF_JMP | BPF_CALL, .imm = HELPER})
#define I_EXIT() ((struct bpf_insn){.code = BPF_JMP | BPF_EXIT})
