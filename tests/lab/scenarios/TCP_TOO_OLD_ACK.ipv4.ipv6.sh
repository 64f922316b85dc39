#!/bin/bash
# An ACK number 2^29 before anything the receiver still has in flight.
REASON=TCP_TOO_OLD_ACK FUNCTION_ipv4=tcp_v4_do_rcv FUNCTION_ipv6=tcp_v6_do_rcv
CAUSE="far older"
source "$(dirname "$0")/../lib.sh"
setup() { in_a sysctl -q -w net.ipv4.tcp_timestamps=0; }
trigger() {
	bg_py srv b tcp-server $V 8080
	bg_py cli a forge $V 8080 --count 3 'seg(ack=ACK-2**29)'
	expect 3
}
lab_main
