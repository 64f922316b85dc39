#!/bin/bash
# IPv4 protocol (IPv6 next header) 253 to a local address; no raw socket or handler for it.
REASON=IP_NOPROTO FUNCTION_ipv4=ip_local_deliver_finish FUNCTION_ipv6=ip6_input_finish
CAUSE="no handler for this IP protocol"
source "$(dirname "$0")/../lib.sh"
trigger() {
	local proto=proto
	[ "$V" = 4 ] || proto=nh
	send 3 "E/IPX(src=AX, dst=BX, $proto=253)"'/Raw(b"x"*20)'
	expect 3
}
lab_main
