#!/bin/bash
# VXLAN device (VNI 100, MAC 02:00:00:00:0d:ee) in the receiver; VXLAN packets whose inner
# frame has that same MAC as its source (a loop, or its own multicast echo).
REASON=LOCAL_MAC FAMILY=ipv4 FUNCTION=vxlan_rcv
CAUSE="our own"
source "$(dirname "$0")/../lib.sh"
vxlan_recipe '\x08\0\0\0\0\0\x64\0' 02:00:00:00:0d:ee
