#!/bin/bash
# VXLAN device (VNI 100, MAC 02:00:00:00:0d:ee) in the receiver; VXLAN packets whose inner
# frame has that same MAC as its source (a loop, or its own multicast echo).
REASON=LOCAL_MAC FAMILY=ipv4 FUNCTION=vxlan_rcv
CAUSE="our own"
source "$(dirname "$0")/../lib.sh"
setup() {
	vxlan_b
}
trigger() {
	send 3 'E/IP(src=A4, dst=B4)/UDP(sport=40000, dport=4789)/Raw(b"\x08\0\0\0\0\0\x64\0")/Ether(src="02:00:00:00:0d:ee", dst="02:00:00:00:0d:02")/IP(src="203.0.113.1", dst="203.0.113.2")/UDP()'
	expect 3
}
lab_main
