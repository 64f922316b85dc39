#!/bin/bash
# Neighbour Solicitation for a target the receiver does not own (2001:db8::99).
REASON=IPV6_NDISC_NS_OTHERHOST FAMILY=ipv6 FUNCTION=icmpv6_rcv
CAUSE="address not ours"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IPv6(src=A6, dst=B6, hlim=255)/ICMPv6ND_NS(tgt="2001:db8::99")'
	expect 3
}
lab_main
