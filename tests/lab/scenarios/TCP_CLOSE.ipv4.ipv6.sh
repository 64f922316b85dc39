#!/bin/bash
# The receiving task holds the socket lock (a send() from a userfaultfd page nobody serves),
# so arriving segments wait in the backlog: an in-window RST, then 3 data segments. When the
# lock is released the backlog runs in order: the RST closes the socket (state CLOSE) and
# the 3 segments behind it reach a closed socket. The sender's nft drops everything from
# the receiver but the SYN-ACK, so that it never ACKs the send()'s data: such an ACK could
# join the backlog behind the RST and be a 4th drop.
REASON=TCP_CLOSE FUNCTION=tcp_rcv_state_process
CAUSE="CLOSE state"
source "$(dirname "$0")/../lib.sh"
setup() {
	in_a sysctl -q -w net.ipv4.tcp_timestamps=0
	nft_in a input 'tcp sport 8080 tcp flags & syn == 0 drop'
}
trigger() {
	bg_py srv b tcp-server $V 8080 --hold-lock --release-on "$T/release"
	bg_py cli a forge $V 8080 --wait "$T/srv.ready.locked" --after "$T/release" \
		'[seg(flags="R")] + [seg(data=b"x"*10)] * 3'
	expect 3
}
lab_main
