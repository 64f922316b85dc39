#!/bin/bash
# The receiver's connect() is left in SYN-SENT (the sender's nft drops its SYN); 3 forged
# SYN-ACKs acknowledge 1000 bytes beyond the SYN: each is answered with a RST and dropped.
REASON=TCP_INVALID_ACK_SEQUENCE FUNCTION_ipv4=tcp_v4_do_rcv FUNCTION_ipv6=tcp_v6_do_rcv
CAUSE="ACK number outside"
source "$(dirname "$0")/../lib.sh"
setup() { nft_in a input 'tcp dport 8080 drop'; }
trigger() {
	bg_py fg a synack $V 8080 --count 3 'seg(ack=PSEQ+1000)'
	bg_py cli b syn-sent $V $AX 8080 --wait "$T/fg.ready.done"
	expect 3
}
lab_main
