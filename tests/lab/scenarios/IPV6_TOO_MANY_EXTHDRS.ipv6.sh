#!/bin/bash
# UDP datagrams to a bound socket behind a chain of 13 (empty, padded) destination-options
# headers: more extension headers than the kernel walks on local delivery (12,
# IP6_MAX_EXT_HDRS_CNT), so each is dropped; Ip6InDiscards moves with each drop. The same
# datagrams behind 12 headers, sent alongside, must pass: the server reads them
# (Udp6InDatagrams counts reads) and they add nothing to the count.
REASON=IPV6_TOO_MANY_EXTHDRS FAMILY=ipv6 FUNCTION=ip6_input_finish
CAUSE="more than 12"
source "$(dirname "$0")/../lib.sh"
dest_opts() { printf 'IPv6ExtHdrDestOpt()/%.0s' $(seq "$1"); }	# N headers, as scapy layers
trigger() {
	bg_py srv b udp-server 6 5555 --read
	local disc read i
	disc=$(mib b Ip6InDiscards) read=$(mib b Udp6InDatagrams)
	send 3 "E/IPv6(src=A6, dst=B6)/$(dest_opts 13)UDP(sport=40013, dport=5555)/Raw(b'x')" \
	       "E/IPv6(src=A6, dst=B6)/$(dest_opts 12)UDP(sport=40012, dport=5555)/Raw(b'x')"
	expect 3
	for i in $(seq 20); do	# the server reads within its 0.2 s poll
		[ $(( $(mib b Udp6InDatagrams) - read )) -ge 3 ] && break
		sleep 0.1
	done
	disc=$(( $(mib b Ip6InDiscards) - disc )) read=$(( $(mib b Udp6InDatagrams) - read ))
	[ "$read" = 3 ] || fail "the server read $read datagrams, not 3 (12 headers must pass)"
	[ "$disc" = 3 ] || fail "Ip6InDiscards moved by $disc, not 3"
}
lab_main
