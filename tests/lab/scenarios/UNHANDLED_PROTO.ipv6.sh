#!/bin/bash
# IPv6 hop-by-hop option of unknown type 0x41 (action bits 01: discard silently).
REASON=UNHANDLED_PROTO FAMILY=ipv6 FUNCTION=ip6_tlvopt_unknown
CAUSE="unknown IPv6 option"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IPv6(src=A6, dst=B6)/IPv6ExtHdrHopByHop(options=[HBHOptUnknown(otype=0x41, optdata=b"\0\0\0\0")])/UDP(sport=40000, dport=5555)'
	expect 3
}
lab_main
