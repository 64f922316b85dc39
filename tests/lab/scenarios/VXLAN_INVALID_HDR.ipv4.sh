#!/bin/bash
# VXLAN device (VNI 100, UDP 4789) in the receiver; VXLAN packets with flags 0 (I bit clear).
REASON=VXLAN_INVALID_HDR FAMILY=ipv4 FUNCTION=vxlan_rcv
CAUSE="invalid VXLAN header"
source "$(dirname "$0")/../lib.sh"
vxlan_recipe '\x00\0\0\0\0\0\x64\0' 02:00:00:00:0d:01
