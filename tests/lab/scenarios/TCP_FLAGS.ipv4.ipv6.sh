#!/bin/bash
# SYN+FIN segments to a listening port.
REASON=TCP_FLAGS FUNCTION=tcp_rcv_state_process
CAUSE="flags invalid"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py srv b tcp-server $V 80
	send 3 'E/IPX(src=AX, dst=BX)/TCP(sport=40000, dport=80, flags="SF", seq=1000)'
	expect 3
}
lab_main
