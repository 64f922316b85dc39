#!/bin/bash
# 3 out-of-order segments of 5 bytes (rcv_nxt+10, +30, +50) are queued, then 100 bytes at
# rcv_nxt cover all three: when the out-of-order queue is moved to the receive queue
# (tcp_ofo_queue), each queued segment lies wholly before the new rcv_nxt and is dropped.
# (6.18 reports a segment refused for lack of receive memory as PROTO_MEM, not TCP_OFO_DROP.)
REASON=TCP_OFO_DROP FUNCTION=tcp_data_queue
CAUSE="already covered"
source "$(dirname "$0")/../lib.sh"
forge_recipe 3 '[seg(seq=SEQ+o, data=b"o"*5) for o in (10, 30, 50)]' \
	'seg(data=b"i"*100)'
