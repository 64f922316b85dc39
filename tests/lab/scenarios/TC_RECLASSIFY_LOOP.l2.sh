#!/bin/bash
# A u32 filter on the receiver's ingress (clsact) whose only action (mirred, mirroring a copy
# to an ifb device, which discards it) ends with the control verdict "reclassify": every
# packet it matches is classified again and again until the limit (16 reclassifications).
REASON=TC_RECLASSIFY_LOOP FAMILY=l2 FUNCTION=__netif_receive_skb_core
CAUSE="reclassification looped"
NO_IPV6=1
source "$(dirname "$0")/../lib.sh"
setup() {
	in_b sh -c 'ip link add ifb0 type ifb && ip link set ifb0 up && tc qdisc add dev vB clsact &&
		tc filter add dev vB ingress protocol ip u32 match ip dport 5555 0xffff \
			action mirred egress mirror dev ifb0 reclassify'
}
trigger() {
	send 3 'E/IP(src=A4, dst=B4)/UDP(sport=40000, dport=5555)'
	expect 3
}
lab_main
