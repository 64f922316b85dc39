#!/bin/bash
# ipfrag_time=1 in the receiver; 3 datagrams of which only the first fragment arrives.
REASON=FRAG_REASM_TIMEOUT FAMILY=ipv4 FUNCTION=ip_expire
CAUSE="reassembly timed out"
source "$(dirname "$0")/../lib.sh"
setup() { in_b sysctl -q -w net.ipv4.ipfrag_time=1; }
SETTLE=2.5
trigger() {
	send 1 'E/IP(src=A4, dst=B4, id=4242, flags="MF", frag=0)/UDP(sport=40000, dport=5555)/Raw(b"x"*64)' \
	       'E/IP(src=A4, dst=B4, id=4243, flags="MF", frag=0)/UDP(sport=40000, dport=5555)/Raw(b"x"*64)' \
	       'E/IP(src=A4, dst=B4, id=4244, flags="MF", frag=0)/UDP(sport=40000, dport=5555)/Raw(b"x"*64)'
	expect 3
}
lab_main
