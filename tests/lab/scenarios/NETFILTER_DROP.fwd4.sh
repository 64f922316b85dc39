#!/bin/bash
# --rules: the receiver routes (ip_forward=1 in its namespace) to 198.51.100.0/24, and
# its forward chain drops UDP to port 5560: each drop is named by that rule.
REASON=NETFILTER_DROP FAMILY=fwd4 FUNCTION=nft_do_chain
CAUSE="an nftables rule or chain policy"
RULE=inet/wdlab/forward/2
NO_IPV6=1
source "$(dirname "$0")/../lib.sh"
setup() {
	lab_setup_c
	in_b sysctl -q -w net.ipv4.ip_forward=1
	nft_in b forward 'udp dport 5560 drop'
}
trigger() {
	send 5 'E/IP(src=A4, dst="198.51.100.2")/UDP(sport=40000, dport=5560)/Raw(b"x"*20)'
	expect 5
}
lab_main
