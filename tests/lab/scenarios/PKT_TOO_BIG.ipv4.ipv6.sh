#!/bin/bash
# The receiver forwards to 198.51.100.0/24 (2001:db8:1::/64) over a link with MTU 1280;
# 1400-byte packets (IPv4 with DF).
REASON=PKT_TOO_BIG FUNCTION_ipv4=ip_forward FUNCTION_ipv6=ip6_forward
CAUSE="next hop's MTU"
source "$(dirname "$0")/../lib.sh"
setup() {
	lab_setup_c
	local fwd=net.ipv4.ip_forward=1
	[ "$V" = 4 ] || fwd=net.ipv6.conf.all.forwarding=1
	in_b sh -c "sysctl -q -w $fwd && ip link set vBC mtu 1280"
}
trigger() {
	local l3='IP(src=A4, dst="198.51.100.2", flags="DF")' size=1372
	[ "$V" = 4 ] || l3='IPv6(src=A6, dst="2001:db8:1::2")' size=1352
	send 3 "E/$l3/UDP(sport=40000, dport=5555)/Raw(b'x'*$size)"
	expect 3
}
lab_main
