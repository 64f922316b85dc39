#!/bin/bash
# IPv4 protocol 253 to a local address; no raw socket or handler for it.
REASON=IP_NOPROTO FAMILY=ipv4 FUNCTION=ip_local_deliver_finish
CAUSE="no handler for this IP protocol"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IP(src=A4, dst=B4, proto=253)/Raw(b"x"*20)'
	expect 3
}
lab_main
