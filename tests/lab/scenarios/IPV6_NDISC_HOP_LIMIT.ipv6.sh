#!/bin/bash
# Neighbour Solicitation with hop limit 64 instead of 255.
REASON=IPV6_NDISC_HOP_LIMIT FAMILY=ipv6 FUNCTION=icmpv6_rcv
CAUSE="hop limit != 255"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IPv6(src=A6, dst=B6, hlim=64)/ICMPv6ND_NS(tgt=B6)'
	expect 3
}
lab_main
