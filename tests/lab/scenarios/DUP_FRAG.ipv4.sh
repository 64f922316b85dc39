#!/bin/bash
# The same first fragment (MF=1) sent 3 times: the 2nd and 3rd are duplicates.
REASON=DUP_FRAG FAMILY=ipv4 FUNCTION=ip_defrag
CAUSE="duplicate IP fragment"
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 3 'E/IP(src=A4, dst=B4, id=4242, flags="MF", frag=0)/UDP(sport=40000, dport=5555)/Raw(b"x"*64)'
	expect 2
}
lab_main
