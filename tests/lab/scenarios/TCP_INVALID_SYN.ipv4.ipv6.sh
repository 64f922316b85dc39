#!/bin/bash
# A SYN on an established connection (same 4-tuple): challenge ACK, SYN dropped.
REASON=TCP_INVALID_SYN FUNCTION=tcp_validate_incoming
CAUSE="SYN on an established connection"
source "$(dirname "$0")/../lib.sh"
setup() { in_a sysctl -q -w net.ipv4.tcp_timestamps=0; }
trigger() {
	bg_py srv b tcp-server $V 8080
	bg_py cli a forge $V 8080 --count 3 'seg(flags="S")'
	expect 3
}
lab_main
