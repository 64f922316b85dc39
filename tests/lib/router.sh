# The router topology of the --rules tests (tests/system/nftrace.sh, rules.sh),
# in namespaces the caller made:
#   C (client) c0 -- r0 R (router) r1 -- s0 S (server)
#   192.0.2.1      192.0.2.2   198.51.100.1   198.51.100.2
#   2001:db8:1::1  ::2         2001:db8:2::1  ::2
# Forwarding is turned on inside R only, never the host's.
# shellcheck shell=bash

# veth_link NS1 IF1 ADDR1 NS2 IF2 ADDR2 [V6_1 V6_2]: a veth pair between two
# namespaces, addressed (IPv6 without duplicate address detection) and up
veth_link() {
	ip link add "$2" netns "$1" type veth peer name "$5" netns "$4"
	ip -n "$1" addr add "$3" dev "$2"
	ip -n "$4" addr add "$6" dev "$5"
	if [ -n "${7:-}" ]; then
		ip -n "$1" addr add "$7" dev "$2" nodad
		ip -n "$4" addr add "$8" dev "$5" nodad
	fi
	ip -n "$1" link set "$2" up
	ip -n "$4" link set "$5" up
}

# router_topology C R S: the links, the default routes of C and S, R forwarding
router_topology() {
	veth_link "$1" c0 192.0.2.1/24 "$2" r0 192.0.2.2/24 2001:db8:1::1/64 2001:db8:1::2/64
	veth_link "$2" r1 198.51.100.1/24 "$3" s0 198.51.100.2/24 \
		2001:db8:2::1/64 2001:db8:2::2/64
	ip -n "$1" route add default via 192.0.2.2
	ip -n "$1" -6 route add default via 2001:db8:1::2
	ip -n "$3" route add default via 198.51.100.1
	ip -n "$3" -6 route add default via 2001:db8:2::1
	ip netns exec "$2" sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
}
