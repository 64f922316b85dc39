#!/bin/bash
# ip6frag_time=1 in the receiver; 3 datagrams of which only the first fragment arrives.
REASON=FRAG_REASM_TIMEOUT FAMILY=ipv6 FUNCTION=ip6_frag_expire
CAUSE="reassembly timed out"
source "$(dirname "$0")/../lib.sh"
setup() { in_b sysctl -q -w net.ipv6.ip6frag_time=1; }
SETTLE=2.5
trigger() {
	send 1 'E/IPv6(src=A6, dst=B6)/IPv6ExtHdrFragment(id=4242, m=1, offset=0)/UDP(sport=40000, dport=5555)/Raw(b"x"*64)' \
	       'E/IPv6(src=A6, dst=B6)/IPv6ExtHdrFragment(id=4243, m=1, offset=0)/UDP(sport=40000, dport=5555)/Raw(b"x"*64)' \
	       'E/IPv6(src=A6, dst=B6)/IPv6ExtHdrFragment(id=4244, m=1, offset=0)/UDP(sport=40000, dport=5555)/Raw(b"x"*64)'
	expect 3
}
lab_main
