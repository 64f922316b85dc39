#!/bin/bash
# A VXLAN device without remote, group or FDB entry; datagrams routed into it
# (static neighbour, so no ARP) have nowhere to go.
REASON=NO_TX_TARGET FAMILY=ipv4 FUNCTION=vxlan_xmit
CAUSE="no destination"
source "$(dirname "$0")/../lib.sh"
tunnel_recipe vx1 'vxlan id 200 dstport 4790 dev vB'
