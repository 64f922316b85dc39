#!/bin/bash
# Data at rcv_nxt whose timestamp (TSval) is 200000 older than the last one seen.
REASON=TCP_RFC7323_PAWS FUNCTION=tcp_validate_incoming
CAUSE="timestamp older"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py srv b tcp-server $V 8080
	bg_py cli a forge $V 8080 --ts --count 3 'seg(data=b"x"*10, tsval=TS-200000)'
	expect 3
}
lab_main
