#!/bin/bash
# Frames with EtherType 0x88b5 (local experimental), for which no handler is registered.
REASON=UNHANDLED_PROTO FAMILY=l2 FUNCTION=__netif_receive_skb_core
CAUSE="EtherType"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'Ether(src=MAC_A, dst=MAC_B, type=0x88b5)/Raw(b"x"*50)'
	expect 3
}
lab_main
