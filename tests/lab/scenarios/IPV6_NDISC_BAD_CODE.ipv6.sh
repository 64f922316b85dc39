#!/bin/bash
# Neighbour Solicitation with ICMPv6 code 1.
REASON=IPV6_NDISC_BAD_CODE FAMILY=ipv6 FUNCTION=icmpv6_rcv
CAUSE="non-zero ICMPv6 code"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IPv6(src=A6, dst=B6, hlim=255)/ICMPv6ND_NS(tgt=B6, code=1)'
	expect 3
}
lab_main
