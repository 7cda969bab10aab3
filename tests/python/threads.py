import threading
import time


def alpha():
    time.sleep(0.4)


def beta():
    time.sleep(0.4)


def gamma():
    time.sleep(0.4)


threads = [threading.Thread(target=f) for f in (alpha, beta, gamma)]
for t in threads:
    t.start()
for t in threads:
    t.join()
