# Cost of a runtime probe (python/sonde_probes.py): N calls of a probe with
# one int argument, timed in-process; with "attached", waits until a tracer
# has enabled the probe first.  Prints "SECONDS_PROBE SECONDS_EMPTY".
import sys
import time

import sonde_probes as sp

N = int(sys.argv[1])
app = sp.Provider("bench")
tick = app.probe("tick", int)
app.load()
print("ready", flush=True)
if len(sys.argv) > 2:
    while not tick.enabled():
        time.sleep(0.01)
    time.sleep(0.2)  # the semaphore rises before the program is attached


def empty(i):
    pass


t = time.perf_counter()
for i in range(N):
    tick(i)
probe = time.perf_counter() - t
t = time.perf_counter()
for i in range(N):
    empty(i)
base = time.perf_counter() - t
print("%.6f %.6f" % (probe, base), flush=True)
