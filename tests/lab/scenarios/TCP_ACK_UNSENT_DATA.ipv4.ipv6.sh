#!/bin/bash
# An ACK for 50000 bytes the receiver never sent.
REASON=TCP_ACK_UNSENT_DATA FUNCTION_ipv4=tcp_v4_do_rcv FUNCTION_ipv6=tcp_v6_do_rcv
CAUSE="ACK for data never sent"
source "$(dirname "$0")/../lib.sh"
forge_recipe 3 --count 3 'seg(ack=ACK+50000)'
