#!/bin/bash
# drop_unicast_in_l2_multicast=1 on the receiver, then unicast IPv6 in a multicast frame.
REASON=UNICAST_IN_L2_MULTICAST FAMILY=ipv6 FUNCTION=ip6_rcv_core
CAUSE="unicast IP inside an L2"
source "$(dirname "$0")/../lib.sh"
setup() { in_b sysctl -q -w net.ipv6.conf.vB.drop_unicast_in_l2_multicast=1; }
trigger() {
	send 3 'Ether(src=MAC_A, dst="33:33:00:00:00:01")/IPv6(src=A6, dst=B6)/UDP(sport=40000, dport=5555)'
	expect 3
}
lab_main
