#!/bin/bash
# tbf with a 3000-byte queue on the sender's vA; 300 frames at once.
# Expected: the "dropped" counter of that qdisc (tc -s qdisc).
REASON=QDISC_DROP FAMILY=l2 FUNCTION=__dev_queue_xmit
CAUSE="tbf"
NO_IPV6=1	# no IPv6 link-up chatter (MLD) through the same hook
source "$(dirname "$0")/../lib.sh"
WATCH=a
setup() { in_a tc qdisc add dev vA root tbf rate 1mbit burst 1600 limit 3000; }
qdisc_dropped() { in_a tc -s qdisc show dev vA | sed -n 's/.*dropped \([0-9]*\).*/\1/p' | head -n1; }
trigger() {
	expect_counter qdisc_dropped
	send 300 'E/IP(src=A4, dst=B4)/UDP(sport=40000, dport=5555)/Raw(b"x"*100)'
}
lab_main
