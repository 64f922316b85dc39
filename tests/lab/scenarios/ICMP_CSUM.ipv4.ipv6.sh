#!/bin/bash
# ICMP (ICMPv6) echo requests with a wrong checksum.
REASON=ICMP_CSUM FUNCTION_ipv4=icmp_rcv FUNCTION_ipv6=icmpv6_rcv
CAUSE="bad ICMP checksum"
source "$(dirname "$0")/../lib.sh"
send_recipe 3 "E/IPX(src=AX, dst=BX)/$(by_family 'ICMP(type=8, chksum=0xdead)/Raw(b"x"*8)' \
	'ICMPv6EchoRequest(cksum=0xdead)')"
