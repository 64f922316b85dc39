#!/bin/bash
# IPv4 headers with a wrong header checksum.
REASON=IP_CSUM FAMILY=ipv4 FUNCTION=ip_rcv_core
CAUSE="bad IPv4 header checksum"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IP(src=A4, dst=B4, chksum=0xdead)/UDP(sport=40000, dport=5555)'
	expect 3
}
lab_main
