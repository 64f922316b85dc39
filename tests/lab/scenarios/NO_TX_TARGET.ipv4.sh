#!/bin/bash
# A VXLAN device without remote, group or FDB entry; datagrams routed into it
# (static neighbour, so no ARP) have nowhere to go.
REASON=NO_TX_TARGET FAMILY=ipv4 FUNCTION=vxlan_xmit
CAUSE="no destination"
source "$(dirname "$0")/../lib.sh"
setup() {
	in_b sh -c 'ip link add vx1 type vxlan id 200 dstport 4790 dev vB &&
		sysctl -q -w net.ipv6.conf.vx1.disable_ipv6=1 && ip link set vx1 up &&
		ip addr add 203.0.113.1/24 dev vx1 &&
		ip neigh replace 203.0.113.5 lladdr 02:00:00:00:0c:05 dev vx1 nud permanent'
}
trigger() {
	py_b udp-send 4 203.0.113.5 9 3 >/dev/null
	expect 3
}
lab_main
