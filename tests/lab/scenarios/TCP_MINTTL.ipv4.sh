#!/bin/bash
# Listener with IP_MINTTL 255 (GTSM); SYNs arrive with TTL/hop limit 64.
REASON=TCP_MINTTL FAMILY=ipv4 FUNCTION=tcp_v4_rcv
CAUSE="below the socket's minimum"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py srv b tcp-server 4 179 --minttl
	send 3 'E/IP(src=A4, dst=B4)/TCP(sport=40000, dport=179, flags="S", seq=1000)'
	expect 3
}
lab_main
