#!/usr/bin/env python3
# Connections refused on purpose, for the tests and benches that need TCP
# resets: connects to 127.0.0.1:9, where nothing listens, so each SYN is
# dropped (NO_SOCKET in tcp_v4_rcv) and answered by a reset.
#   refused.py COUNT          COUNT connects
#   refused.py --for SECONDS  connects for SECONDS (checked every 100)
import socket
import sys
import time


def refused(n):
    for _ in range(n):
        s = socket.socket()
        try:
            s.connect(("127.0.0.1", 9))
        except ConnectionRefusedError:
            pass
        s.close()


if sys.argv[1] == "--for":
    end = time.monotonic() + float(sys.argv[2])
    while time.monotonic() < end:
        refused(100)
else:
    refused(int(sys.argv[1]))
