#!/bin/bash
# unres_qlen_bytes=1 on the sender: each datagram waiting for ARP of an unanswered on-link
# address evicts the previous one: 6 datagrams, 5 evicted (resolution takes 3 s, after the window:
# 3 probes 1 s apart, the kernel's defaults, set on the device since it copies the host's).
REASON=NEIGH_QUEUEFULL FAMILY=ipv4 FUNCTION=__neigh_event_send
CAUSE="waiting for ARP/ND"
source "$(dirname "$0")/../lib.sh"
WATCH=a
setup() {
	in_a sh -c 'ip route add 198.51.100.0/24 dev vA && sysctl -q -w net.ipv4.neigh.vA.unres_qlen_bytes=1 \
		net.ipv4.neigh.vA.mcast_solicit=3 net.ipv4.neigh.vA.app_solicit=0 net.ipv4.neigh.vA.retrans_time_ms=1000'
}
trigger() {
	py_a udp-send 4 198.51.100.5 9 6 >/dev/null
	expect 5
}
lab_main
