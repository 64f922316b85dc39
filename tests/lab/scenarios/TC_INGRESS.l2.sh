#!/bin/bash
# A tc BPF classifier (direct-action) on the receiver's ingress returns TC_ACT_SHOT.
REASON=TC_INGRESS FAMILY=l2 FUNCTION=__netif_receive_skb_core
CAUSE="tc ingress"
NO_IPV6=1	# no IPv6 link-up chatter (MLD) through the same hook
source "$(dirname "$0")/../lib.sh"
setup() {
	bpf_obj shot
	in_b tc qdisc add dev vB clsact
	in_b tc filter add dev vB ingress bpf da obj "$T/shot.o" sec tc
}
hook_recipe
