#!/bin/bash
# The listener has a TCP-MD5 key for the client; the client sends unsigned SYNs.
REASON=TCP_MD5NOTFOUND FUNCTION_ipv4=tcp_v4_rcv FUNCTION_ipv6=tcp_v6_rcv
CAUSE="signature missing"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py srv b tcp-server $V 179 --md5 secret@$AX
	send 3 'E/IPX(src=AX, dst=BX)/TCP(sport=40000, dport=179, flags="S", seq=1000)'
	expect 3
}
lab_main
