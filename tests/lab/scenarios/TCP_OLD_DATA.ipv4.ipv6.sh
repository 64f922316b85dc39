#!/bin/bash
# After 100 real bytes, the last 5 are replayed (end_seq == rcv_nxt).
REASON=TCP_OLD_DATA FUNCTION=tcp_data_queue
CAUSE="duplicate data already received"
source "$(dirname "$0")/../lib.sh"
setup() { in_a sysctl -q -w net.ipv4.tcp_timestamps=0; }
trigger() {
	bg_py srv b tcp-server $V 8080 --read
	bg_py cli a forge $V 8080 --send 100 --count 3 'seg(seq=SEQ-5, data=b"x"*5)'
	expect 3
}
lab_main
