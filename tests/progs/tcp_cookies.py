"""A TCP connection over loopback: three exchanges, then both ends closed.
Prints each end's socket cookie (SO_COOKIE) first, for a tracer's
socket_cookie() to be checked against (tests/runtime/test_bt26_rawtp_btf.sh)."""
import socket
import sys
import time

SO_COOKIE = 57
time.sleep(float(sys.argv[1]) if len(sys.argv) > 1 else 0.5)  # the tracer attaches
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(1)
c = socket.create_connection(s.getsockname())
a, _ = s.accept()
for end in (c, a):
    print("cookie", int.from_bytes(end.getsockopt(socket.SOL_SOCKET, SO_COOKIE, 8), "little"), flush=True)
for _ in range(3):
    c.sendall(b"x" * 100)
    a.recv(100)
    a.sendall(b"y")
    c.recv(1)
c.close()
a.close()
s.close()
