#!/bin/bash
# Listener with IPV6_MINHOPCOUNT 255 (GTSM); SYNs arrive with TTL/hop limit 64.
REASON=TCP_MINTTL FAMILY=ipv6 FUNCTION=tcp_v6_rcv
CAUSE="below the socket's minimum"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py srv b tcp-server 6 179 --minttl
	send 3 'E/IPv6(src=A6, dst=B6)/TCP(sport=40000, dport=179, flags="S", seq=1000)'
	expect 3
}
lab_main
