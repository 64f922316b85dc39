#!/bin/bash
# The receiver forwards to 198.51.100.0/24 over a link with MTU 1280; 1400-byte packets with DF.
REASON=PKT_TOO_BIG FAMILY=ipv4 FUNCTION=ip_forward
CAUSE="next hop's MTU"
source "$(dirname "$0")/../lib.sh"
setup() {
	lab_setup_c
	in_b sh -c 'sysctl -q -w net.ipv4.ip_forward=1 && ip link set vBC mtu 1280'
}
trigger() {
	send 3 'E/IP(src=A4, dst="198.51.100.2", flags="DF")/UDP(sport=40000, dport=5555)/Raw(b"x"*1372)'
	expect 3
}
lab_main
