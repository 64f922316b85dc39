#!/bin/bash
# vB is a bridge port in STP state "disabled"; every frame arriving on it is dropped.
REASON=BRIDGE_INGRESS_STP_STATE FAMILY=l2 FUNCTION=br_handle_frame
CAUSE="STP state"
source "$(dirname "$0")/../lib.sh"
NO_IPV6=1
setup() {
	in_b sh -c 'ip link add br0 type bridge && ip link set vB master br0 && ip link set br0 up &&
		bridge link set dev vB state 0'
}
trigger() {
	send 3 'E/IP(src=A4, dst=B4)/UDP(sport=40000, dport=5555)'
	expect 3
}
lab_main
