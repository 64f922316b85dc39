#!/bin/bash
# The receiver routes (ip_forward=1 in its namespace) to 198.51.100.0/24; 6 packets reach
# it with TTL 1: they may not be forwarded, so they are dropped (an ICMP time exceeded
# goes back). The kernel calls it IP_INHDR at ip_forward and counts it in IpInHdrErrors,
# though the header is fine: a TTL expiry (a routing loop, traceroute), not a bad header.
REASON=IP_INHDR FAMILY=fwd4 FUNCTION=ip_forward
CAUSE="TTL expired"
NO_IPV6=1
source "$(dirname "$0")/../lib.sh"
setup() {
	lab_setup_c
	in_b sysctl -q -w net.ipv4.ip_forward=1
}
trigger() {
	send 6 'E/IP(src=A4, dst="198.51.100.2", ttl=1)/UDP(sport=40000, dport=5555)'
	expect 6
}
lab_main
