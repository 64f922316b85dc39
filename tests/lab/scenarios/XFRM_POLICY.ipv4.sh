#!/bin/bash
# An inbound IPsec policy demands ESP for UDP port 5561; datagrams arrive in clear
# for a bound socket.
REASON=XFRM_POLICY FAMILY=ipv4 FUNCTION=udp_queue_rcv_one_skb
CAUSE="IPsec policy"
source "$(dirname "$0")/../lib.sh"
setup() {
	in_b ip xfrm policy add dir in src 0.0.0.0/0 dst 192.0.2.2/32 proto udp dport 5561 tmpl proto esp mode transport
}
trigger() {
	bg_py srv b udp-server 4 5561
	send 3 'E/IP(src=A4, dst=B4)/UDP(sport=40000, dport=5561)/Raw(b"x"*20)'
	expect 3
}
lab_main
