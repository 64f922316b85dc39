#!/bin/bash
# No cgroup, so on any cgroup layout: the receiver (SO_RCVBUF 2048, so sk_rcvbuf 4096) never
# reads; 40 one-byte out-of-order segments at rcv_nxt+200, +202, ...: each costs a whole skb
# (truesize >= 576) of receive memory, so the first few fill it and the rest cannot be
# charged: dropped for lack of memory in tcp_data_queue (tcp_data_queue_ofo, inlined). Each
# lands above everything queued, so nothing is pruned to make room.
# Expected: the namespace's TcpExtTCPOFODrop, which moves with each of these drops.
REASON=PROTO_MEM FUNCTION=tcp_data_queue
CAUSE="out-of-order data refused"
source "$(dirname "$0")/../lib.sh"
SERVER_OPTS="--rcvbuf 2048"
forge_recipe "mib b TcpExtTCPOFODrop" '[seg(seq=SEQ+200+2*i, data=b"h") for i in range(40)]'
