# A frame whose `previous` link points at unmapped memory while leaf()
# sleeps: a stack walker reads leaf's frame, then fails to read the next.
# CPython 3.11 layouts: PyFrameObject.f_frame at 24, _PyInterpreterFrame.previous at 48.
import ctypes, sys, time

def leaf():
    frame = ctypes.c_void_p.from_address(id(sys._getframe()) + 24).value
    link = ctypes.c_void_p.from_address(frame + 48)
    saved = link.value
    link.value = 0x10  # the first page is never mapped
    time.sleep(0.3)
    link.value = saved

def middle():
    leaf()

middle()
