#!/bin/bash
# The IPv6 twin of IP_OUTNOROUTES.ipv4 is a trap: an established TCP connection whose
# route goes away drops its next segments (data, then the RST of an abortive close) in
# inet6_csk_xmit with a plain kfree_skb, so they show as NOT_SPECIFIED, not IP_OUTNOROUTES.
# Expected: the sender namespace's Ip6OutNoRoutes (it moves with each of these drops).
REASON=NOT_SPECIFIED FAMILY=noroute6 FUNCTION=inet6_csk_xmit WATCH=a
source "$(dirname "$0")/../lib.sh"
setup() {	# B's MLD reports would be NOT_SPECIFIED in A too (ip6_mc_input)
	in_b nft -f - <<'NFT'
table inet wdlab {
	chain output { type filter hook output priority 0; icmpv6 type { mld-listener-report, mld2-listener-report } drop; }
}
NFT
}
trigger() {
	bg_py srv b tcp-server 6 8080 --read
	expect_counter "mib a Ip6OutNoRoutes"
	in_a "$PY" - "$B6" <<'PY'
import socket, struct, sys, time, subprocess
c = socket.create_connection((sys.argv[1], 8080))
c.sendall(b"before")
time.sleep(0.2)
subprocess.run(["ip", "-6", "route", "flush", "dev", "vA"], check=True)
for _ in range(3):
    c.send(b"x" * 100)
    time.sleep(0.3)
c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
c.close()
time.sleep(0.2)
PY
}
lab_main
