#!/bin/bash
# VXLAN device (VNI 100, learning on, the default) in the receiver; VXLAN packets whose
# inner frame has a multicast source MAC (01:00:5e:00:00:01), which cannot be learned.
REASON=MAC_INVALID_SOURCE FAMILY=ipv4 FUNCTION=vxlan_rcv
CAUSE="invalid source MAC"
source "$(dirname "$0")/../lib.sh"
vxlan_recipe '\x08\0\0\0\0\0\x64\0' 01:00:5e:00:00:01
