#!/bin/bash
# A UDP socket with a classic BPF filter "ret #0" (SO_ATTACH_FILTER) refuses every datagram.
REASON=SOCKET_FILTER FUNCTION_ipv4=udp_queue_rcv_one_skb FUNCTION_ipv6=udpv6_queue_rcv_one_skb
CAUSE="socket filter"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py srv b udp-server $V 5555 --filter-drop
	send 4 'E/IPX(src=AX, dst=BX)/UDP(sport=40000, dport=5555)/Raw(b"x"*20)'
	expect 4
}
lab_main
