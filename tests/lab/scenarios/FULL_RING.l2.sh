#!/bin/bash
# A tap device (txqueuelen 2) whose file descriptor nobody reads; 50 datagrams routed
# into it. Expected: the tap's tx_dropped counter.
REASON=FULL_RING FAMILY=l2 FUNCTION=tun_net_xmit
CAUSE="queue toward the consumer is full"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py tap b tap tap0 50
	expect "$(cat "$T/tap.stats")"
}
lab_main
