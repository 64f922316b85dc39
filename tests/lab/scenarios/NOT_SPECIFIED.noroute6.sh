#!/bin/bash
# The IPv6 twin of IP_OUTNOROUTES.ipv4 is a trap: an established TCP connection whose
# route goes away drops its next segments (data, then the RST of an abortive close) in
# inet6_csk_xmit with a plain kfree_skb, so they show as NOT_SPECIFIED, not IP_OUTNOROUTES.
# Expected: the sender namespace's Ip6OutNoRoutes (it moves with each of these drops).
REASON=NOT_SPECIFIED FAMILY=noroute6 FUNCTION=inet6_csk_xmit WATCH=a
CAUSE="no route"
source "$(dirname "$0")/../lib.sh"
setup() {	# B's MLD reports would be NOT_SPECIFIED in A too (ip6_mc_input)
	nft_in b output 'icmpv6 type { mld-listener-report, mld2-listener-report } drop'
}
trigger() {
	bg_py srv b tcp-server 6 8080 --read
	expect_counter "mib a Ip6OutNoRoutes"
	py_a lose-route 6 "$B6" 8080
}
lab_main
