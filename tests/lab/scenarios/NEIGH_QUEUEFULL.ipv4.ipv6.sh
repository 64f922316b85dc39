#!/bin/bash
# unres_qlen_bytes=1 on the sender: each datagram waiting for ARP (ND) of an unanswered on-link
# address evicts the previous one: 6 datagrams, 5 evicted (resolution takes 3 s, after the window:
# 3 probes 1 s apart, the kernel's defaults, set on the device since it copies the host's).
REASON=NEIGH_QUEUEFULL FUNCTION=__neigh_event_send
CAUSE="waiting for ARP/ND"
source "$(dirname "$0")/../lib.sh"
WATCH=a
setup() {
	local net=198.51.100.0/24
	[ "$V" = 4 ] || net=2001:db8:5::/64
	in_a sh -c "ip route add $net dev vA && sysctl -q -w net.ipv$V.neigh.vA.unres_qlen_bytes=1 \
		net.ipv$V.neigh.vA.mcast_solicit=3 net.ipv$V.neigh.vA.app_solicit=0 net.ipv$V.neigh.vA.retrans_time_ms=1000"
}
trigger() {
	local dst=198.51.100.5
	[ "$V" = 4 ] || dst=2001:db8:5::5
	py_a udp-send $V $dst 9 6 >/dev/null
	expect 5
}
lab_main
