# connect() to IPv4 and IPv6 addresses for tst.inet.d (UDP: nothing is sent)
import socket
for fam, addr in ((socket.AF_INET, "10.1.2.3"), (socket.AF_INET6, "fe80::1:2"),
                  (socket.AF_INET6, "::ffff:192.168.7.1"), (socket.AF_INET6, "2001:db8::")):
    s = socket.socket(fam, socket.SOCK_DGRAM)
    try:
        s.connect((addr, 9))
    except OSError:
        pass
    s.close()
