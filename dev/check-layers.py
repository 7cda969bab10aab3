#!/usr/bin/env python3
"""Check that sonde's layers call down only (the order: src/LAYERS).

    dev/check-layers.py [--update] [BUILD_DIR]

Two kinds of edge are checked, each from one folder of src/ to another:
  include  a quoted #include of a header in another folder;
  call     an object file's undefined symbol that another folder's object
           file defines (nm), so a function declared locally is caught too.
An edge is upward when its target folder is not on a line above its
source's (peers on one line may not use each other either).  Upward edges
listed in dev/layers-known.txt are the debt still to pay: they are
reported as a count; any other upward edge fails the check.  --update
rewrites that file with the upward edges there are now.
"""
import os
import re
import subprocess
import sys

SRC = "src"
KNOWN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "layers-known.txt")


def read_layers():
    level = {}
    with open(os.path.join(SRC, "LAYERS")) as f:
        n = 0
        for line in f:
            line = line.split("#")[0].split()
            if not line:
                continue
            for name in line:
                level[name] = n
            n += 1
    return level


def folder(path):
    rel = os.path.relpath(path, SRC)
    return rel.split(os.sep)[0] if os.sep in rel else rel


def sources():
    for d, _, files in os.walk(SRC):
        for name in sorted(files):
            if name.endswith((".c", ".h")):
                yield os.path.join(d, name)


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def include_edges():
    for path in sources():
        here = os.path.dirname(path)
        with open(path, errors="replace") as f:
            for line in f:
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = os.path.normpath(os.path.join(here, m.group(1)))
                if not os.path.exists(target):
                    target = os.path.normpath(os.path.join(SRC, m.group(1)))
                if os.path.exists(target) and target.startswith(SRC + os.sep):
                    yield ("include", path, target, m.group(1))


def objects(build):
    root = os.path.join(build, SRC)
    for d, _, files in os.walk(root):
        for name in sorted(files):
            if name.endswith(".o"):
                obj = os.path.join(d, name)
                src = os.path.join(SRC, os.path.relpath(obj, root))[:-2] + ".c"
                if os.path.exists(src):  # not a stale object of a moved file
                    yield obj, src


def nm(obj, *flags):
    out = subprocess.run(["nm", *flags, obj], capture_output=True, text=True, check=True).stdout
    return [line.split()[-1] for line in out.splitlines() if line.strip()]


def call_edges(build):
    objs = list(objects(build))
    if not objs:
        sys.exit(f"check-layers: no object files under {build}/{SRC}: build first")
    defined = {}
    for obj, src in objs:
        for sym in nm(obj, "--defined-only", "-g"):
            defined[sym] = src
    for obj, src in objs:
        for sym in nm(obj, "-u"):
            if sym in defined:
                yield ("call", src, defined[sym], sym)


def main():
    args = sys.argv[1:]
    update = "--update" in args
    args = [a for a in args if a != "--update"]
    build = args[0] if args else "build"
    level = read_layers()
    upward, unknown_folders, uses = set(), set(), set()
    for kind, src, dst, what in list(include_edges()) + list(call_edges(build)):
        a, b = folder(src), folder(dst)
        if a == b:
            continue
        uses.add((a, b))
        for f in (a, b):
            if f not in level:
                unknown_folders.add(f)
        if a in level and b in level and level[b] >= level[a]:
            upward.add(f"{kind} {src} -> {dst} {what}")
    if unknown_folders:
        sys.exit("check-layers: folders not in src/LAYERS: " + " ".join(sorted(unknown_folders)))
    if update:
        with open(KNOWN, "w") as f:
            f.write("# upward edges still to remove (dev/check-layers.py --update writes this)\n")
            f.writelines(e + "\n" for e in sorted(upward))
        print(f"check-layers: {len(upward)} known upward edges written to {KNOWN}")
        return 0
    known = set()
    if os.path.exists(KNOWN):
        with open(KNOWN) as f:
            known = {l.strip() for l in f if l.strip() and not l.startswith("#")}
    new = sorted(upward - known)
    for e in new:
        print("check-layers: upward:", e)
    mutual = sorted({tuple(sorted(p)) for p in uses if (p[1], p[0]) in uses})
    print(f"check-layers: {len(upward)} upward edges ({len(upward & known)} known, {len(new)} new, "
          f"{len(known - upward)} known ones gone); folder pairs using each other: "
          + (", ".join(f"{a}<->{b}" for a, b in mutual) or "none"))
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main())
