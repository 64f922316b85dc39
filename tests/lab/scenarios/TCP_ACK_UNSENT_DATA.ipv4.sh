#!/bin/bash
# An ACK for 50000 bytes the receiver never sent.
REASON=TCP_ACK_UNSENT_DATA FAMILY=ipv4 FUNCTION=tcp_v4_do_rcv
CAUSE="ACK for data never sent"
source "$(dirname "$0")/../lib.sh"
setup() { in_a sysctl -q -w net.ipv4.tcp_timestamps=0; }
trigger() {
	bg_py srv b tcp-server 4 8080 
	bg_py cli a forge 4 8080 --count 3 'seg(ack=ACK+50000)'
	expect 3
}
lab_main
