#!/bin/bash
# TCP SYNs with a wrong checksum (veth hands CHECKSUM_NONE frames up, so the receiver verifies).
REASON=TCP_CSUM FAMILY=ipv4 FUNCTION=tcp_v4_rcv
CAUSE="bad TCP checksum"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 4 'E/IP(src=A4, dst=B4)/TCP(sport=40000, dport=80, flags="S", chksum=0xdead)'
	expect 4
}
lab_main
