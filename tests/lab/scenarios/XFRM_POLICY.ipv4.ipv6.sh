#!/bin/bash
# An inbound IPsec policy demands ESP for UDP port 5561; datagrams arrive in clear
# for a bound socket.
REASON=XFRM_POLICY FUNCTION_ipv4=udp_queue_rcv_one_skb FUNCTION_ipv6=udpv6_queue_rcv_one_skb
CAUSE="IPsec policy"
source "$(dirname "$0")/../lib.sh"
setup() {
	local any=0.0.0.0/0 host=32
	[ "$V" = 4 ] || any=::/0 host=128
	in_b ip xfrm policy add dir in src $any dst $BX/$host proto udp dport 5561 tmpl proto esp mode transport
}
trigger() {
	bg_py srv b udp-server $V 5561
	send 3 'E/IPX(src=AX, dst=BX)/UDP(sport=40000, dport=5561)/Raw(b"x"*20)'
	expect 3
}
lab_main
