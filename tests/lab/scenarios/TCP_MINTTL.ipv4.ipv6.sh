#!/bin/bash
# Listener with IP_MINTTL (IPv6: IPV6_MINHOPCOUNT) 255 (GTSM); SYNs arrive with TTL/hop limit 64.
REASON=TCP_MINTTL FUNCTION_ipv4=tcp_v4_rcv FUNCTION_ipv6=tcp_v6_rcv
CAUSE="below the socket's minimum"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py srv b tcp-server $V 179 --minttl
	send 3 'E/IPX(src=AX, dst=BX)/TCP(sport=40000, dport=179, flags="S", seq=1000)'
	expect 3
}
lab_main
