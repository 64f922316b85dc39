#!/bin/bash
# A tap with a TUNSETFILTEREBPF socket-filter program that returns 0; 5 datagrams routed
# into it are refused by that filter.
REASON=TAP_FILTER FAMILY=l2 FUNCTION=tun_net_xmit
CAUSE="eBPF filter"
NO_IPV6=1
source "$(dirname "$0")/../lib.sh"
tap_recipe ebpf
