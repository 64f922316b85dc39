#!/bin/bash
# TCP SYNs to a port nobody listens on: the receiver answers RST and drops the SYN.
REASON=NO_SOCKET FAMILY=ipv4 FUNCTION=tcp_v4_rcv
CAUSE="no listener"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 5 'E/IP(src=A4, dst=B4)/TCP(sport=40000, dport=9, flags="S")'
	expect 5
}
lab_main
