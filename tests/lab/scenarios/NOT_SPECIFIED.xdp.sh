#!/bin/bash
# Trap, documented: a generic-mode XDP_DROP is freed with NOT_SPECIFIED, not XDP.
# Only the drops at do_xdp_generic are counted here (whydrop names the location).
REASON=NOT_SPECIFIED FAMILY=xdp FUNCTION=do_xdp_generic
CAUSE="XDP_DROP"
NO_IPV6=1	# no IPv6 link-up chatter (MLD) through the same hook
source "$(dirname "$0")/../lib.sh"
xdp_recipe xdp_drop
