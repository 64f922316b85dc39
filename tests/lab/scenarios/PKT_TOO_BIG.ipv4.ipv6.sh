#!/bin/bash
# The receiver forwards to 198.51.100.0/24 (2001:db8:1::/64) over a link with MTU 1280;
# 1400-byte packets (IPv4 with DF).
REASON=PKT_TOO_BIG FUNCTION_ipv4=ip_forward FUNCTION_ipv6=ip6_forward
CAUSE="next hop's MTU"
source "$(dirname "$0")/../lib.sh"
setup() {
	b_forwards
	in_b ip link set vBC mtu 1280
}
send_recipe 3 "E/$(by_family 'IP(src=A4, dst="198.51.100.2", flags="DF")' \
	'IPv6(src=A6, dst="2001:db8:1::2")')/UDP(sport=40000, dport=5555)/Raw(b'x'*$(by_family 1372 1352))"
