#!/bin/bash
# The receiver closes first, so its end of the connection ends in TIME_WAIT; then 3 segments
# whose timestamp (TSval) is 200000 older than the last one seen. The sender's nft drops its
# own RSTs (its socket is gone), which would otherwise kill the TIME_WAIT socket.
REASON=TCP_RFC7323_TW_PAWS FUNCTION_ipv4=tcp_v4_rcv FUNCTION_ipv6=tcp_v6_rcv
CAUSE="TIME_WAIT"
source "$(dirname "$0")/../lib.sh"
setup() { nft_in a output 'tcp sport != 8080 tcp flags rst drop'; }
trigger() {
	bg_py srv b tcp-server $V 8080 --close
	bg_py cli a forge $V 8080 --ts --fin --count 3 'seg(tsval=TS-200000)'
	expect 3
}
lab_main
