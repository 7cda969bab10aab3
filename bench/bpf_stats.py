# Run time of the BPF programs a command loads, while it runs: the kernel
# counts each program's runs and their time only while someone holds
# BPF_ENABLE_STATS (released when this exits).
#   bpf_stats.py COMMAND [ARGS...]
# Runs COMMAND (its stdout and stderr pass through), polls the perf_event
# programs that appeared after it started (bpftool) until it exits, and
# prints "bpf_stats: RUN_NS RUNS" on stderr (the last values seen).
import ctypes
import json
import os
import subprocess
import sys
import time

libc = ctypes.CDLL(None, use_errno=True)
attr = ctypes.create_string_buffer(16)  # union bpf_attr: enable_stats.type = BPF_STATS_RUN_TIME (0)
stats_fd = libc.syscall(321, 32, attr, 16)  # bpf(BPF_ENABLE_STATS, ...)
if stats_fd < 0:
    sys.exit("BPF_ENABLE_STATS: %s" % os.strerror(ctypes.get_errno()))


def perf_progs():
    out = subprocess.run(["bpftool", "-j", "prog", "show"], capture_output=True, text=True).stdout
    return {p["id"]: p for p in json.loads(out or "[]") if p.get("type") == "perf_event"}


before = set(perf_progs())
cmd = subprocess.Popen(sys.argv[1:])
seen = {}
while cmd.poll() is None:
    for i, p in perf_progs().items():
        if i not in before:
            seen[i] = (p.get("run_time_ns", 0), p.get("run_cnt", 0))
    time.sleep(0.1)
ns = sum(v[0] for v in seen.values())
runs = sum(v[1] for v in seen.values())
print("bpf_stats: %d %d" % (ns, runs), file=sys.stderr)
sys.exit(cmd.returncode)
