# A workload for the Python tools: known calls, a collection, an import,
# audited events, objects kept alive, a read that misses the page cache.
import gc
import os
import sys
import time


class Leaky:
    pass


kept = []


def work(n):
    return n * 2


def main(path):
    for i in range(200):
        work(i)
    for i in range(50):
        kept.append(Leaky())
    gc.collect()
    import json  # noqa: F401  (a real import: json and its submodules)
    with open(path, "rb") as f:
        os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
        f.read()
    time.sleep(0.3)


main(sys.argv[1])
sys.stdout.flush()
os._exit(0)  # no clean-up at exit: the objects kept stay counted (pyleak)
