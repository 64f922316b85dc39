#!/bin/bash
# IPv4 total length (600) larger than the frame.
REASON=PKT_TOO_SMALL FAMILY=ipv4 FUNCTION=ip_rcv_core
CAUSE="shorter than its headers"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IP(src=A4, dst=B4, len=600)/UDP(sport=40000, dport=5555)/Raw(b"x"*20)'
	expect 3
}
lab_main
