#!/bin/bash
# The listener has a TCP-MD5 key for the client; the client sends unsigned SYNs.
REASON=TCP_MD5NOTFOUND FAMILY=ipv4 FUNCTION=tcp_v4_rcv
CAUSE="signature missing"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py srv b tcp-server 4 179 --md5 secret@$A4
	send 3 'E/IP(src=A4, dst=B4)/TCP(sport=40000, dport=179, flags="S", seq=1000)'
	expect 3
}
lab_main
