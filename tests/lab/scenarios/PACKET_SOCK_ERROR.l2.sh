#!/bin/bash
# An AF_PACKET socket with SO_RCVBUF=1 that never reads; 100 frames.
# Expected: tp_drops of PACKET_STATISTICS, read from the socket.
REASON=PACKET_SOCK_ERROR FAMILY=l2 FUNCTION=packet_rcv
CAUSE="capture socket"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py pk b pktsock vB --proto 0x88b5 --rcvbuf 1
	send 100 'Ether(src=MAC_A, dst=MAC_B, type=0x88b5)/Raw(b"x"*50)'
	sleep 0.1
	stop pk
	expect "$(cut -d' ' -f2 "$T/pk.stats")"
}
lab_main
