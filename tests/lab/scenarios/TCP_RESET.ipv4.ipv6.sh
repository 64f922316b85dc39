#!/bin/bash
# RST segments to a listening port.
REASON=TCP_RESET FUNCTION=tcp_rcv_state_process
CAUSE="RST to a listening socket"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py srv b tcp-server $V 80
	send 3 'E/IPX(src=AX, dst=BX)/TCP(sport=40000, dport=80, flags="R", seq=1000)'
	expect 3
}
lab_main
