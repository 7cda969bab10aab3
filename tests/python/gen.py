import time


def ticker():
    while True:
        time.sleep(0.2)
        yield 1


def consume():
    for _ in zip(range(1), ticker()):
        pass


consume()
