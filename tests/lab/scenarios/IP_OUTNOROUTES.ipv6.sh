#!/bin/bash
# The receiver always answers SYNs with SYN cookies (tcp_syncookies=2, this namespace only);
# after its SYN-ACK, its route back to the sender (2001:db8::/64 on vB) is deleted; then 3
# final ACKs carrying the valid cookie: each would create the connection, but cookie_v6_check
# finds no route for it and drops the ACK. (The sender's nft drops the SYN-ACK, so that its
# kernel sends no RST.)
REASON=IP_OUTNOROUTES FAMILY=ipv6 FUNCTION=cookie_v6_check
CAUSE="SYN-cookie ACK with no route back"
source "$(dirname "$0")/../lib.sh"
pre_link() { in_b sysctl -q -w net.ipv4.tcp_syncookies=2; }
V=6	# one family: lab_family sets no V
handshake_recipe --then "ip -n $NS_B -6 route del 2001:db8::/64 dev vB" 'seg()' --count 3
