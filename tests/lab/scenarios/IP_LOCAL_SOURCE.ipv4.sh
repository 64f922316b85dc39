#!/bin/bash
# Source address is the receiver's own address.
REASON=IP_LOCAL_SOURCE FAMILY=ipv4 FUNCTION=ip_rcv_finish_core
CAUSE="one of our own"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IP(src=B4, dst=B4)/UDP(sport=40000, dport=5555)'
	expect 3
}
lab_main
