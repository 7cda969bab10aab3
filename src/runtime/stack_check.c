/* Whether a frame of a user stack walked through frame pointers is a real
 * caller.  Code built without frame pointers (Debian's CPython, glibc)
 * keeps other values in rbp, and the kernel's walk then reads "return
 * addresses" from wherever rbp points: a tower of [unknown] frames, or
 * worse, real function names that called nothing.  A real return address
 * follows a call instruction, and a direct call there goes to the inner
 * frame's function (or to a PLT stub, which has no symbol). */
#include "stack_check.h"

#include "../sym/elf_syms.h"
#include "../util/x86_insn.h"

/* The start of the function holding ip, 0 when no symbol holds it. */
static uint64_t func_start(SymCtx *sc, int pid, uint64_t ip)
{
	uint64_t off;
	const char *mod = NULL;
	return usym_resolve(sc, pid, ip, &off, &mod) ? ip - off : 0;
}

bool ustack_caller_ok(SymCtx *sc, int pid, uint64_t ret, uint64_t inner_ip)
{
	uint8_t code[9];
	int n = usym_code_before(sc, pid, ret, code, sizeof(code));
	int32_t rel = 0;
	X86Call call = n >= 2 ? x86_call_before(code, (size_t)n, &rel) : X86_CALL_NONE;
	if (call != X86_CALL_DIRECT)
		return call == X86_CALL_INDIRECT;
	uint64_t target = ret + (uint64_t)(int64_t)rel;
	uint64_t inner = func_start(sc, pid, inner_ip);
	return target == inner || !func_start(sc, pid, target);
}

int ustack_trusted(SymCtx *sc, int pid, const uint64_t *ips, int n)
{
	int k = n > 0 ? 1 : 0; /* frame 0 is the sampled instruction itself */
	while (k < n && ustack_caller_ok(sc, pid, ips[k], ips[k - 1]))
		k++;
	return k;
}
