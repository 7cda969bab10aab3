/* x86-64 instruction lengths (uprobe offsets on instruction boundaries):
 * one instruction of each encoding class, checked against objdump's
 * lengths, and boundaries through a small function. */
#include <stdint.h>

#include "check.h"
#include "util/x86_insn.h"

#define LEN(...)                                                               \
	({                                                                     \
		static const uint8_t b_[] = {__VA_ARGS__};                     \
		x86_insn_len(b_, sizeof(b_));                                  \
	})

static void test_lengths(void)
{
	CHECK(LEN(0xc3) == 1);                                     /* ret */
	CHECK(LEN(0xc9) == 1);                                     /* leave */
	CHECK(LEN(0x48, 0x01, 0xf7) == 3);                         /* add %rsi,%rdi */
	CHECK(LEN(0x48, 0x8d, 0x44, 0x3a, 0x64) == 5);             /* lea 0x64(%rdx,%rdi),%rax */
	CHECK(LEN(0x48, 0x8b, 0x05, 1, 2, 3, 4) == 7);             /* mov rip-relative */
	CHECK(LEN(0x8b, 0x04, 0x25, 1, 2, 3, 4) == 7);             /* SIB, no base: disp32 */
	CHECK(LEN(0x48, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8) == 10);      /* movabs $imm64 */
	CHECK(LEN(0xb8, 1, 2, 3, 4) == 5);                         /* mov $imm32,%eax */
	CHECK(LEN(0x66, 0xb8, 1, 2) == 4);                         /* mov $imm16,%ax */
	CHECK(LEN(0x66, 0x81, 0xf9, 1, 2) == 5);                   /* cmp $imm16,%cx */
	CHECK(LEN(0xa8, 0x10) == 2);                               /* test $imm8,%al */
	CHECK(LEN(0xa9, 1, 2, 3, 4) == 5);                         /* test $imm32,%eax */
	CHECK(LEN(0xf6, 0xc1, 0x01) == 3);                         /* test $1,%cl: F6 /0 */
	CHECK(LEN(0xf7, 0xd8) == 2);                               /* neg %eax: F7 /3 */
	CHECK(LEN(0xf7, 0xc1, 1, 2, 3, 4) == 6);                   /* test $imm32,%ecx */
	CHECK(LEN(0xe8, 1, 2, 3, 4) == 5);                         /* call rel32 */
	CHECK(LEN(0x0f, 0x84, 1, 2, 3, 4) == 6);                   /* je rel32 */
	CHECK(LEN(0x74, 0x05) == 2);                               /* je rel8 */
	CHECK(LEN(0xf3, 0x0f, 0x1e, 0xfa) == 4);                   /* endbr64 */
	CHECK(LEN(0x66, 0x0f, 0x1f, 0x44, 0, 0) == 6);             /* nopw 0(%rax,%rax) */
	CHECK(LEN(0x66, 0x0f, 0x3a, 0x0f, 0xc1, 0x08) == 6);       /* palignr $8 */
	CHECK(LEN(0x66, 0x0f, 0x38, 0x00, 0xc1) == 5);             /* pshufb */
	CHECK(LEN(0xc5, 0xfd, 0x6f, 0x06) == 4);                   /* vmovdqa (%rsi),%ymm0 */
	CHECK(LEN(0xc5, 0xf8, 0x77) == 3);                         /* vzeroupper */
	CHECK(LEN(0xc4, 0xe3, 0x7d, 0x39, 0xc1, 0x01) == 6);       /* vextracti128 $1 */
	CHECK(LEN(0x62, 0xf1, 0xfe, 0x48, 0x6f, 0x46, 0x01) == 7); /* vmovdqu64 0x40(%rsi),%zmm0 */
	CHECK(LEN(0xc8, 0x10, 0x00, 0x00) == 4);                   /* enter $16,$0 */
	CHECK(LEN(0x48, 0xa1, 1, 2, 3, 4, 5, 6, 7, 8) == 10);      /* movabs moffs,%rax */
	CHECK(LEN(0xd9, 0xee) == 2);                               /* fldz */
	CHECK(LEN(0x06) == -1);                                    /* push %es: not in 64-bit mode */
	CHECK(LEN(0x48, 0x8b) == -1);                              /* cut short */
	CHECK(LEN(0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
		  0x66, 0x90) == 15);                              /* 15 bytes: the limit */
	CHECK(LEN(0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
		  0x66, 0x66, 0x90) == -1);                        /* 16: too long */
}

static void test_boundaries(void)
{
	/* uprobe_target's add3: add %rsi,%rdi; lea 0x64(%rdx,%rdi,1),%rax; ret */
	static const uint8_t add3[] = {0x48, 0x01, 0xf7, 0x48, 0x8d, 0x44, 0x3a, 0x64, 0xc3};
	CHECK(x86_insn_boundary(add3, sizeof(add3), 0) == X86_ALIGNED);
	CHECK(x86_insn_boundary(add3, sizeof(add3), 1) == X86_MIDDLE);
	CHECK(x86_insn_boundary(add3, sizeof(add3), 3) == X86_ALIGNED);
	CHECK(x86_insn_boundary(add3, sizeof(add3), 6) == X86_MIDDLE);
	CHECK(x86_insn_boundary(add3, sizeof(add3), 8) == X86_ALIGNED);
	static const uint8_t bad[] = {0x90, 0x06, 0x90};
	CHECK(x86_insn_boundary(bad, sizeof(bad), 2) == X86_UNDECODABLE);
}

#define CALL(...) x86_call_before((const uint8_t[]){__VA_ARGS__}, \
				 sizeof((const uint8_t[]){__VA_ARGS__}), &rel)

/* what a frame-pointer walk's return address must follow */
static void test_calls(void)
{
	int32_t rel = 0;
	CHECK(CALL(0x90, 0xe8, 0x10, 0x00, 0x00, 0x00) == X86_CALL_DIRECT && rel == 0x10);
	CHECK(CALL(0xe8, 0xfb, 0xff, 0xff, 0xff) == X86_CALL_DIRECT && rel == -5);
	CHECK(CALL(0x90, 0xff, 0xd0) == X86_CALL_INDIRECT);                 /* call *%rax */
	CHECK(CALL(0x41, 0xff, 0xd4) == X86_CALL_INDIRECT);                 /* call *%r12 */
	CHECK(CALL(0xff, 0x15, 1, 2, 3, 4) == X86_CALL_INDIRECT);           /* call *x(%rip) */
	CHECK(CALL(0xff, 0x50, 0x08) == X86_CALL_INDIRECT);                 /* call *8(%rax) */
	CHECK(CALL(0xff, 0x94, 0xc1, 1, 2, 3, 4) == X86_CALL_INDIRECT);     /* call *x(%rcx,%rax,8) */
	CHECK(CALL(0x3e, 0xff, 0xd0) == X86_CALL_INDIRECT);                 /* notrack call *%rax */
	CHECK(CALL(0x48, 0x89, 0xc7) == X86_CALL_NONE);                     /* mov %rax,%rdi */
	CHECK(CALL(0xff, 0xe0) == X86_CALL_NONE);                           /* jmp *%rax */
	CHECK(CALL(0xe9, 1, 2, 3, 4) == X86_CALL_NONE);                     /* jmp rel32 */
	CHECK(CALL(0x00, 0x00, 0x00, 0x00) == X86_CALL_NONE);               /* data */
	CHECK(CALL(0xd0) == X86_CALL_NONE);                                 /* too short */
}

int main(void)
{
	test_lengths();
	test_boundaries();
	test_calls();
	return check_done("x86_insn");
}
