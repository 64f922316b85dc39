#!/bin/bash
# ICMP echo requests with a wrong checksum.
REASON=ICMP_CSUM FAMILY=ipv4 FUNCTION=icmp_rcv
CAUSE="bad ICMP checksum"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IP(src=A4, dst=B4)/ICMP(type=8, chksum=0xdead)/Raw(b"x"*8)'
	expect 3
}
lab_main
