#!/bin/bash
# ICMPv6 Destination Unreachable errors quoting an IPv6 packet whose next header is 59 (No
# Next Header): icmpv6_notify cannot skip the quoted packet's extension headers to find its
# transport header (ipv6_skip_exthdr fails), so the error is dropped.
REASON=IPV6_BAD_EXTHDR FAMILY=ipv6 FUNCTION=icmpv6_rcv
CAUSE="headers cannot be walked"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IPv6(src=A6, dst=B6)/ICMPv6DestUnreach(code=4)/IPv6(src=B6, dst=A6, nh=59, plen=8)/Raw(b"\0" * 8)'
	expect 3
}
lab_main
