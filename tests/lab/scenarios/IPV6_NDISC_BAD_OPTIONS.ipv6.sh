#!/bin/bash
# Neighbour Solicitation carrying an option of length 0 (malformed ND options).
REASON=IPV6_NDISC_BAD_OPTIONS FAMILY=ipv6 FUNCTION=icmpv6_rcv
CAUSE="malformed ND options"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IPv6(src=A6, dst=B6, hlim=255)/ICMPv6ND_NS(tgt=B6)/Raw(b"\x01\x00" + b"\0"*6)'
	expect 3
}
lab_main
