#!/bin/bash
# A crafted SYN with timestamps leaves a request in SYN-RECV (the sender's nft drops the
# SYN-ACK); then 3 final ACKs whose echoed timestamp (TSecr) is 100000 below the SYN-ACK's
# TSval, i.e. one the receiver never sent.
REASON=TCP_RFC7323_TSECR FUNCTION_ipv4=tcp_v4_rcv FUNCTION_ipv6=tcp_v6_rcv
CAUSE="invalid timestamp"
source "$(dirname "$0")/../lib.sh"
handshake_recipe --ts --count 3 'seg(tsval=TS, tsecr=TSE-100000)'
