#!/bin/bash
# A UDP socket with a classic BPF filter "ret #0" (SO_ATTACH_FILTER) refuses every datagram.
REASON=SOCKET_FILTER FAMILY=ipv6 FUNCTION=udpv6_queue_rcv_one_skb
CAUSE="socket filter"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py srv b udp-server 6 5555 --filter-drop
	send 4 'E/IPv6(src=A6, dst=B6)/UDP(sport=40000, dport=5555)/Raw(b"x"*20)'
	expect 4
}
lab_main
