#!/bin/bash
# TCP SYNs with a wrong checksum (IPv6).
REASON=TCP_CSUM FAMILY=ipv6 FUNCTION=tcp_v6_rcv
CAUSE="bad TCP checksum"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 4 'E/IPv6(src=A6, dst=B6)/TCP(sport=40000, dport=80, flags="S", chksum=0xdead)'
	expect 4
}
lab_main
