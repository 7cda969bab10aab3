/* Where start-up time goes: with SONDE_TIMES=1 in the environment each
 * phase_time() call prints "sonde: TIME ms: WHAT" to stderr, the time since
 * the process started (its start time in /proc/self/stat), so that the
 * phases of a slow start (the VM lane's emulated kernels) can be told apart. */
#pragma once

void phase_time(const char *what);
