#!/bin/bash
# The listener has a TCP-MD5 key for the client; the SYNs carry a wrong signature.
REASON=TCP_MD5FAILURE FUNCTION_ipv4=tcp_v4_rcv FUNCTION_ipv6=tcp_v6_rcv
CAUSE="does not match the key"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py srv b tcp-server $V 179 --md5 secret@$AX
	send 3 'E/IPX(src=AX, dst=BX)/TCP(sport=40000, dport=179, flags="S", seq=1000, options=[(19, b"\x01"*16)])'
	expect 3
}
lab_main
