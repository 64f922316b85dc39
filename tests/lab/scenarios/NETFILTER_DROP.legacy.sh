#!/bin/bash
# A legacy iptables (x_tables) INPUT rule in the receiver's namespace drops UDP to port
# 5555: legacy iptables returns the verdict and nf_hook_slow frees the packet (an nftables
# rule frees it in nft_do_chain). conntrack plays no part: its counters do not move.
REASON=NETFILTER_DROP FAMILY=legacy FUNCTION=nf_hook_slow
CAUSE="legacy iptables rule"
NO_IPV6=1
source "$(dirname "$0")/../lib.sh"
setup() { b_iptables iptables-legacy 5555; }
send_recipe 4 'E/IP(src=A4, dst=B4)/UDP(sport=40000, dport=5555)/Raw(b"x"*20)'
