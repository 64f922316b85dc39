#!/bin/bash
# A tap whose TUNSETTXFILTER list holds only 02:00:00:00:0c:99; 5 datagrams routed into it
# go to 02:00:00:00:0c:05 (a permanent neighbour) and are refused by that MAC filter.
REASON=TAP_TXFILTER FAMILY=l2 FUNCTION=tun_net_xmit
CAUSE="MAC filter"
NO_IPV6=1
source "$(dirname "$0")/../lib.sh"
tap_recipe txfilter
