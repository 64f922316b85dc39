#!/bin/bash
# Source 127.0.0.5 arriving on a non-loopback device (route_localnet off).
REASON=IP_LOCALNET FAMILY=ipv4 FUNCTION=ip_rcv_finish_core
CAUSE="127.0.0.0/8"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IP(src="127.0.0.5", dst=B4)/UDP(sport=40000, dport=5555)'
	expect 3
}
lab_main
