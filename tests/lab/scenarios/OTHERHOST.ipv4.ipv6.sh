#!/bin/bash
# Frames for a foreign destination MAC reach IP: veth delivers everything and
# eth_type_trans() marks them PACKET_OTHERHOST.
REASON=OTHERHOST FUNCTION_ipv4=ip_rcv_core FUNCTION_ipv6=ip6_rcv_core
CAUSE="another host's MAC"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'Ether(src=MAC_A, dst="02:00:00:00:99:99")/IPX(src=AX, dst=BX)/UDP(sport=40000, dport=5555)'
	expect 3
}
lab_main
