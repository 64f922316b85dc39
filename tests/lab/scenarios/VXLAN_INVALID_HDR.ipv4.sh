#!/bin/bash
# VXLAN device (VNI 100, UDP 4789) in the receiver; VXLAN packets with flags 0 (I bit clear).
REASON=VXLAN_INVALID_HDR FAMILY=ipv4 FUNCTION=vxlan_rcv
CAUSE="invalid VXLAN header"
source "$(dirname "$0")/../lib.sh"
setup() {
	vxlan_b
}
trigger() {
	send 3 'E/IP(src=A4, dst=B4)/UDP(sport=40000, dport=4789)/Raw(b"\x00\0\0\0\0\0\x64\0")/Ether(src="02:00:00:00:0d:01", dst="02:00:00:00:0d:02")/IP(src="203.0.113.1", dst="203.0.113.2")/UDP()'
	expect 3
}
lab_main
