#!/bin/bash
# IPv4 header with IHL=4 (below the minimum header length).
REASON=IP_INHDR FAMILY=ipv4 FUNCTION=ip_rcv_core
CAUSE="invalid IPv4 header"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IP(src=A4, dst=B4, ihl=4)/UDP(sport=40000, dport=5555)'
	expect 3
}
lab_main
