import socket, time
r = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
r.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1)
r.bind(("127.0.0.1", 0))
port = r.getsockname()[1]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
u = 0
for i in range(100):
    s.sendto(b"x", ("127.0.0.1", port))
    if i % 10 == 0:
        a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
        a.send(b"x"); u += 1
        b.close(); a.close()
print("unix", u, open("/proc/net/snmp").read().split("Udp:")[2].split())
r.close()
