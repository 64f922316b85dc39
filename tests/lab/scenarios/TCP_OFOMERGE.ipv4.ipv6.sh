#!/bin/bash
# The same out-of-order segment (rcv_nxt+1000) sent 4 times: 3 duplicates of queued data.
REASON=TCP_OFOMERGE FUNCTION=tcp_data_queue
CAUSE="duplicate of data already in out-of-order queue"
source "$(dirname "$0")/../lib.sh"
setup() { in_a sysctl -q -w net.ipv4.tcp_timestamps=0; }
trigger() {
	bg_py srv b tcp-server $V 8080
	bg_py cli a forge $V 8080 --count 4 'seg(seq=SEQ+1000, data=b"x"*100)'
	expect 3
}
lab_main
