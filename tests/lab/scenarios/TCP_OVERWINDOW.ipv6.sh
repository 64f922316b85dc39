#!/bin/bash
# A handshake left half-open (the sender's nft drops the SYN-ACK); then 3 segments far
# outside the request's window (6.15+: TCP_OVERWINDOW from tcp_check_req).
REASON=TCP_OVERWINDOW FAMILY=ipv6 FUNCTION=tcp_v6_rcv
CAUSE="beyond the receive window"
source "$(dirname "$0")/../lib.sh"
setup() { a_ignores_synack; }
trigger() {
	bg_py srv b tcp-server 6 8080 --no-accept
	send 1 'E/IPv6(src=A6, dst=B6)/TCP(sport=41000, dport=8080, flags="S", seq=1000)'
	send 3 'E/IPv6(src=A6, dst=B6)/TCP(sport=41000, dport=8080, flags="P", seq=1001+10**7)/Raw(b"x"*10)'
	expect 3
}
lab_main
