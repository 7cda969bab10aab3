import time


def leaf():
    time.sleep(0.3)


def middle():
    leaf()


class Outer:
    def method(self):
        middle()


Outer().method()
