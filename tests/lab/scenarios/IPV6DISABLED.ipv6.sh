#!/bin/bash
# IPv6 is disabled on the receiving device.
REASON=IPV6DISABLED FAMILY=ipv6 FUNCTION=ip6_rcv_core
CAUSE="IPv6 disabled"
source "$(dirname "$0")/../lib.sh"
# disabled before the link goes up, so the receiver itself never sends IPv6 (MLD) that would be
# dropped with the same reason in ip6_output
pre_link() { in_b sysctl -q -w net.ipv6.conf.vB.disable_ipv6=1; }
send_recipe 3 'E/IPv6(src=A6, dst=B6)/UDP(sport=40000, dport=5555)'
