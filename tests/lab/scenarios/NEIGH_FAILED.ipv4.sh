#!/bin/bash
# The sender routes 198.51.100.0/24 on-link; nobody answers ARP for 198.51.100.5, so the queued
# datagrams are dropped when resolution fails (1 probe, 100 ms; no probe through a user-space
# daemon: a device's neighbour settings are copied from the host's defaults).
REASON=NEIGH_FAILED FAMILY=ipv4 FUNCTION=neigh_invalidate
CAUSE="resolution of the next hop failed"
source "$(dirname "$0")/../lib.sh"
WATCH=a
SETTLE=1
setup() {
	in_a sh -c 'ip route add 198.51.100.0/24 dev vA &&
		sysctl -q -w net.ipv4.neigh.vA.mcast_solicit=1 net.ipv4.neigh.vA.retrans_time_ms=100 \
			net.ipv4.neigh.vA.app_solicit=0'
}
trigger() {
	py_a udp-send 4 198.51.100.5 9 3 >/dev/null
	# the queue is dropped when the entry fails: wait for that (a loaded machine, ASan),
	# not a fixed time
	for _ in $(seq 50); do
		in_a ip neigh show 198.51.100.5 dev vA | grep -q FAILED && break
		sleep 0.1
	done
	expect 3
}
lab_main
