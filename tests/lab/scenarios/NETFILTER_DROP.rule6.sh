#!/bin/bash
# --rules, IPv6: an nftables input rule without a comment drops UDP to port 5556; each
# drop is named by that rule (table inet wdlab, chain input, handle 2).
REASON=NETFILTER_DROP FAMILY=rule6 FUNCTION=nft_do_chain
CAUSE="an nftables rule or chain policy"
RULE=inet/wdlab/input/2
source "$(dirname "$0")/../lib.sh"
setup() { nft_in b input 'udp dport 5556 drop'; }
send_recipe 6 'E/IPv6(src=A6, dst=B6)/UDP(sport=40000, dport=5556)/Raw(b"x"*20)'
