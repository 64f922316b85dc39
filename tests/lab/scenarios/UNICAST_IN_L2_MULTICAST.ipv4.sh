#!/bin/bash
# drop_unicast_in_l2_multicast=1 on the receiver, then unicast IPv4 in a broadcast frame.
REASON=UNICAST_IN_L2_MULTICAST FAMILY=ipv4 FUNCTION=ip_rcv_finish_core
CAUSE="unicast IP inside an L2"
source "$(dirname "$0")/../lib.sh"
setup() { in_b sysctl -q -w net.ipv4.conf.vB.drop_unicast_in_l2_multicast=1; }
trigger() {
	send 3 'Ether(src=MAC_A, dst="ff:ff:ff:ff:ff:ff")/IP(src=A4, dst=B4)/UDP(sport=40000, dport=5555)'
	expect 3
}
lab_main
