/* stack_args: calls eight_args() once with known values; the last two
 * are passed on the stack on x86-64 (sarg0, sarg1) and the first in rdi
 * (reg("di")). */
#include <stdio.h>

__attribute__((noinline)) long eight_args(long a, long b, long c, long d, long e, long f, long g,
					  long h)
{
	__asm__ volatile("" ::: "memory");
	return a + b + c + d + e + f + g + h;
}

int main(void)
{
	return eight_args(11, 22, 33, 44, 55, 66, 777, 888) == 1896 ? 0 : 1;
}
