#!/bin/bash
# Multicast source address 224.0.0.9 (a martian source).
REASON=IP_INVALID_SOURCE FAMILY=ipv4 FUNCTION=ip_rcv_finish_core
CAUSE="martian source"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IP(src="224.0.0.9", dst=B4)/UDP(sport=40000, dport=5555)'
	expect 3
}
lab_main
