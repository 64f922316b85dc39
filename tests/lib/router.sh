# The router topology of the --rules tests (tests/system/nftrace.sh, rules.sh),
# in namespaces the caller made:
#   C (client) c0 -- r0 R (router) r1 -- s0 S (server)
#   192.0.2.1      192.0.2.2   198.51.100.1   198.51.100.2
#   2001:db8:1::1  ::2         2001:db8:2::1  ::2
# Forwarding is turned on inside R only, never the host's. Then
# router_rules C R S D loads the rules both count drops by, and nsx, eq,
# handle and counter read them.
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

# router_rules C R S D: in S, inet fw input drops 7777 (a comment), 7778
# (none) and 7783 (IPv6 only), a second table fw2 at the same hook 7779,
# ip pol's policy drops 7780 (counted just before); in R, inet rfw forward
# drops 7790. Then the neighbours resolved before counting (a packet queued
# for resolution can be lost): one datagram each way through D (the
# nftrace driver) to a port nothing drops by rule.
router_rules() {
	nsx "$3" nft -f - <<'EOF'
table inet fw {
	chain input {
		type filter hook input priority 0; policy accept;
		udp dport 7777 counter drop comment "block legacy app"
		udp dport 7778 counter drop
		meta nfproto ipv6 udp dport 7783 counter drop comment "v6 only"
	}
}
table inet fw2 {
	chain input {
		type filter hook input priority 10; policy accept;
		udp dport 7779 counter drop comment "second table"
	}
}
table ip pol {
	chain input {
		type filter hook input priority 20; policy drop;
		udp dport != 7780 accept
		udp dport 7780 counter
	}
}
EOF
	nsx "$2" nft -f - <<'EOF'
table inet rfw {
	chain forward {
		type filter hook forward priority 0; policy accept;
		udp dport 7790 counter drop comment "no forwarding to 7790"
	}
}
EOF
	nsx "$1" "$4" flood 198.51.100.2 9 1 >/dev/null
	nsx "$1" "$4" flood 2001:db8:2::2 9 1 >/dev/null
	nsx "$3" "$4" flood 198.51.100.1 9 1 >/dev/null
}

nsx() { local n=$1; shift; ip netns exec "$n" "$@"; }
eq() {	# eq NAME GOT WANT
	if [ "$2" = "$3" ]; then pass "$1 ($2)"; else fail "$1" "got '$2', wanted '$3'"; fi
}
# handle NS FAMILY TABLE CHAIN TEXT: the handle of the rule containing TEXT
handle() {
	nsx "$1" nft -a list chain "$2" "$3" "$4" | grep -F -- "$5" |
		sed -n 's/.*# handle \([0-9]*\)$/\1/p' | head -n 1
}
# counter NS FAMILY TABLE HANDLE: packets of that rule's own counter
counter() {
	nsx "$1" nft -a list table "$2" "$3" | grep -E "# handle $4\$" |
		sed -n 's/.* counter packets \([0-9]*\) .*/\1/p'
}
