#!/bin/bash
# Packet for a non-local address (198.51.100.7) while forwarding is off on the receiving
# device (the per-device switch the route lookup reads; a new namespace copies the host's, and
# a container host forwards).
REASON=IP_INADDRERRORS FAMILY=ipv4 FUNCTION=ip_error
CAUSE="not forwardable"
source "$(dirname "$0")/../lib.sh"
setup() { in_b sysctl -q -w net.ipv4.conf.vB.forwarding=0; }
send_recipe 3 'E/IP(src=A4, dst="198.51.100.7")/UDP(sport=40000, dport=5555)'
