#!/bin/bash
# unres_qlen_bytes=1 on the sender: each datagram waiting for ND of an unanswered on-link
# address evicts the previous one: 6 datagrams, 5 evicted (resolution takes 3 s, after the window:
# 3 probes 1 s apart, the kernel's defaults, set on the device since it copies the host's).
REASON=NEIGH_QUEUEFULL FAMILY=ipv6 FUNCTION=__neigh_event_send
CAUSE="waiting for ARP/ND"
source "$(dirname "$0")/../lib.sh"
WATCH=a
setup() {
	in_a sh -c 'ip route add 2001:db8:5::/64 dev vA && sysctl -q -w net.ipv6.neigh.vA.unres_qlen_bytes=1 \
		net.ipv6.neigh.vA.mcast_solicit=3 net.ipv6.neigh.vA.app_solicit=0 net.ipv6.neigh.vA.retrans_time_ms=1000'
}
trigger() {
	py_a udp-send 6 2001:db8:5::5 9 6 >/dev/null
	expect 5
}
lab_main
