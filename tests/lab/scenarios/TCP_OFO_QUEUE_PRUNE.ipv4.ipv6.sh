#!/bin/bash
# The receiver (SO_RCVBUF 2048, so sk_rcvbuf 4096) never reads. 20 one-byte out-of-order
# segments at rcv_nxt+200, +202, ...: each costs a whole skb (truesize >= 576) of receive
# memory, so the first few fill it and the rest are refused (PROTO_MEM). Then 3 one-byte
# segments below them (rcv_nxt+100, +98, +96): for each, tcp_prune_ofo_queue throws away the
# highest queued segment to make room. One per segment: the memory goal of a prune,
# sk_rcvbuf/8 = 512, is below the truesize of any skb.
REASON=TCP_OFO_QUEUE_PRUNE FUNCTION=tcp_prune_ofo_queue
CAUSE="pruned"
source "$(dirname "$0")/../lib.sh"
SERVER_OPTS="--rcvbuf 2048"
forge_recipe 3 '[seg(seq=SEQ+200+2*i, data=b"h") for i in range(20)]' \
	'[seg(seq=SEQ+100-2*i, data=b"l") for i in range(3)]'
