#!/bin/bash
# The receiver routes (ip_forward=1, IPv6 forwarding=1 in its namespace) to 198.51.100.0/24
# (2001:db8:1::/64); 6 packets reach it with TTL (hop limit) 1: they may not be forwarded, so
# they are dropped (an ICMP time exceeded goes back). The kernel calls it IP_INHDR at
# ip_forward (ip6_forward) and counts it in IpInHdrErrors (Ip6InHdrErrors), though the header
# is fine: a TTL expiry (a routing loop, traceroute), not a bad header.
REASON=IP_INHDR FUNCTION_fwd4=ip_forward FUNCTION_fwd6=ip6_forward
CAUSE_fwd4="TTL expired"
CAUSE_fwd6="hop limit expired"
source "$(dirname "$0")/../lib.sh"
setup() { b_forwards; }
send_recipe 6 "E/$(by_family 'IP(src=A4, dst="198.51.100.2", ttl=1)' \
	'IPv6(src=A6, dst="2001:db8:1::2", hlim=1)')/UDP(sport=40000, dport=5555)"
