#!/bin/bash
# UDP datagrams with a wrong checksum (IPv6).
REASON=UDP_CSUM FAMILY=ipv6 FUNCTION=__udp6_lib_rcv
CAUSE="bad UDP checksum"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IPv6(src=A6, dst=B6)/UDP(sport=40000, dport=5555, chksum=0xdead)/Raw(b"x"*20)'
	expect 3
}
lab_main
