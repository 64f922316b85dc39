#!/bin/bash
# The same out-of-order segment (rcv_nxt+1000) sent 4 times: 3 duplicates of queued data.
REASON=TCP_OFOMERGE FUNCTION=tcp_data_queue
CAUSE="duplicate of data already in out-of-order queue"
source "$(dirname "$0")/../lib.sh"
forge_recipe 3 --count 4 'seg(seq=SEQ+1000, data=b"x"*100)'
