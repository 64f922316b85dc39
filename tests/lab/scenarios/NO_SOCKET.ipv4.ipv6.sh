#!/bin/bash
# TCP SYNs to a port nobody listens on: the receiver answers RST and drops the SYN.
REASON=NO_SOCKET FUNCTION_ipv4=tcp_v4_rcv FUNCTION_ipv6=tcp_v6_rcv
CAUSE="no listener"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 5 'E/IPX(src=AX, dst=BX)/TCP(sport=40000, dport=9, flags="S")'
	expect 5
}
lab_main
