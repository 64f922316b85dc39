#!/bin/bash
# The UDP receiver runs in a memory cgroup (v1) whose socket-memory limit
# (memory.kmem.tcp.limit_in_bytes: v1 charges every socket buffer of the cgroup to it) is
# 64 KiB, with an 8 MB SO_RCVBUF so the socket buffer is never the limit; 200 datagrams of
# 1000 bytes. On 6.18 these drops are counted per socket only (UdpMemErrors stays 0), so
# the expected count is the drops column of /proc/net/udp (udp6) for that socket.
# No global sysctl is touched. Without cgroup v1 (cgroup v2's memory.max is forced past by
# receive charges): skipped, and PROTO_MEM.tcp4 (.tcp6) makes the reason.
REASON=PROTO_MEM FUNCTION=__udp_enqueue_schedule_skb
CAUSE="memory cgroup"
source "$(dirname "$0")/../lib.sh"
setup() { memcg_setup; }
trigger() {
	BG_CGROUP=$MEMCG bg_py srv b udp-server $V 5555 --rcvbuf-force 8000000
	expect_counter "in_b $PY $LAB_PY udp-drops 5555"
	send 200 'E/IPX(src=AX, dst=BX)/UDP(sport=40000, dport=5555)/Raw(b"x"*1000)'
}
lab_main
