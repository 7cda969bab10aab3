# Off-CPU in Python: nap() sleeps 15 times 20 ms under main() (sonde
# flamegraph --off-cpu charges the time to these Python frames).
import time


def nap():
    time.sleep(0.02)


def main():
    for _ in range(15):
        nap()


main()
