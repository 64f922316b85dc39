#!/bin/bash
# RST segments to a listening port.
REASON=TCP_RESET FAMILY=ipv4 FUNCTION=tcp_rcv_state_process
CAUSE="RST to a listening socket"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py srv b tcp-server 4 80
	send 3 'E/IP(src=A4, dst=B4)/TCP(sport=40000, dport=80, flags="R", seq=1000)'
	expect 3
}
lab_main
