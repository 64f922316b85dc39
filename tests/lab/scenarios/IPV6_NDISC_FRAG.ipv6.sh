#!/bin/bash
# A complete but fragmented Neighbour Solicitation (suppress_frag_ndisc=1, the default):
# 3 solicitations, each in 2 fragments that reassemble.
REASON=IPV6_NDISC_FRAG FAMILY=ipv6 FUNCTION=icmpv6_rcv
CAUSE="fragmented Neighbour Discovery"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 1 'fragment6(E/IPv6(src=A6, dst=B6, hlim=255)/IPv6ExtHdrFragment(id=7001)/ICMPv6ND_NS(tgt=B6)/Raw(b"\x0e\x01" + b"\0"*62), 64)' \
	       'fragment6(E/IPv6(src=A6, dst=B6, hlim=255)/IPv6ExtHdrFragment(id=7002)/ICMPv6ND_NS(tgt=B6)/Raw(b"\x0e\x01" + b"\0"*62), 64)' \
	       'fragment6(E/IPv6(src=A6, dst=B6, hlim=255)/IPv6ExtHdrFragment(id=7003)/ICMPv6ND_NS(tgt=B6)/Raw(b"\x0e\x01" + b"\0"*62), 64)'
	expect 3
}
lab_main
