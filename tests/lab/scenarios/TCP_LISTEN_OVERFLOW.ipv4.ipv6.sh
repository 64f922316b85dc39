#!/bin/bash
# syncookies off, listen(backlog=2), never accept(). Two crafted SYNs are left half-open,
# three real connections fill the accept queue, then the two final ACKs arrive.
REASON=TCP_LISTEN_OVERFLOW FUNCTION_ipv4=tcp_v4_rcv FUNCTION_ipv6=tcp_v6_rcv
CAUSE="accept queue full"
source "$(dirname "$0")/../lib.sh"
setup() {
	in_b sysctl -q -w net.ipv4.tcp_syncookies=0
	nft_in a input 'tcp sport 8080 tcp dport 41000-41099 drop'
}
trigger() {
	bg_py srv b tcp-server $V 8080 --backlog 2 --no-accept
	bg_py lo a listen-overflow $V 8080 2 3
	expect 2
}
lab_main
