#!/bin/bash
# The receiver routes IPv6 (forwarding=1 in its namespace) to 2001:db8:1::/64; 6 packets
# reach it with hop limit 1: they are dropped (an ICMPv6 time exceeded goes back). The
# kernel calls it IP_INHDR at ip6_forward, counted in Ip6InHdrErrors: a hop limit that
# ran out, not a bad header.
REASON=IP_INHDR FAMILY=fwd6 FUNCTION=ip6_forward
CAUSE="hop limit expired"
source "$(dirname "$0")/../lib.sh"
setup() {
	lab_setup_c
	in_b sysctl -q -w net.ipv6.conf.all.forwarding=1
}
trigger() {
	send 6 'E/IPv6(src=A6, dst="2001:db8:1::2", hlim=1)/UDP(sport=40000, dport=5555)'
	expect 6
}
lab_main
