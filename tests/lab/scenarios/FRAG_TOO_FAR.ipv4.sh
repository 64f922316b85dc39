#!/bin/bash
# ipfrag_max_dist=64 (default): the first fragment of datagram 1, then first fragments of
# 70 other datagrams from the same source, then the last fragment of datagram 1: the
# queue of datagram 1 is too far behind and is thrown away (its one queued fragment).
# The purged fragments have neither a device (ip_frag_queue clears skb->dev) nor a socket,
# so no tool can tell their namespace from the skb: counted host-wide (WATCH=all).
REASON=FRAG_TOO_FAR FAMILY=ipv4 FUNCTION=inet_frag_rbtree_purge
CAUSE="too far out of order"
WATCH=all
source "$(dirname "$0")/../lib.sh"
trigger() {
	send 1 'E/IP(src=A4, dst=B4, id=100, flags="MF", frag=0)/UDP(sport=40000, dport=5555)/Raw(b"x"*64)' \
	       '[E/IP(src=A4, dst=B4, id=200+i, flags="MF", frag=0)/UDP(sport=40000, dport=5555)/Raw(b"x"*64) for i in range(70)]' \
	       'E/IP(src=A4, dst=B4, id=100, frag=9, proto=17)/Raw(b"y"*16)'
	expect 1
}
lab_main
