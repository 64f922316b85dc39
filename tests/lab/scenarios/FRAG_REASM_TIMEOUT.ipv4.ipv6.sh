#!/bin/bash
# ipfrag_time=1 (ip6frag_time) in the receiver; 3 datagrams of which only the first fragment
# arrives.
REASON=FRAG_REASM_TIMEOUT FUNCTION_ipv4=ip_expire FUNCTION_ipv6=ip6_frag_expire
CAUSE="reassembly timed out"
source "$(dirname "$0")/../lib.sh"
setup() {
	if [ "$V" = 4 ]; then in_b sysctl -q -w net.ipv4.ipfrag_time=1
	else in_b sysctl -q -w net.ipv6.ip6frag_time=1; fi
}
SETTLE=2.5
trigger() {
	send 1 'E/FRAG1(4242)/UDP(sport=40000, dport=5555)/Raw(b"x"*64)' \
	       'E/FRAG1(4243)/UDP(sport=40000, dport=5555)/Raw(b"x"*64)' \
	       'E/FRAG1(4244)/UDP(sport=40000, dport=5555)/Raw(b"x"*64)'
	expect 3
}
lab_main
