#!/bin/bash
# The same first fragment (IPv4 MF=1, IPv6 M=1) sent 3 times: the 2nd and 3rd are duplicates.
REASON=DUP_FRAG FUNCTION_ipv4=ip_defrag FUNCTION_ipv6=ipv6_frag_rcv
CAUSE="duplicate IP fragment"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/FRAG1(4242)/UDP(sport=40000, dport=5555)/Raw(b"x"*64)'
	expect 2
}
lab_main
