# Declares runtime probes, waits until a tracer enables them, fires a known
# sequence, then reports whether the semaphores went down after the tracer
# left (argv[1]: "wait" to wait for the tracer to leave).
import sys
import time

import sonde_probes as sp

app = sp.Provider("myapp")
start = app.probe("request__start", str, int)
done = app.probe("request__done", int)
app.load()


@sp.fbt
def handler(x, y=2):
    return x * y


@sp.fbt
def greet(name):
    return "hello " + name


print("ready", flush=True)
for _ in range(3000):  # at most 30 s
    if start.enabled() and sp.fbt.entry.enabled():
        break
    time.sleep(0.01)
time.sleep(0.3)  # the kernel raises a semaphore just before the program is attached
for i in range(3):
    start("GET /%d" % i, i)
    handler(i, y=3)
    done(i * 10)
greet("bob")
start.fire("last", -1)
if len(sys.argv) > 1:
    for _ in range(500):
        if not (start.enabled() or sp.fbt.entry.enabled()):
            break
        time.sleep(0.01)
    print("enabled after detach:", start.enabled(), sp.fbt.entry.enabled(), flush=True)
