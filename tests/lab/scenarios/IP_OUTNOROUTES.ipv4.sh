#!/bin/bash
# An established TCP connection whose route goes away: the sender's next segments (data,
# then the RST of an abortive close) find no route in ip_queue_xmit and are dropped.
# Expected: the sender namespace's IpOutNoRoutes (it moves with each of these drops).
REASON=IP_OUTNOROUTES FAMILY=ipv4 FUNCTION=__ip_queue_xmit WATCH=a
source "$(dirname "$0")/../lib.sh"
trigger() {
	bg_py srv b tcp-server 4 8080 --read
	expect_counter "mib a IpOutNoRoutes"
	in_a "$PY" - "$B4" <<'PY'
import socket, struct, sys, time, subprocess
c = socket.create_connection((sys.argv[1], 8080))
c.sendall(b"before")
time.sleep(0.2)
subprocess.run(["ip", "route", "flush", "dev", "vA"], check=True)
for _ in range(3):
    c.send(b"x" * 100)
    time.sleep(0.3)
c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
c.close()
time.sleep(0.2)
PY
}
lab_main
