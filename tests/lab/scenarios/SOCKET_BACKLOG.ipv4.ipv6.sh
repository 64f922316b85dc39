#!/bin/bash
# The receiving task holds the socket lock (a send() from a userfaultfd page nobody
# serves), so segments go to the backlog; 3000 forged segments overflow it.
# Expected: the namespace's TcpExtTCPBacklogDrop counter.
REASON=SOCKET_BACKLOG FUNCTION_ipv4=tcp_v4_rcv FUNCTION_ipv6=tcp_v6_rcv
CAUSE="backlog queue is full"
source "$(dirname "$0")/../lib.sh"
setup() { in_a sysctl -q -w net.ipv4.tcp_timestamps=0; }
trigger() {
	bg_py srv b tcp-server $V 8080 --hold-lock
	expect_counter "mib b TcpExtTCPBacklogDrop"
	bg_py cli a forge $V 8080 --wait "$T/srv.ready.locked" --count 3000 'seg(data=b"x"*1000)'
}
lab_main
