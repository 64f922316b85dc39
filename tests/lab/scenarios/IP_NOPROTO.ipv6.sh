#!/bin/bash
# IPv6 next header 253 to a local address; no raw socket or handler for it.
REASON=IP_NOPROTO FAMILY=ipv6 FUNCTION=ip6_input_finish
CAUSE="no handler for this IP protocol"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IPv6(src=A6, dst=B6, nh=253)/Raw(b"x"*20)'
	expect 3
}
lab_main
