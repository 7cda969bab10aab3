# Average run time of the BPF programs of a tracer while it samples a busy
# Python loop: the kernel counts each program's runs and their time while
# BPF_ENABLE_STATS is held (released when this exits).
#   bpf_prog_cost.py TRACER [ARGS...]   (the literal word PID is replaced)
# Prints "NS_PER_RUN RUNS MATCHED" for the tracer's perf_event programs
# (MATCHED: the program's @n count, 0 if none).
import ctypes
import json
import os
import signal
import subprocess
import sys
import time

libc = ctypes.CDLL(None, use_errno=True)
attr = ctypes.create_string_buffer(16)  # union bpf_attr: enable_stats.type = BPF_STATS_RUN_TIME (0)
stats_fd = libc.syscall(321, 32, attr, 16)  # bpf(BPF_ENABLE_STATS, ...)
if stats_fd < 0:
    sys.exit("BPF_ENABLE_STATS: %s" % os.strerror(ctypes.get_errno()))
# a busy loop 10 Python frames deep
LOOP = """import time
def f(n):
    if n:
        return f(n - 1)
    t = time.time()
    while time.time() - t < 4:
        pass
f(9)
"""
loop = subprocess.Popen(["/usr/bin/python3.11", "-c", LOOP])
time.sleep(0.3)  # let it exec python first
args = [a.replace("PID", str(loop.pid)) for a in sys.argv[1:]]


def perf_progs():
    out = subprocess.run(["bpftool", "-j", "prog", "show"], capture_output=True, text=True).stdout
    return {p["id"]: p for p in json.loads(out) if p.get("type") == "perf_event"}


before = perf_progs()  # this bpftool has no pids: the tracer's are the new ones
tracer = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
time.sleep(3)
ns = runs = 0
for i, p in perf_progs().items():
    if i not in before:
        ns += p.get("run_time_ns", 0)
        runs += p.get("run_cnt", 0)
tracer.send_signal(signal.SIGINT)
out = tracer.communicate()[0]
loop.wait()
# "@n: N" when the program counts its matching samples
n = [int(l.split()[1]) for l in out.splitlines() if l.startswith("@n: ")]
print("%.0f %d %d" % (ns / runs if runs else 0, runs, n[0] if n else 0))
