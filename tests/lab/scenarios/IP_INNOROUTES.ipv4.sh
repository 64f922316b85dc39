#!/bin/bash
# Forwarding on, but no route (nor default route) to 198.51.100.7.
REASON=IP_INNOROUTES FAMILY=ipv4 FUNCTION=ip_error
CAUSE="no route"
source "$(dirname "$0")/../lib.sh"
setup() { in_b sysctl -q -w net.ipv4.ip_forward=1; }
trigger() {
	send 3 'E/IP(src=A4, dst="198.51.100.7")/UDP(sport=40000, dport=5555)'
	expect 3
}
lab_main
