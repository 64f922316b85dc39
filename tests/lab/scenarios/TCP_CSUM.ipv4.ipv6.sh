#!/bin/bash
# TCP SYNs with a wrong checksum (veth hands CHECKSUM_NONE frames up, so the receiver verifies).
REASON=TCP_CSUM FUNCTION_ipv4=tcp_v4_rcv FUNCTION_ipv6=tcp_v6_rcv
CAUSE="bad TCP checksum"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 4 'E/IPX(src=AX, dst=BX)/TCP(sport=40000, dport=80, flags="S", chksum=0xdead)'
	expect 4
}
lab_main
