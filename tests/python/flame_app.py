# sonde flamegraph's Python target (test_flame_python.sh): spin() is pure
# Python (most of the time), squeeze() calls C (zlib's deflate) that
# returns to Python; N rounds of each (argv[1], default 8).
import random, sys, zlib

def spin():
    s = 0
    for i in range(1500000):
        s += i * i
    return s

def squeeze(data):
    return len(zlib.compress(data, 9))

def main(rounds):
    data = random.Random(1).randbytes(1 << 20).translate(bytes(i & 15 for i in range(256)))
    while rounds > 0:
        spin()
        squeeze(data)
        rounds -= 1

main(int(sys.argv[1]) if sys.argv[1:] else 8)
