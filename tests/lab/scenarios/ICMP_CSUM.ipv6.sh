#!/bin/bash
# ICMPv6 echo requests with a wrong checksum.
REASON=ICMP_CSUM FAMILY=ipv6 FUNCTION=icmpv6_rcv
CAUSE="bad ICMP checksum"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IPv6(src=A6, dst=B6)/ICMPv6EchoRequest(cksum=0xdead)'
	expect 3
}
lab_main
