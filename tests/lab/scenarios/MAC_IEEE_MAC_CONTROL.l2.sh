#!/bin/bash
# vB is a bridge port; frames to the IEEE MAC-control address 01:80:c2:00:00:01 (PAUSE).
REASON=MAC_IEEE_MAC_CONTROL FAMILY=l2 FUNCTION=br_handle_frame
CAUSE="MAC-control frame"
source "$(dirname "$0")/../lib.sh"
NO_IPV6=1
setup() { in_b sh -c 'ip link add br0 type bridge && ip link set vB master br0 && ip link set br0 up'; }
trigger() {
	send 3 'Ether(src=MAC_A, dst="01:80:c2:00:00:01", type=0x8808)/Raw(b"\x00\x01\xff\xff" + b"\0"*42)'
	expect 3
}
lab_main
