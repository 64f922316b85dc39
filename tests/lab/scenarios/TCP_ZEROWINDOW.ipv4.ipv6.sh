#!/bin/bash
# 6.17+ reports data overrunning a zero window as TCP_INVALID_END_SEQUENCE while unread
# data is queued. TCP_ZEROWINDOW needs the window at 0 with an EMPTY receive queue:
# forged data fills the receiver's window until it advertises 0 (it does not read), then the receiver
# calls shutdown(SHUT_RD) and reads everything (after SHUT_RD, reading sends no window
# update), then one segment of data arrives at rcv_nxt. (The drop's ACK reopens the window,
# so one segment gives one drop.)
REASON=TCP_ZEROWINDOW FUNCTION=tcp_data_queue
CAUSE="window is zero"
source "$(dirname "$0")/../lib.sh"
setup() { in_a sysctl -q -w net.ipv4.tcp_timestamps=0; }
trigger() {
	bg_py srv b tcp-server $V 8080 --rcvbuf 16384 --drain-on "$T/drain"
	bg_py cli a forge $V 8080 --fill --drain "$T/drain" 'seg(data=b"z"*100)'
	expect 1
}
lab_main
