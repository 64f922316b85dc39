#!/bin/bash
# VXLAN device (VNI 100, over IPv4 or IPv6: local address B's) in the receiver; VXLAN packets
# whose outer IP header is marked CE (congestion experienced) around an inner IPv4 packet that
# is Not-ECT: the mark cannot be propagated (RFC 6040), so the packet is dropped at decapsulation.
REASON=IP_TUNNEL_ECN FUNCTION=vxlan_rcv
CAUSE="ECN"
source "$(dirname "$0")/../lib.sh"
setup() {
	vxlan_b "$BX"
}
trigger() {
	local outer='IP(src=A4, dst=B4, tos=3)'
	[ "$V" = 4 ] || outer='IPv6(src=A6, dst=B6, tc=3)'
	send 3 "E/$outer"'/UDP(sport=40000, dport=4789)/Raw(b"\x08\0\0\0\0\0\x64\0")/Ether(src="02:00:00:00:0d:01", dst="02:00:00:00:0d:02")/IP(src="203.0.113.1", dst="203.0.113.2", tos=0)/UDP()'
	expect 3
}
lab_main
