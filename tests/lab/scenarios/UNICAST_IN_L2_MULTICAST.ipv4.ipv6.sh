#!/bin/bash
# drop_unicast_in_l2_multicast=1 on the receiver, then unicast IPv4 in a broadcast frame
# (IPv6 in a multicast frame).
REASON=UNICAST_IN_L2_MULTICAST FUNCTION_ipv4=ip_rcv_finish_core FUNCTION_ipv6=ip6_rcv_core
CAUSE="unicast IP inside an L2"
source "$(dirname "$0")/../lib.sh"
setup() { in_b sysctl -q -w net.ipv$V.conf.vB.drop_unicast_in_l2_multicast=1; }
trigger() {
	local mac=ff:ff:ff:ff:ff:ff
	[ "$V" = 4 ] || mac=33:33:00:00:00:01
	send 3 "Ether(src=MAC_A, dst='$mac')"'/IPX(src=AX, dst=BX)/UDP(sport=40000, dport=5555)'
	expect 3
}
lab_main
