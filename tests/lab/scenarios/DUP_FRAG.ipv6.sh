#!/bin/bash
# The same first fragment (M=1) sent 3 times: the 2nd and 3rd are duplicates.
REASON=DUP_FRAG FAMILY=ipv6 FUNCTION=ipv6_frag_rcv
CAUSE="duplicate IP fragment"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IPv6(src=A6, dst=B6)/IPv6ExtHdrFragment(id=4242, m=1, offset=0)/UDP(sport=40000, dport=5555)/Raw(b"x"*64)'
	expect 2
}
lab_main
