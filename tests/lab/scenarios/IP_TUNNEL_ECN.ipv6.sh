#!/bin/bash
# VXLAN device over IPv6 (VNI 100, local 2001:db8::2) in the receiver; VXLAN packets whose
# outer IPv6 header is marked CE (congestion experienced) around an inner IPv4 packet that is
# Not-ECT: the mark cannot be propagated (RFC 6040), so the packet is dropped at decapsulation.
REASON=IP_TUNNEL_ECN FAMILY=ipv6 FUNCTION=vxlan_rcv
CAUSE="ECN"
source "$(dirname "$0")/../lib.sh"
setup() {
	vxlan_b 2001:db8::2
}
trigger() {
	send 3 'E/IPv6(src=A6, dst=B6, tc=3)/UDP(sport=40000, dport=4789)/Raw(b"\x08\0\0\0\0\0\x64\0")/Ether(src="02:00:00:00:0d:01", dst="02:00:00:00:0d:02")/IP(src="203.0.113.1", dst="203.0.113.2", tos=0)/UDP()'
	expect 3
}
lab_main
