/* usdt_consts [N]: USDT probes whose arguments are constants (the notes say
 * SIZE@$CONST), N times (default 1):
 *   sonde_test:consts  a signed and an unsigned constant of 1, 2 and 4 bytes,
 *                      as the compiler writes them (an unsigned char 240 is
 *                      1@$-16, an unsigned int 4092785136 is 4@$-202182160);
 *   sonde_test:wide    8-byte constants, signed and unsigned;
 *   sonde_test:lits    spellings written by hand: 1@$-16 4@$4092785136
 *                      2@$61936 -1@$240 -2@$61936 -4@$4092785136;
 *   sonde_test:twice   one marker in a function inlined at two call sites
 *                      (one probe, two locations), its argument the site. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>

static inline __attribute__((always_inline)) void mark(long site)
{
	DTRACE_PROBE1(sonde_test, twice, site);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1;
	for (long i = 0; i < n; i++) {
		DTRACE_PROBE6(sonde_test, consts, (signed char)-16, (unsigned char)240,
			      (short)-4096, (unsigned short)61936, (int)-202182160,
			      (unsigned int)4092785136u);
		DTRACE_PROBE2(sonde_test, wide, -5000000000000L, 18000000000000000000ul);
		__asm__ volatile(STAP_PROBE_ASM(sonde_test, lits, 1@$-16 4@$4092785136 2@$61936
						-1@$240 -2@$61936 -4@$4092785136));
		mark(1);
		mark(2);
	}
	return 0;
}
