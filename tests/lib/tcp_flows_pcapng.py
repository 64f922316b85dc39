#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""A recording as `whydrop record --tcp` writes it, with many flows.

Usage: tcp_flows_pcapng.py FLOWS FILE [mixed]

Each flow i (198.51.100.0/24 ports 1024.. to 203.0.113.0/24 port 5001)
holds, in this order: a retransmission of 1 segment (the TCP events'
interface, "whydrop-tcp"), a reset sent, and a drop of one of its packets
(the drops' interface) by one of three reasons. The file thus holds FLOWS
retransmitted segments, FLOWS resets sent and FLOWS drops, each flow with
one drop: what `whydrop read` must count, whatever it counts with.
mixed: flow i has 1 + i % 11 drops instead, by as many of 12 reasons (a
flow of more than 8 has "other"), and its reset one of three states.
"""
import struct
import sys

LINKTYPE_RAW = 101
REASONS = ("TCP_INVALID_SEQUENCE", "NETFILTER_DROP", "TCP_OLD_ACK", "TCP_RESET",
           "TCP_CLOSE", "TCP_FLAGS", "TCP_OFOMERGE", "TCP_ZEROWINDOW", "TCP_OVERWINDOW",
           "TCP_RFC7323_PAWS", "TCP_MD5NOTFOUND", "SOCKET_FILTER")
STATES = ("CLOSE", "ESTABLISHED", "LAST_ACK")


def block(btype, body):
    body += b"\0" * (-len(body) % 4)
    n = 12 + len(body)
    return struct.pack("<II", btype, n) + body + struct.pack("<I", n)


def opt(code, value):
    return struct.pack("<HH", code, len(value)) + value + b"\0" * (-len(value) % 4)


def end_opts():
    return struct.pack("<HH", 0, 0)


def header(out):
    out.write(block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1) +
                    opt(3, b"Linux 6.18.0") + opt(4, b"whydrop bench") + end_opts()))
    for name in (b"whydrop", b"whydrop-tcp"):
        out.write(block(1, struct.pack("<HHI", LINKTYPE_RAW, 0, 262144) +
                        opt(2, name) + opt(9, b"\x09") + end_opts()))


def ip_tcp(src, sport, dst, dport, flags):
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 40, 0, 0x4000, 64, 6, 0, src, dst)
    tcp = struct.pack("!HHIIBBHHH", sport, dport, 0, 0, 5 << 4, flags, 0, 0, 0)
    return ip + tcp


def packet(out, if_id, ts_ns, data, comment):
    body = struct.pack("<IIIII", if_id, ts_ns >> 32, ts_ns & 0xFFFFFFFF, len(data), len(data))
    body += data + b"\0" * (-len(data) % 4)
    out.write(block(6, body + opt(1, comment.encode()) + end_opts()))


def flow(out, i, ts_ns, mixed):
    src = bytes((198, 51, 100, 1 + i % 250))
    dst = bytes((203, 0, 113, 1 + i // 250 % 250))
    sport = 1024 + i // 62500
    ns = "netns=4026531840 netns_cookie=1"
    packet(out, 1, ts_ns, ip_tcp(src, sport, dst, 5001, 0x10),
           "event=tcp_retransmit state=ESTABLISHED %s segs=1" % ns)
    packet(out, 1, ts_ns + 1, ip_tcp(src, sport, dst, 5001, 0x04),
           "event=tcp_reset_sent reason=TCP_ABORT_ON_CLOSE state=%s %s" %
           (STATES[i % 3] if mixed else "CLOSE", ns))
    for j in range(1 + i % 11 if mixed else 1):
        packet(out, 0, ts_ns + 2 + j, ip_tcp(dst, 5001, src, sport, 0x10),
               "reason=%s location=tcp_validate_incoming+0x1f/0x6a0 netns=4026531840 "
               "code=2" % REASONS[(i + j) % (12 if mixed else 3)])


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[3:] not in ([], ["mixed"]):
        sys.exit(__doc__.strip().splitlines()[2])
    flows, mixed = int(sys.argv[1]), len(sys.argv) == 4
    with open(sys.argv[2], "wb") as out:
        header(out)
        for i in range(flows):
            flow(out, i, 1_700_000_000 * 10**9 + i * 1000, mixed)


if __name__ == "__main__":
    main()
