#!/bin/bash
# ICMP echo to the broadcast address 192.0.2.255 in a broadcast frame
# (icmp_echo_ignore_broadcasts=1 is the default).
REASON=INVALID_PROTO FAMILY=ipv4 FUNCTION=icmp_rcv
CAUSE="broadcast ping"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'Ether(src=MAC_A, dst="ff:ff:ff:ff:ff:ff")/IP(src=A4, dst="192.0.2.255")/ICMP(type=8)'
	expect 3
}
lab_main
