#!/bin/bash
# A tc BPF classifier on the sender's egress returns TC_ACT_SHOT (watched in the sender).
REASON=TC_EGRESS FAMILY=l2 FUNCTION=__dev_queue_xmit
CAUSE="tc egress"
NO_IPV6=1	# no IPv6 link-up chatter (MLD) through the same hook
source "$(dirname "$0")/../lib.sh"
WATCH=a
setup() {
	bpf_obj shot
	in_a tc qdisc add dev vA clsact
	in_a tc filter add dev vA egress bpf da obj "$T/shot.o" sec tc
}
trigger() {
	send 3 'E/IP(src=A4, dst=B4)/UDP(sport=40000, dport=5555)'
	expect 3
}
lab_main
