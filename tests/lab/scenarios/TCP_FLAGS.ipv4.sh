#!/bin/bash
# SYN+FIN segments to a listening port.
REASON=TCP_FLAGS FAMILY=ipv4 FUNCTION=tcp_rcv_state_process
CAUSE="flags invalid"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py srv b tcp-server 4 80
	send 3 'E/IP(src=A4, dst=B4)/TCP(sport=40000, dport=80, flags="SF", seq=1000)'
	expect 3
}
lab_main
