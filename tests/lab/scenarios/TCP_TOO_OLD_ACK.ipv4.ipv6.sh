#!/bin/bash
# An ACK number 2^29 before anything the receiver still has in flight.
REASON=TCP_TOO_OLD_ACK FUNCTION_ipv4=tcp_v4_do_rcv FUNCTION_ipv6=tcp_v6_do_rcv
CAUSE="far older"
source "$(dirname "$0")/../lib.sh"
forge_recipe 3 --count 3 'seg(ack=ACK-2**29)'
