#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Both ends of the TCP connections of tests/system/tcp_events.sh.

  tcp_events_peer.py server MODE ADDR PORT N   (prints "ready", serves N connections)
  tcp_events_peer.py client MODE ADDR PORT N [BYTES]
  tcp_events_peer.py cookie                    (this namespace's SO_NETNS_COOKIE)

Each end prints, last, what it saw itself: "resets N" (ECONNRESET, EPIPE
or ECONNREFUSED from its own calls), so the kernel's count of resets
received can be compared with the application's own view.
"""
import errno
import select
import socket
import struct
import sys
import time

SO_NETNS_COOKIE = 71
TCP_LINGER2 = 8
RESET_ERRNOS = (errno.ECONNRESET, errno.EPIPE, errno.ECONNREFUSED)


def family(addr):
    return socket.AF_INET6 if ":" in addr else socket.AF_INET


def was_reset(fn):
    """1 if fn() failed because the connection was reset (or refused), else 0."""
    try:
        fn()
    except OSError as e:
        if e.errno in RESET_ERRNOS:
            return 1
        raise
    return 0


def recv_all(c):
    while c.recv(65536):
        pass


def connection_reset(c, write_first):
    """1 if this connection was reset, as the server's own calls see it."""
    steps = [lambda: recv_all(c)]
    if write_first:
        steps.append(lambda: (time.sleep(0.6), c.sendall(b"x" * 100)))
    steps += [lambda: time.sleep(0.5), lambda: c.sendall(b"y"),
              lambda: time.sleep(0.2), lambda: c.sendall(b"y")]
    for step in steps:
        if was_reset(step):
            return 1
    return 0


def serve(mode, addr, port, n):
    ls = socket.socket(family(addr), socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((addr, port))
    ls.listen(64)
    ls.settimeout(20)	# a client that never comes fails the test, never hangs it
    print("ready", flush=True)
    resets = 0
    for _ in range(n):
        c, _ = ls.accept()
        c.settimeout(20)
        if mode == "abort_on_close":
            # the client's data is here, unread: close() resets
            select.select([c], [], [], 5)
            c.close()
            continue
        if mode == "sink":
            resets += was_reset(lambda: recv_all(c))
            c.close()
            continue
        # the client half-closes or resets; we write after, and see the reset
        resets += connection_reset(c, mode == "send_after_eof")
        c.close()
    ls.close()
    print("resets", resets, flush=True)


def client_one(mode, addr, port, nbytes):
    s = socket.socket(family(addr), socket.SOCK_STREAM)
    if mode == "refused":
        r = was_reset(lambda: s.connect((addr, port)))
        s.close()
        return r
    s.connect((addr, port))
    r = 0
    if mode == "send_wait":
        s.sendall(b"z" * 100)
        r = was_reset(lambda: recv_all(s))
    elif mode == "linger2":
        s.setsockopt(socket.IPPROTO_TCP, TCP_LINGER2, -1)
        s.shutdown(socket.SHUT_WR)
        time.sleep(0.3)		# FIN acknowledged: FIN_WAIT2
    elif mode == "linger0":
        time.sleep(0.1)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    elif mode == "shut_rdwr":
        s.shutdown(socket.SHUT_RDWR)
        time.sleep(1.0)		# the server's data arrives after our shutdown
    elif mode == "shut_wr_close":
        s.shutdown(socket.SHUT_WR)
        time.sleep(0.3)		# FIN_WAIT2, then close(): a timewait socket
    elif mode == "keepalive":
        # the peer goes silent once we are connected: keepalive gives up
        for opt, val in ((socket.TCP_KEEPIDLE, 1), (socket.TCP_KEEPINTVL, 1),
                         (socket.TCP_KEEPCNT, 1)):
            s.setsockopt(socket.IPPROTO_TCP, opt, val)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        print("connected", flush=True)
        sys.stdin.readline()
        try:
            s.recv(1)
        except TimeoutError:
            pass
    elif mode == "stall":
        # told on stdin when to send (the peer drops it) and when to go
        print("connected", flush=True)
        sys.stdin.readline()
        s.sendall(b"s" * 10000)
        print("sent", flush=True)
        sys.stdin.readline()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    elif mode == "bulk":
        s.sendall(b"b" * nbytes)
        s.shutdown(socket.SHUT_WR)
        r = was_reset(lambda: recv_all(s))
    s.close()
    if mode == "shut_wr_close":
        time.sleep(1.0)		# the server writes to the timewait socket
    return r


def main():
    if sys.argv[1] == "cookie":
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        raw = s.getsockopt(socket.SOL_SOCKET, SO_NETNS_COOKIE, 8)
        print(struct.unpack("=Q", raw)[0])
        return
    role, mode, addr, port, n = sys.argv[1:6]
    port, n = int(port), int(n)
    if role == "server":
        serve(mode, addr, port, n)
        return
    nbytes = int(sys.argv[6]) if len(sys.argv) > 6 else 0
    resets = sum(client_one(mode, addr, port, nbytes) for _ in range(n))
    print("resets", resets, flush=True)


if __name__ == "__main__":
    main()
