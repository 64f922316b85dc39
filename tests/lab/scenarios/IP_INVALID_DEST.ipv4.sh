#!/bin/bash
# Destination 0.0.0.0 in a frame for the receiver's MAC.
REASON=IP_INVALID_DEST FAMILY=ipv4 FUNCTION=ip_rcv_finish_core
CAUSE="0.0.0.0"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IP(src=A4, dst="0.0.0.0")/UDP(sport=40000, dport=5555)'
	expect 3
}
lab_main
