#!/bin/bash
# A UDP socket with SO_RCVBUF=1 that never reads; 200 datagrams of 1000 bytes.
# Expected: the drops column of /proc/net/udp (udp6) for that socket, in that namespace.
REASON=SOCKET_RCVBUFF FUNCTION_ipv4=udp_queue_rcv_one_skb FUNCTION_ipv6=udpv6_queue_rcv_one_skb
CAUSE="receive buffer full"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py srv b udp-server $V 5555 --rcvbuf 1
	expect_counter "in_b $PY $LAB_PY udp-drops 5555"
	send 200 'E/IPX(src=AX, dst=BX)/UDP(sport=40000, dport=5555)/Raw(b"x"*1000)'
}
lab_main
