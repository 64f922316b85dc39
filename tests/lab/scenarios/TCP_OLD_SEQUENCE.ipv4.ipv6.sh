#!/bin/bash
# Data ending 300000 bytes before rcv_nxt (a stale duplicate from long ago).
REASON=TCP_OLD_SEQUENCE FUNCTION=tcp_validate_incoming
CAUSE="left of the window"
source "$(dirname "$0")/../lib.sh"
setup() { in_a sysctl -q -w net.ipv4.tcp_timestamps=0; }
trigger() {
	bg_py srv b tcp-server $V 8080
	bg_py cli a forge $V 8080 --count 3 'seg(seq=SEQ-300000, data=b"x"*10)'
	expect 3
}
lab_main
