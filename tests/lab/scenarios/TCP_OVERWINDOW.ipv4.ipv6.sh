#!/bin/bash
# A handshake left half-open (the sender's nft drops the SYN-ACK); then 3 segments far
# outside the request's window (6.15+: TCP_OVERWINDOW from tcp_check_req).
REASON=TCP_OVERWINDOW FUNCTION_ipv4=tcp_v4_rcv FUNCTION_ipv6=tcp_v6_rcv
CAUSE="beyond the receive window"
source "$(dirname "$0")/../lib.sh"
setup() { a_ignores_synack; }
trigger() {
	bg_py srv b tcp-server $V 8080 --no-accept
	send 1 'E/IPX(src=AX, dst=BX)/TCP(sport=41000, dport=8080, flags="S", seq=1000)'
	send 3 'E/IPX(src=AX, dst=BX)/TCP(sport=41000, dport=8080, flags="P", seq=1001+10**7)/Raw(b"x"*10)'
	expect 3
}
lab_main
