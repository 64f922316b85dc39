#!/bin/bash
# tcp_fin_timeout=120 keeps the closed side as a full FIN_WAIT2 socket; the server closes
# each of 3 connections at once, the client then sends data: each connection is reset once.
REASON=TCP_ABORT_ON_DATA FUNCTION_ipv4=tcp_v4_do_rcv FUNCTION_ipv6=tcp_v6_do_rcv
CAUSE="data after the local side closed"
source "$(dirname "$0")/../lib.sh"
setup() { in_b sysctl -q -w net.ipv4.tcp_fin_timeout=120; }
trigger() {
	bg_py srv b tcp-server $V 8080 --close
	bg_py cli a tcp-connect $V $BX 8080 3 --then-send
	expect 3
}
lab_main
