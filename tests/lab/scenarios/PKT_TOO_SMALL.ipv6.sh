#!/bin/bash
# IPv6 payload length (600) larger than the frame.
REASON=PKT_TOO_SMALL FAMILY=ipv6 FUNCTION=ip6_rcv_core
CAUSE="shorter than its headers"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IPv6(src=A6, dst=B6, plen=600)/UDP(sport=40000, dport=5555)/Raw(b"x"*20)'
	expect 3
}
lab_main
