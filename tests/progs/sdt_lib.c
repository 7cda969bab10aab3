/* libsdt_lib.so: a shared library with a USDT probe guarded by a semaphore. */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

unsigned short sonde_lib_ping_semaphore __attribute__((section(".probes"))) = 0;
#define SONDE_LIB_PING_ENABLED() __builtin_expect(sonde_lib_ping_semaphore, 0)

int lib_ping(int x)
{
	int fired = 0;
	if (SONDE_LIB_PING_ENABLED()) {
		DTRACE_PROBE2(sonde_lib, ping, x, -x);
		fired = 1;
	}
	return fired;
}
