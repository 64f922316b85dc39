#!/usr/bin/python3
"""Packet and socket helpers for the whydrop drop-reason lab (tests/lab).

Run inside a namespace by lib.sh (`send`, `py_a`, `py_b`, `bg_py`). Needs Debian's
python3 with python3-scapy. Servers write $READY once listening and, on SIGTERM, their
kernel statistics (if any) to $STATS.

  send COUNT EXPR...            crafted frames out of vA (scapy expressions, see env())
  mib NAME                      a MIB counter of this namespace (nstat spelling)
  udp-drops PORT                sum of the drops column of /proc/net/udp{,6} for PORT
  udp-server FAM PORT [opts]    UDP socket (--rcvbuf N, --filter-drop, --read)
  tcp-server FAM PORT [opts]    TCP listener (--backlog N, --no-accept, --md5 KEY@PEER,
                                --minttl, --close, --read, --hold-lock [--release-on FILE],
                                --rcvbuf N, --fastopen)
  forge FAM PORT [opts] EXPR... connect to [B]:PORT for real, learn the sequence numbers
                                with TCP_REPAIR, then send forged segments seg(...)
                                (--fin: after a close in both directions, the peer in
                                TIME_WAIT; --after FILE: then create FILE, wait for FILE.done)
  handshake FAM PORT [opts] EXPR...  crafted SYN (--ts, --tfo N), SYN-ACK sniffed, the peer
                                left in SYN-RECV; then (--then CMD) forged segments seg(...)
  synack FAM PORT EXPR...       answer [B]'s SYN to [A]:PORT (sniffed) with forgeries seg(...)
  syn-sent FAM DST PORT         a connect() left in SYN-SENT (--wait FILE)
  lose-route FAM DST PORT       an established connection whose routes on vA are flushed,
                                then 3 sends and an abortive close (no route for any)
  udp-send FAM DST PORT COUNT   COUNT real datagrams (--size N, --ttl N, --src ADDR, --gso N)
  tcp-connect FAM DST PORT N    N real connections kept open
  pktsock IFACE [--proto P] [--rcvbuf N]   AF_PACKET socket that never reads
  tap NAME COUNT                tap nobody reads, COUNT datagrams routed into it
  tap-drop MODE NAME COUNT      a tap that drops COUNT frames (txfilter, ebpf, down, vnethdr)
  unix oob|close|disconnect N   AF_UNIX drop reasons
  ucopy tap NAME N              N writes to a tap from unreadable memory (EFAULT)
  cause JSON REASON PHRASE      (on the host) each REASON row's cause in whydrop's JSON
                                names PHRASE
"""
# The commands live beside this file, by concern:
#   lab_common.py    socket-option constants, AF, ready() ($READY), stats() ($STATS),
#                    wait_term() and the --option parser opts()
#   lab_craft.py     crafted packets (scapy): send, forge, listen-overflow, handshake, synack
#   lab_sockets.py   real sockets: udp-server, tcp-server, syn-sent, lose-route, udp-send,
#                    tcp-connect, pktsock, unix
#   lab_dev.py       tun/tap and macvtap devices: tap, tap-drop
#   lab_counters.py  kernel counters: mib, udp-drops
#   lab_cause.py     the cause check: cause
#   lab_fault.py     writes from memory the kernel cannot read: ucopy
import sys

sys.dont_write_bytecode = True   # run as root in namespaces: leave no __pycache__ in the tree

from lab_counters import cmd_mib, cmd_udp_drops
from lab_craft import cmd_send, cmd_forge, cmd_listen_overflow, cmd_handshake, cmd_synack
from lab_sockets import (cmd_udp_server, cmd_tcp_server, cmd_syn_sent, cmd_lose_route,
                         cmd_udp_send, cmd_tcp_connect, cmd_pktsock, cmd_unix)
from lab_dev import cmd_tap, cmd_tap_drop
from lab_cause import cmd_cause
from lab_fault import cmd_ucopy


CMDS = {'send': cmd_send, 'mib': cmd_mib, 'udp-drops': cmd_udp_drops,
        'udp-server': cmd_udp_server, 'tcp-server': cmd_tcp_server, 'forge': cmd_forge,
        'udp-send': cmd_udp_send, 'tcp-connect': cmd_tcp_connect, 'pktsock': cmd_pktsock,
        'tap': cmd_tap, 'tap-drop': cmd_tap_drop, 'unix': cmd_unix, 'listen-overflow': cmd_listen_overflow,
        'lose-route': cmd_lose_route, 'handshake': cmd_handshake, 'synack': cmd_synack, 'syn-sent': cmd_syn_sent}
CMDS.update({'cause': cmd_cause, 'ucopy': cmd_ucopy})

if __name__ == '__main__':
    if len(sys.argv) < 2 or sys.argv[1] not in CMDS:
        sys.exit(__doc__)
    CMDS[sys.argv[1]](sys.argv[2:])
