#!/bin/bash
# A generic-mode (skb) XDP program redirects to ifindex 9999, which does not exist.
REASON=XDP FAMILY=l2 FUNCTION=do_xdp_generic
CAUSE="redirect"
NO_IPV6=1	# no IPv6 link-up chatter (MLD) through the same hook
source "$(dirname "$0")/../lib.sh"
setup() {
	bpf_obj xdp_redirect_bad
	in_b ip link set dev vB xdpgeneric obj "$T/xdp_redirect_bad.o" sec xdp
}
trigger() {
	send 3 'E/IP(src=A4, dst=B4)/UDP(sport=40000, dport=5555)'
	expect 3
}
lab_main
