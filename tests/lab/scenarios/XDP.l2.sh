#!/bin/bash
# A generic-mode (skb) XDP program redirects to ifindex 9999, which does not exist.
REASON=XDP FAMILY=l2 FUNCTION=do_xdp_generic
CAUSE="redirect"
NO_IPV6=1	# no IPv6 link-up chatter (MLD) through the same hook
source "$(dirname "$0")/../lib.sh"
xdp_recipe xdp_redirect_bad
