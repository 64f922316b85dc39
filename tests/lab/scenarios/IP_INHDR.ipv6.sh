#!/bin/bash
# IPv6 packet from the loopback address ::1 arriving on a non-loopback device.
REASON=IP_INHDR FAMILY=ipv6 FUNCTION=ip6_rcv_core
CAUSE="loopback"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IPv6(src="::1", dst=B6)/UDP(sport=40000, dport=5555)'
	expect 3
}
lab_main
