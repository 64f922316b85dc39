#!/bin/bash
# VXLAN device (VNI 100, learning on) in the receiver with a static FDB entry putting
# 02:00:00:00:0d:01 behind 198.51.100.9; VXLAN packets from 192.0.2.1 whose inner source is
# that MAC: a static entry is never moved, so they are dropped.
REASON=VXLAN_ENTRY_EXISTS FAMILY=ipv4 FUNCTION=vxlan_rcv
CAUSE="static FDB entry"
source "$(dirname "$0")/../lib.sh"
setup() {
	vxlan_b
	in_b bridge fdb add 02:00:00:00:0d:01 dev vx0 dst 198.51.100.9 static
}
trigger() {
	send 3 'E/IP(src=A4, dst=B4)/UDP(sport=40000, dport=4789)/Raw(b"\x08\0\0\0\0\0\x64\0")/Ether(src="02:00:00:00:0d:01", dst="02:00:00:00:0d:02")/IP(src="203.0.113.1", dst="203.0.113.2")/UDP()'
	expect 3
}
lab_main
