#!/bin/bash
# The listener has a TCP-MD5 key for the client; the SYNs carry a wrong signature.
REASON=TCP_MD5FAILURE FAMILY=ipv4 FUNCTION=tcp_v4_rcv
CAUSE="does not match the key"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py srv b tcp-server 4 179 --md5 secret@$A4
	send 3 'E/IP(src=A4, dst=B4)/TCP(sport=40000, dport=179, flags="S", seq=1000, options=[(19, b"\x01"*16)])'
	expect 3
}
lab_main
