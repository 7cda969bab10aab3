/* libwild_lib.so: a shared library with USDT probes, linked by wild_a and
 * wild_b (built from wild_twin.c) for the wildcard and -p tests. */
#include <sys/sdt.h>

int wild_lib_call(int x)
{
	DTRACE_PROBE1(wild_lib, lib_probe1, x);
	DTRACE_PROBE1(wild_lib, lib_probe2, x + 1);
	return x + 1;
}
