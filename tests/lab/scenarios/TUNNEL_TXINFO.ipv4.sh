#!/bin/bash
# A metadata-mode ("external") VXLAN device; plain datagrams routed into it carry no tunnel info.
REASON=TUNNEL_TXINFO FAMILY=ipv4 FUNCTION=vxlan_xmit
CAUSE="no tunnel metadata"
source "$(dirname "$0")/../lib.sh"
setup() {
	in_b sh -c 'ip link add vx2 type vxlan external dstport 4791 &&
		sysctl -q -w net.ipv6.conf.vx2.disable_ipv6=1 && ip link set vx2 up &&
		ip addr add 203.0.113.1/24 dev vx2 &&
		ip neigh replace 203.0.113.5 lladdr 02:00:00:00:0c:05 dev vx2 nud permanent'
}
trigger() {
	py_b udp-send 4 203.0.113.5 9 3 >/dev/null
	expect 3
}
lab_main
