#!/bin/bash
# --rules: an iptables-nft rule (Debian's iptables) drops UDP to port 5559; iptables-nft
# rules are nftables rules: each drop is named by it (table ip filter, chain INPUT).
REASON=NETFILTER_DROP FAMILY=iptnft4 FUNCTION=nft_do_chain
CAUSE="an nftables rule or chain policy"
NO_IPV6=1
source "$(dirname "$0")/../lib.sh"
setup() {
	b_iptables iptables-nft 5559
	RULE=ip/filter/INPUT/$(in_b nft -a list chain ip filter INPUT | grep 'dport 5559' |
		sed -n 's/.*# handle \([0-9]*\)$/\1/p')
}
send_recipe 3 'E/IP(src=A4, dst=B4)/UDP(sport=40000, dport=5559)/Raw(b"x"*20)'
