#!/bin/bash
# An established TCP connection whose route goes away: the sender's next segments (data,
# then the RST of an abortive close) find no route in ip_queue_xmit and are dropped.
# Expected: the sender namespace's IpOutNoRoutes (it moves with each of these drops).
REASON=IP_OUTNOROUTES FAMILY=ipv4 FUNCTION=__ip_queue_xmit WATCH=a
CAUSE="no route out"
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py srv b tcp-server 4 8080 --read
	expect_counter "mib a IpOutNoRoutes"
	py_a lose-route 4 "$B4" 8080
}
lab_main
