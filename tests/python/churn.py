# Code objects freed and others made at their addresses: each round compiles
# a module gen{i}.py defining f{i}, which stats /nonexistent/{i}; the
# module's code object is freed after exec, and the next round's takes its
# place.  With "gc" each round's namespace (f{i} and its code) is dropped and
# collected too; with "same" every round compiles g() in same.py, whose
# stat moves down a line each round (mod 7): same file, name and first line
# at a reused address, only the line differs.
import gc, os, sys
mode = sys.argv[1] if len(sys.argv) > 1 else ""
for i in range(300):
    if mode == "same":
        k = i % 7
        src = "def g():\n" + "\n" * k + \
            f"    try:\n        os.stat('/nonexistent/s{i}_{k + 3}')\n    except OSError:\n        pass\ng()\n"
        name = "same.py"
    else:
        src = f"def f{i}():\n    try:\n        os.stat('/nonexistent/{i}')\n    except OSError:\n" \
            f"        pass\nf{i}()\n"
        name = f"gen{i}.py"
    if mode:
        ns = {"os": os}
        exec(compile(src, name, "exec"), ns)
        del ns
        gc.collect()
    else:
        exec(compile(src, name, "exec"))
