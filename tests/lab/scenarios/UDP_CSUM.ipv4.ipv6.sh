#!/bin/bash
# UDP datagrams with a wrong checksum (verified before the port lookup).
REASON=UDP_CSUM FUNCTION_ipv4=__udp4_lib_rcv FUNCTION_ipv6=__udp6_lib_rcv
CAUSE="bad UDP checksum"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IPX(src=AX, dst=BX)/UDP(sport=40000, dport=5555, chksum=0xdead)/Raw(b"x"*20)'
	expect 3
}
lab_main
