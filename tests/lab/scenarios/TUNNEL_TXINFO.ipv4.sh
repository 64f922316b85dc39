#!/bin/bash
# A metadata-mode ("external") VXLAN device; plain datagrams routed into it carry no tunnel info.
REASON=TUNNEL_TXINFO FAMILY=ipv4 FUNCTION=vxlan_xmit
CAUSE="no tunnel metadata"
source "$(dirname "$0")/../lib.sh"
tunnel_recipe vx2 'vxlan external dstport 4791'
