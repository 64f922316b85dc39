#!/bin/bash
# --rules: an nftables input rule with a comment drops UDP to port 5556; each drop is
# named by that rule (table inet wdlab, chain input, handle 2).
REASON=NETFILTER_DROP FAMILY=rule4 FUNCTION=nft_do_chain
CAUSE="an nftables rule or chain policy"
RULE=inet/wdlab/input/2
NO_IPV6=1
source "$(dirname "$0")/../lib.sh"
setup() { nft_in b input 'udp dport 5556 counter drop comment "lab rule"'; }
send_recipe 5 'E/IP(src=A4, dst=B4)/UDP(sport=40000, dport=5556)/Raw(b"x"*20)'
