#!/bin/bash
# The listener has a TCP-MD5 key for the client; the client sends unsigned SYNs.
REASON=TCP_MD5NOTFOUND FAMILY=ipv6 FUNCTION=tcp_v6_rcv
CAUSE="signature missing"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py srv b tcp-server 6 179 --md5 secret@$A6
	send 3 'E/IPv6(src=A6, dst=B6)/TCP(sport=40000, dport=179, flags="S", seq=1000)'
	expect 3
}
lab_main
