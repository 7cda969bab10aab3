# CPU-bound until killed, or for at most argv[1] seconds (60): a profiler's target
import sys, time
def hot():
    s = 0
    for i in range(300000):
        s += i
    return s
def main(end):
    while time.monotonic() < end:
        hot()
main(time.monotonic() + float(sys.argv[1] if len(sys.argv) > 1 else 60))
