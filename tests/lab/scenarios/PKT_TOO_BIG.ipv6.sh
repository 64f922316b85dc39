#!/bin/bash
# The receiver forwards to 2001:db8:1::/64 over a link with MTU 1280; 1400-byte packets.
REASON=PKT_TOO_BIG FAMILY=ipv6 FUNCTION=ip6_forward
CAUSE="next hop's MTU"
source "$(dirname "$0")/../lib.sh"
setup() {
	lab_setup_c
	in_b sh -c 'sysctl -q -w net.ipv6.conf.all.forwarding=1 && ip link set vBC mtu 1280'
}
trigger() {
	send 3 'E/IPv6(src=A6, dst="2001:db8:1::2")/UDP(sport=40000, dport=5555)/Raw(b"x"*1352)'
	expect 3
}
lab_main
