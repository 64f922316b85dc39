#!/bin/bash
# Data starting 2^30 beyond rcv_nxt on an established connection.
REASON=TCP_INVALID_SEQUENCE FUNCTION=tcp_validate_incoming
CAUSE="out of window"
source "$(dirname "$0")/../lib.sh"
setup() { in_a sysctl -q -w net.ipv4.tcp_timestamps=0; }
trigger() {
	bg_py srv b tcp-server $V 8080
	bg_py cli a forge $V 8080 --count 3 'seg(seq=SEQ+2**30, data=b"x"*10)'
	expect 3
}
lab_main
