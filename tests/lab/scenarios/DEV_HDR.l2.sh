#!/bin/bash
# A macvtap on vB (its queues carry a virtio_net_hdr by default); 5 frames written to its
# character device behind a virtio_net_hdr whose gso_type (2) does not exist: each write
# fails with EINVAL. (A tun/tap device frees the same frames as NOT_SPECIFIED.)
REASON=DEV_HDR FAMILY=l2 FUNCTION=tap_get_user
CAUSE="virtio_net_hdr"
NO_IPV6=1
source "$(dirname "$0")/../lib.sh"
setup() {
	in_b ip link add link vB name mvt0 type macvtap mode bridge
}
trigger() {
	bg_py tap b tap-drop vnethdr mvt0 5
	[ "$(cat "$T/tap.stats")" = 5 ] || fail "$(cat "$T/tap.stats") writes failed, not 5"
	expect 5
}
lab_main
