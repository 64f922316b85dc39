#!/bin/bash
# Strict rp_filter and a source (203.0.113.77) with no route back.
# Expected: the namespace's TcpExtIPReversePathFilter counter.
REASON=IP_RPFILTER FAMILY=ipv4 FUNCTION=ip_rcv_finish_core
CAUSE="reverse-path filter"
source "$(dirname "$0")/../lib.sh"
setup() { in_b sysctl -q -w net.ipv4.conf.all.rp_filter=1 net.ipv4.conf.vB.rp_filter=1; }
trigger() {
	expect_counter "mib b TcpExtIPReversePathFilter"
	send 3 'E/IP(src="203.0.113.77", dst=B4)/UDP(sport=40000, dport=5555)'
}
lab_main
