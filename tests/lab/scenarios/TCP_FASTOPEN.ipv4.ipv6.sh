#!/bin/bash
# TCP Fast Open server (tcp_fastopen=3 in the receiver's namespace, TCP_FASTOPEN_NO_COOKIE on
# the listener): a crafted SYN with 10 bytes of data creates a child socket in SYN-RECV (the
# sender's nft drops the SYN-ACK); then 3 in-window data segments without the ACK flag,
# which the child's request check (tcp_check_req) refuses.
REASON=TCP_FASTOPEN FUNCTION=tcp_rcv_state_process
CAUSE="Fast Open"
source "$(dirname "$0")/../lib.sh"
pre_link() { in_b sysctl -q -w net.ipv4.tcp_fastopen=3; }
SERVER_OPTS=--fastopen
handshake_recipe --tfo 10 --count 3 'seg(flags="P", data=b"x"*10)'
