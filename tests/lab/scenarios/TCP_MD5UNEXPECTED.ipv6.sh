#!/bin/bash
# The listener has no TCP-MD5 key; the client sends MD5-signed SYNs (option 19).
REASON=TCP_MD5UNEXPECTED FAMILY=ipv6 FUNCTION=tcp_v6_rcv
CAUSE="no key configured"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py srv b tcp-server 6 179
	send 3 'E/IPv6(src=A6, dst=B6)/TCP(sport=40000, dport=179, flags="S", seq=1000, options=[(19, b"\x01"*16)])'
	expect 3
}
lab_main
