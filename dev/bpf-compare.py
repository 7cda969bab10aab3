#!/usr/bin/env python3
"""Compare two trees of dev/bpf-dumps.sh output: BEFORE and AFTER.

    dev/bpf-compare.py BEFORE BEFORE2 AFTER

BEFORE2 is a second dump of the same build: lines that differ between
BEFORE and BEFORE2 hold run-time values (sonde's pid, the -c child's pid,
boot-time offsets), so they are not compared.  Prints each script whose
dump changed otherwise, and "N same, N changed"; exits 1 if any changed.
"""
import os
import re
import sys


HEX = re.compile(r"0x[0-9a-f]+")


def wall_ns(m):
    """the wall clock's offset in ns (a time since 1970 between 2001 and
    2039) is baked into programs that print walltimestamp: not compared"""
    return "WALL_NS" if 10**18 <= int(m.group(0), 16) <= 2.2 * 10**18 else m.group(0)


def lines(path):
    try:
        with open(path, errors="replace") as f:
            return [HEX.sub(wall_ns, line) for line in f.read().splitlines()]
    except FileNotFoundError:
        return None


def main():
    before, before2, after = sys.argv[1:4]
    same = changed = 0
    for d, _, files in sorted(os.walk(before)):
        for name in sorted(files):
            rel = os.path.relpath(os.path.join(d, name), before)
            a, a2, b = (lines(os.path.join(t, rel)) for t in (before, before2, after))
            noisy = set()
            if a2 is not None and len(a2) == len(a):
                noisy = {i for i, (x, y) in enumerate(zip(a, a2)) if x != y}
            ok = b is not None and len(a) == len(b) and all(
                x == y for i, (x, y) in enumerate(zip(a, b)) if i not in noisy)
            if ok:
                same += 1
                continue
            changed += 1
            print("changed:", rel)
    print(f"{same} same, {changed} changed")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
