#!/usr/bin/env python3
"""Run the shared strace differential runner (../shared/strace-tests/run.py) with huge traces streamed.

The runner reads each trace whole and normalizes it line by line with many regular expressions. A few
programs write traces of 100+ MB (printpath-umovestr: 15 x 4095 chdir calls whose paths grow to PATH_MAX,
about 126 MB per run, four runs per program), and a full run then stalls for an hour in that program.

This wrapper loads the runner unchanged (it is read-only) and gives it a different `open` for traces
larger than --stream-cap bytes: such a file is read line by line and every quoted string longer than
--hash-over characters is replaced by its length and a SHA-1 of its bytes. Two traces still compare equal
exactly when their strings are equal; the normalizer then works on a few MB. Smaller traces are read as
before. Every option of run.py passes through.

    python3 dev/strace-diff.py [--stream-cap BYTES] [--hash-over CHARS] RUN.PY-OPTIONS...
"""
import builtins
import hashlib
import importlib.util
import io
import os
import re
import sys

RUNNER = os.environ.get("STRACE_DIFF_RUNNER",
                        os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                     "../../shared/strace-tests/run.py"))
if not os.path.exists(RUNNER):
    RUNNER = "/work/shared/strace-tests/run.py"

STRING_RE = re.compile(r'"(?:[^"\\]|\\.)*"')


def take_opt(argv, name, default):
    """Removes `name VALUE` (or name=VALUE) from argv; returns VALUE as an int."""
    for i, a in enumerate(argv):
        if a == name and i + 1 < len(argv):
            v = argv[i + 1]
            del argv[i:i + 2]
            return int(v)
        if a.startswith(name + "="):
            del argv[i]
            return int(a.split("=", 1)[1])
    return default


def digest_line(line, over):
    def sub(m):
        s = m.group(0)
        if len(s) - 2 <= over:
            return s
        h = hashlib.sha1(s.encode("utf-8", "surrogateescape")).hexdigest()[:20]
        return '"<%d chars sha1 %s>"' % (len(s) - 2, h)
    return STRING_RE.sub(sub, line) if len(line) > over else line


def make_open(cap, over):
    def capped_open(path, *args, **kw):
        if isinstance(path, str) and path.endswith(".log") and os.path.exists(path) \
                and os.path.getsize(path) > cap:
            out = io.StringIO()
            with builtins.open(path, *args, **kw) as f:
                for line in f:
                    out.write(digest_line(line, over))
            out.seek(0)
            return out
        return builtins.open(path, *args, **kw)
    return capped_open


def main():
    argv = sys.argv[1:]
    cap = take_opt(argv, "--stream-cap", 8 << 20)
    over = take_opt(argv, "--hash-over", 256)
    spec = importlib.util.spec_from_file_location("strace_diff_run", RUNNER)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.open = make_open(cap, over)
    sys.argv = [RUNNER] + argv
    return mod.main()


if __name__ == "__main__":
    sys.exit(main())
