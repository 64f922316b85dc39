#!/bin/bash
# TCP SYNs to a port nobody listens on (IPv6).
REASON=NO_SOCKET FAMILY=ipv6 FUNCTION=tcp_v6_rcv
CAUSE="no listener"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 5 'E/IPv6(src=A6, dst=B6)/TCP(sport=40000, dport=9, flags="S")'
	expect 5
}
lab_main
