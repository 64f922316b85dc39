#!/bin/bash
# vA hands out at most 1 segment per GSO packet (gso_max_segs 1), so each of 3 UDP GSO sends
# (20 segments of 100 bytes) is cut into 20 datagrams in software and all 20 reach vB's
# per-CPU backlog inside one softirq-disabled section. With the backlog limit lowered to 4
# (net.core.netdev_max_backlog: host-wide, lowered only around the sends) 5 fit and 15 are
# dropped. Expected: vB's rx_dropped, which enqueue_to_backlog moves with each drop.
REASON=CPU_BACKLOG FUNCTION=enqueue_to_backlog
CAUSE="backlog full"
source "$(dirname "$0")/../lib.sh"
setup() {
	in_a ip link set vA gso_max_segs 1
}
trigger() {
	bg_py srv b udp-server $V 5555
	expect_counter 'in_b cat /sys/class/net/vB/statistics/rx_dropped'
	sysctl_global net.core.netdev_max_backlog=4
	py_a udp-send $V $BX 5555 3 --size 2000 --gso 100 >/dev/null
	sysctl_restore
}
lab_main
