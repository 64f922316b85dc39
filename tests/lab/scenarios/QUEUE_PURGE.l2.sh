#!/bin/bash
# An AF_PACKET socket for EtherType 0x88b5 receives 5 frames and is closed unread:
# its receive queue is purged.
REASON=QUEUE_PURGE FAMILY=l2 FUNCTION=skb_queue_purge_reason
CAUSE="queue emptied"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py pk b pktsock vB --proto 0x88b5
	send 5 'Ether(src=MAC_A, dst=MAC_B, type=0x88b5)/Raw(b"x"*50)'
	sleep 0.1
	stop pk
	expect 5
}
lab_main
