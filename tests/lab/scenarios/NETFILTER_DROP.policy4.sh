#!/bin/bash
# --rules: an IPv4 input chain whose policy is drop accepts everything but UDP to port
# 5557, which falls through to the policy; each drop is named by the chain's policy.
REASON=NETFILTER_DROP FAMILY=policy4 FUNCTION=nft_do_chain
CAUSE="an nftables rule or chain policy"
RULE=ip/wdlab/input/policy
NO_IPV6=1
source "$(dirname "$0")/../lib.sh"
setup() { in_b nft -f - <<'NFT'
table ip wdlab {
	chain input {
		type filter hook input priority 0; policy drop;
		meta l4proto != udp accept
		udp dport != 5557 accept
	}
}
NFT
}
trigger() {
	send 7 'E/IP(src=A4, dst=B4)/UDP(sport=40000, dport=5557)/Raw(b"x"*20)'
	expect 7
}
lab_main
