#!/bin/bash
# IPv4 total length (IPv6 payload length) 600, larger than the frame.
REASON=PKT_TOO_SMALL FUNCTION_ipv4=ip_rcv_core FUNCTION_ipv6=ip6_rcv_core
CAUSE="shorter than its headers"
source "$(dirname "$0")/../lib.sh"
send_recipe 3 "E/IPX(src=AX, dst=BX, $(by_family len plen)=600)"'/UDP(sport=40000, dport=5555)/Raw(b"x"*20)'
