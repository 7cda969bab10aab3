# Sleeps in before_exec(), then execs argv[1:] in the same process: another
# python (its frames must be the new program's) or a program that is no
# python (it must have no Python frames: nothing stale of this one).
import os
import sys
import time


def before_exec():
    time.sleep(0.1)


before_exec()
os.execv(sys.argv[1], sys.argv[1:])
