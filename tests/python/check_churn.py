# Reads sonde's output of the churn.py runs (test_pystack_reuse.sh) on
# stdin; prints "N records M wrong", then the first wrong ones.
#   check_churn.py [same|keys]
import re, sys
text = sys.stdin.read()
mode = sys.argv[1] if len(sys.argv) > 1 else ""
FR = r"\s+\[ (\S+):(\d+) \((\S+)\) \]\n"
wrong, n = [], 0
if mode == "same":
    for i, line, f, ln, name in re.findall(r"/nonexistent/s(\d+)_(\d+)\s*\n" + FR, text):
        n += 1
        if (f, ln, name) != ("same.py", line, "g"):
            wrong.append(f"s{i}: {f}:{ln} ({name})")
else:
    pat = (r"@\[\n" + FR + FR + r"\]: 1") if mode == "keys" else r"/nonexistent/(\d+)\s*\n" + FR + FR
    for m in re.findall(pat, text):
        n += 1
        if mode == "keys":
            i = m[0][3:-3]
            f1, l1, n1, f2, l2, n2 = m
        else:
            i, f1, l1, n1, f2, l2, n2 = m
        want = (f"gen{i}.py", "3", f"f{i}", f"gen{i}.py", "6", "<module>")
        if (f1, l1, n1, f2, l2, n2) != want:
            wrong.append(f"{i}: {f1}:{l1} ({n1}) {f2}:{l2} ({n2})")
print(n, "records", len(wrong), "wrong")
for w in wrong[:5]:
    print(w)
