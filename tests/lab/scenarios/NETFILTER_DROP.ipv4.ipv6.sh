#!/bin/bash
# An nftables input rule drops UDP to port 5555.
REASON=NETFILTER_DROP FUNCTION=nft_do_chain
CAUSE="an nftables rule or chain policy"
source "$(dirname "$0")/../lib.sh"
setup() { nft_in b input 'udp dport 5555 drop'; }
send_recipe 4 'E/IPX(src=AX, dst=BX)/UDP(sport=40000, dport=5555)/Raw(b"x"*20)'
