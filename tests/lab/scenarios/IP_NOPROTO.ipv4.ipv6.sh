#!/bin/bash
# IPv4 protocol (IPv6 next header) 253 to a local address; no raw socket or handler for it.
REASON=IP_NOPROTO FUNCTION_ipv4=ip_local_deliver_finish FUNCTION_ipv6=ip6_input_finish
CAUSE="no handler for this IP protocol"
source "$(dirname "$0")/../lib.sh"
send_recipe 3 "E/IPX(src=AX, dst=BX, $(by_family proto nh)=253)"'/Raw(b"x"*20)'
