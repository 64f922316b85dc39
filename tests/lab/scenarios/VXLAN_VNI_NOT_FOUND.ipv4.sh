#!/bin/bash
# VXLAN device with VNI 100 in the receiver; VXLAN packets for VNI 999.
REASON=VXLAN_VNI_NOT_FOUND FAMILY=ipv4 FUNCTION=vxlan_rcv
CAUSE="VNI"
source "$(dirname "$0")/../lib.sh"
vxlan_recipe '\x08\0\0\0\0\x03\xe7\0' 02:00:00:00:0d:01
