#!/bin/bash
# --rules: two tables at the input hook; the first accepts UDP to port 5558 (its own
# chain only), the second, at a later priority, drops it: each drop is named by the second.
REASON=NETFILTER_DROP FAMILY=twotables4 FUNCTION=nft_do_chain
CAUSE="an nftables rule or chain policy"
RULE=inet/wdlab2/input/2
NO_IPV6=1
source "$(dirname "$0")/../lib.sh"
setup() { in_b nft -f - <<'NFT'
table inet wdlab {
	chain input { type filter hook input priority 0; udp dport 5558 accept; }
}
table inet wdlab2 {
	chain input { type filter hook input priority 10; udp dport 5558 drop; }
}
NFT
}
send_recipe 4 'E/IP(src=A4, dst=B4)/UDP(sport=40000, dport=5558)/Raw(b"x"*20)'
