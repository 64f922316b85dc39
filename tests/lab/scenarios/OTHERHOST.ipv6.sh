#!/bin/bash
# Frames for a foreign destination MAC (IPv6).
REASON=OTHERHOST FAMILY=ipv6 FUNCTION=ip6_rcv_core
CAUSE="another host's MAC"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'Ether(src=MAC_A, dst="02:00:00:00:99:99")/IPv6(src=A6, dst=B6)/UDP(sport=40000, dport=5555)'
	expect 3
}
lab_main
