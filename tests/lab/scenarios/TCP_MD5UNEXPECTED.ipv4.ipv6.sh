#!/bin/bash
# The listener has no TCP-MD5 key; the client sends MD5-signed SYNs (option 19).
REASON=TCP_MD5UNEXPECTED FUNCTION_ipv4=tcp_v4_rcv FUNCTION_ipv6=tcp_v6_rcv
CAUSE="no key configured"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py srv b tcp-server $V 179
	send 3 'E/IPX(src=AX, dst=BX)/TCP(sport=40000, dport=179, flags="S", seq=1000, options=[(19, b"\x01"*16)])'
	expect 3
}
lab_main
