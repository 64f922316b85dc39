#!/bin/bash
# As for IPv4.
REASON=TCP_LISTEN_OVERFLOW FAMILY=ipv6 FUNCTION=tcp_v6_rcv
CAUSE="accept queue full"
source "$(dirname "$0")/../lib.sh"
setup() {
	in_b sysctl -q -w net.ipv4.tcp_syncookies=0
	in_a nft -f - <<'NFT'
table inet wdlab {
	chain input { type filter hook input priority 0; tcp sport 8080 tcp dport 41000-41099 drop; }
}
NFT
}
trigger() {
	bg_py srv b tcp-server 6 8080 --backlog 2 --no-accept
	bg_py lo a listen-overflow 6 8080 2 3
	expect 2
}
lab_main
