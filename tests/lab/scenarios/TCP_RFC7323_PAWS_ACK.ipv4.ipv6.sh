#!/bin/bash
# After 100 real bytes, 3 pure ACKs with an old sequence (rcv_nxt-50) whose timestamp (TSval)
# is 200000 older than the last one seen: an overtaken old ACK, discarded quietly (no dup-ACK).
REASON=TCP_RFC7323_PAWS_ACK FUNCTION=tcp_validate_incoming
CAUSE="pure ACK"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py srv b tcp-server $V 8080 --read
	bg_py cli a forge $V 8080 --ts --send 100 --count 3 'seg(seq=SEQ-50, tsval=TS-200000)'
	expect 3
}
lab_main
