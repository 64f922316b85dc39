#!/bin/bash
# VXLAN device (VNI 100, learning on, the default) in the receiver; VXLAN packets whose
# inner frame has a multicast source MAC (01:00:5e:00:00:01), which cannot be learned.
REASON=MAC_INVALID_SOURCE FAMILY=ipv4 FUNCTION=vxlan_rcv
CAUSE="invalid source MAC"
source "$(dirname "$0")/../lib.sh"
setup() {
	vxlan_b
}
trigger() {
	send 3 'E/IP(src=A4, dst=B4)/UDP(sport=40000, dport=4789)/Raw(b"\x08\0\0\0\0\0\x64\0")/Ether(src="01:00:5e:00:00:01", dst="02:00:00:00:0d:02")/IP(src="203.0.113.1", dst="203.0.113.2")/UDP()'
	expect 3
}
lab_main
