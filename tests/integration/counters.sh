#!/usr/bin/env bash
# whydrop's counts next to the kernel's own counters, on the real kernel:
#  - a full accept queue: TcpExtListenOverflows moves with no kfree_skb event;
#    whydrop reports the exact delta and flags it as drops with no traced reason,
#    and its headline (text) and counters_untraced (JSON) count them
#  - a UDP receive-buffer flood (IPv4 and IPv6): traced SOCKET_RCVBUFF equals
#    the Udp(6)RcvbufErrors delta, nothing unexplained
#  - a tbf qdisc with a small limit on a veth: traced QDISC_DROP equals the
#    qdisc's own drop counter (`tc -s qdisc`) and whydrop's qdisc:drops, which
#    names the device, the qdisc's kind and handle as tc does
#  - a per-CPU backlog overflow in a namespace, watched host-wide: traced
#    CPU_BACKLOG (any namespace) equals the global softnet "dropped" delta
#  - --counters-only as an unprivileged user (no BPF at all)
#  - count --fail-on: a namespace takes a known number of NO_SOCKET drops (its
#    UdpNoPorts moves by as many); a threshold just below exits 3 and names
#    NO_SOCKET with its cause (text and JSON), one just above exits 0
#  - counters that cannot be read: counting goes on, counters_error says why
# Usage: tests/integration/counters.sh [BINARY]; prints "N passed, N failed".
# WD_TEST_NO_HOST_SYSCTL=1 skips the one part that changes a host-wide sysctl
# (netdev_max_backlog, for a moment).
. "$(dirname "$0")/../lib/part.sh"
W=$(realpath "${1:-build/whydrop}")
NS=wdcnt-$$-a
NS2=wdcnt-$$-b
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all)
harness_begin tests/integration/counters "$NS" "$NS2"
chmod 755 "$TMP"

for n in "$NS" "$NS2"; do
	ip netns exec "$n" sysctl -qw net.ipv4.tcp_syncookies=0
done

# start NAME ARGS...: harness_start (tests/lib/harness.sh), then a moment for
# whydrop's first sample of the counters.
start() {
	harness_start "$@" || return 1
	sleep 0.5
}

# mib NS NAME: one counter of /proc/net/{snmp,netstat,snmp6}, nstat spelling.
mib() {
	ip netns exec "$1" cat /proc/net/snmp /proc/net/netstat /proc/net/snmp6 | $PY -c '
import sys
want, lines, vals = sys.argv[1], sys.stdin.read().splitlines(), {}
for i, l in enumerate(lines):
    f = l.split()
    if len(f) == 2 and not l.endswith(":"):
        vals[f[0]] = int(f[1]) if f[1].isdigit() else 0
    elif i + 1 < len(lines) and f and f[0].endswith(":") and lines[i + 1].split()[:1] == f[:1] \
         and not f[1].lstrip("-").isdigit():
        p = f[0][:-1]
        for k, v in zip(f[1:], lines[i + 1].split()[1:]):
            vals[p + k] = int(v)
print(vals.get(want, 0))' "$2"
}

# counter FILE NAME FIELD: a field of one entry of the "counters" array ("" if absent).
counter() {
	$PY -c 'import json,sys
d=json.load(open(sys.argv[1]))
c=[x for x in d.get("counters", []) if x["name"]==sys.argv[2]]
v=c[0].get(sys.argv[3], "") if c else ""
print(",".join(v) if isinstance(v, list) else str(v).lower() if isinstance(v, bool) else v)' "$@"
}

# reconciled FILE COUNTER WANT WHAT: COUNTER's delta in FILE = WANT (WHAT's
# delta), and reconciled: traced = WANT, nothing unexplained.
reconciled() {
	check "$2 delta = $4" test "$(counter "$1" "$2" delta)" = "$3"
	check "$2 reconciled: traced = delta, nothing unexplained" test \
		"$(counter "$1" "$2" traced)" = "$3" -a "$(counter "$1" "$2" unexplained)" = 0
}

# traced FILE REASON [FUNCTION-PREFIX]: traced drops of a reason.
traced() {
	$PY -c 'import json,sys
d=json.load(open(sys.argv[1])); r=sys.argv[2]; f=sys.argv[3] if len(sys.argv)>3 else ""
print(sum(x["count"] for x in d["drops"] if x.get("reason")==r and x["function"].startswith(f)))' "$@"
}

# qdisc_drops NS DEV: "dropped N" of the root qdisc, as tc prints it.
qdisc_drops() {
	tc -n "$1" -s qdisc show dev "$2" root | sed -n 's/.*dropped \([0-9]*\).*/\1/p' | head -n 1
}

# softnet_dropped: the "dropped" column of /proc/net/softnet_stat, all CPUs (hex).
softnet_dropped() {
	local sum=0 x
	for x in $(awk '{ print $2 }' /proc/net/softnet_stat); do sum=$((sum + 16#$x)); done
	echo "$sum"
}

echo "-- accept queue overflow: counted by the kernel, never traced"
start listen count --json --netns "$NS" || true
before=$(mib "$NS" TcpExtListenOverflows)
ip netns exec "$NS" $PY - <<'PYEOF'
import socket, time
srv = socket.socket()
srv.bind(("127.0.0.1", 8080))
srv.listen(1)                   # tiny backlog, and never accept()
cs = []
for _ in range(30):
    c = socket.socket()
    c.setblocking(False)
    try:
        c.connect(("127.0.0.1", 8080))
    except BlockingIOError:
        pass
    cs.append(c)
time.sleep(1.5)                 # SYN retransmits after 1 s overflow again
for c in cs:
    c.close()
srv.close()
PYEOF
after=$(mib "$NS" TcpExtListenOverflows)
stop "$LAST"
check "count: exit 0" test $? -eq 0
delta=$((after - before))
echo "   TcpExtListenOverflows +$delta (nstat); whydrop: $(counter "$TMP/listen.out" TcpExtListenOverflows delta)," \
	"traced $(counter "$TMP/listen.out" TcpExtListenOverflows traced)," \
	"unexplained $(counter "$TMP/listen.out" TcpExtListenOverflows unexplained)"
check "the SYNs overflowed the queue (delta $delta > 0)" test "$delta" -gt 0
check "whydrop reports the ListenOverflows delta exactly" \
	test "$(counter "$TMP/listen.out" TcpExtListenOverflows delta)" = "$delta"
check "matching reason is TCP_LISTEN_OVERFLOW" \
	test "$(counter "$TMP/listen.out" TcpExtListenOverflows reasons)" = TCP_LISTEN_OVERFLOW
check "traced equals the TCP_LISTEN_OVERFLOW drops in the table" \
	test "$(counter "$TMP/listen.out" TcpExtListenOverflows traced)" = \
	"$(traced "$TMP/listen.out" TCP_LISTEN_OVERFLOW)"
check "unexplained = delta - traced > 0 (drops with no traced reason)" test \
	"$(counter "$TMP/listen.out" TcpExtListenOverflows unexplained)" -eq \
	"$((delta - $(counter "$TMP/listen.out" TcpExtListenOverflows traced)))" -a \
	"$(counter "$TMP/listen.out" TcpExtListenOverflows unexplained)" -gt 0
check "the explanation names the accept queue" \
	grep -q '"explanation": "no kfree_skb event: the accept queue' "$TMP/listen.out"
check "TcpExtListenDrops shown as context only" \
	test "$(counter "$TMP/listen.out" TcpExtListenDrops reconciled)" = false
untraced=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1])).get("counters_untraced", "absent"))' \
	"$TMP/listen.out")
check "counters_untraced ($untraced) = ListenOverflows +$delta (nstat) - TCP_LISTEN_OVERFLOW traced" \
	test "$untraced" = "$((delta - $(traced "$TMP/listen.out" TCP_LISTEN_OVERFLOW)))"

echo "-- the same as a table: flagged in words, and counted in the headline"
start listent count --netns "$NS" || true
before=$(mib "$NS" TcpExtListenOverflows)
ip netns exec "$NS" $PY - <<'PYEOF'
import socket, time
srv = socket.socket(); srv.bind(("127.0.0.1", 8081)); srv.listen(0)
cs = [socket.socket() for _ in range(10)]
for c in cs:
    c.setblocking(False)
    try:
        c.connect(("127.0.0.1", 8081))
    except BlockingIOError:
        pass
time.sleep(0.3)
PYEOF
after=$(mib "$NS" TcpExtListenOverflows)
stop "$LAST"
delta=$((after - before))
echo "   TcpExtListenOverflows +$delta (nstat); headline: $(grep -E '^[0-9]+ (traced )?drops? in' "$TMP/listent.out")"
check "text: the headline counts the $delta drops only the counters saw" \
	grep -Eq "^0 traced drops in [0-9.]+ s, $delta more found by the kernel's counters" \
	"$TMP/listent.out"
check "text: 'Drops with no traced reason' + ListenOverflows line" \
	grep -Eq '^  TcpExtListenOverflows \+[0-9]+(, [0-9]+ traced, [0-9]+)?,? ?no kfree_skb event' \
	"$TMP/listent.out"
check "text: the hint points at ss -lnt" grep -q 'ss -lnt' "$TMP/listent.out"

echo "-- UDP receive buffer flood: SOCKET_RCVBUFF = Udp(6)RcvbufErrors"
start rcvbuf count --json --netns "$NS" || true
b4=$(mib "$NS" UdpRcvbufErrors) b6=$(mib "$NS" Udp6RcvbufErrors)
ip netns exec "$NS" $PY - <<'PYEOF'
import socket
for af, dst in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
    r = socket.socket(af, socket.SOCK_DGRAM)
    r.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1)   # the minimum; never read
    r.bind((dst, 9999))
    s = socket.socket(af, socket.SOCK_DGRAM)
    for _ in range(300):
        s.sendto(b"x" * 1000, (dst, 9999))
    s.close()
    r.close()
PYEOF
a4=$(mib "$NS" UdpRcvbufErrors) a6=$(mib "$NS" Udp6RcvbufErrors)
stop "$LAST"
d4=$((a4 - b4)) d6=$((a6 - b6))
echo "   UdpRcvbufErrors +$d4, Udp6RcvbufErrors +$d6 (nstat);" \
	"traced $(counter "$TMP/rcvbuf.out" UdpRcvbufErrors traced) / $(counter "$TMP/rcvbuf.out" Udp6RcvbufErrors traced)"
check "the flood overflowed both buffers" test "$d4" -gt 200 -a "$d6" -gt 200
check "UdpRcvbufErrors delta reported exactly" test "$(counter "$TMP/rcvbuf.out" UdpRcvbufErrors delta)" = "$d4"
check "IPv4: traced SOCKET_RCVBUFF = UdpRcvbufErrors delta" \
	test "$(counter "$TMP/rcvbuf.out" UdpRcvbufErrors traced)" = "$d4"
check "IPv4: nothing unexplained" test "$(counter "$TMP/rcvbuf.out" UdpRcvbufErrors unexplained)" = 0
check "Udp6RcvbufErrors delta reported exactly" test "$(counter "$TMP/rcvbuf.out" Udp6RcvbufErrors delta)" = "$d6"
check "IPv6: traced SOCKET_RCVBUFF = Udp6RcvbufErrors delta" \
	test "$(counter "$TMP/rcvbuf.out" Udp6RcvbufErrors traced)" = "$d6"
check "IPv6: nothing unexplained" test "$(counter "$TMP/rcvbuf.out" Udp6RcvbufErrors unexplained)" = 0
check "table total agrees: SOCKET_RCVBUFF = both deltas" \
	test "$(traced "$TMP/rcvbuf.out" SOCKET_RCVBUFF)" -eq $((d4 + d6))
check "no 'drops with no traced reason' in the document" \
	$PY -c 'import json,sys; d=json.load(open(sys.argv[1]))
sys.exit(any(c.get("unexplained", 0) for c in d["counters"]))' "$TMP/rcvbuf.out"

echo "-- tbf qdisc with a small limit: QDISC_DROP = the qdisc's own drops"
ip link add wdq$$a netns "$NS" type veth peer name wdq$$b netns "$NS2"
for n in "$NS" "$NS2"; do ip netns exec "$n" sysctl -qw net.ipv6.conf.all.disable_ipv6=1; done
ip -n "$NS" addr add 192.0.2.1/24 dev wdq$$a
ip -n "$NS2" addr add 192.0.2.2/24 dev wdq$$b
ip -n "$NS" link set wdq$$a up
ip -n "$NS2" link set wdq$$b up
mac=$(ip -n "$NS2" -o link show wdq$$b | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
ip -n "$NS" neigh replace 192.0.2.2 lladdr "$mac" dev wdq$$a nud permanent
tc -n "$NS" qdisc add dev wdq$$a root tbf rate 1mbit burst 1600 limit 3000
# as tc names it: "qdisc tbf 8001: root ..."
read -r qkind qhandle < <(tc -n "$NS" qdisc show dev wdq$$a root | awk '{ print $2, $3; exit }')
start qdisct count --netns "$NS" || true
QT=$LAST
start qdisc count --json --netns "$NS" || true
qb=$(qdisc_drops "$NS" wdq$$a)
ip netns exec "$NS" $PY - <<'PYEOF'
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(300):
    try:
        s.sendto(b"x" * 1000, ("192.0.2.2", 9))
    except OSError:
        pass            # ENOBUFS: the qdisc said no
PYEOF
sleep 1.5               # let tbf drain what it queued
qa=$(qdisc_drops "$NS" wdq$$a)
OURS=$(prog_ids "$LAST")
stop "$LAST"
stop "$QT"
qd=$((qa - qb))
echo "   tc -s qdisc: dropped +$qd; whydrop qdisc:drops +$(counter "$TMP/qdisc.out" qdisc:drops delta)," \
	"traced QDISC_DROP $(traced "$TMP/qdisc.out" QDISC_DROP)"
check "tbf dropped (delta $qd > 0)" test "$qd" -gt 0
check "traced QDISC_DROP = tc's dropped delta" test "$(traced "$TMP/qdisc.out" QDISC_DROP)" -eq "$qd"
reconciled "$TMP/qdisc.out" qdisc:drops "$qd" "tc's dropped delta"
devices=$($PY -c 'import json,sys
d = json.load(open(sys.argv[1]))
c = [x for x in d.get("counters", []) if x["name"] == "qdisc:drops"]
print(" ".join("%s/%s/%s/%d" % (v["device"], v["qdisc"], v["handle"], v["delta"])
               for v in (c[0].get("devices", []) if c else [])))' "$TMP/qdisc.out")
check "qdisc:drops names its device as tc does: wdq$$a/$qkind/$qhandle/$qd (got: $devices)" \
	test "$devices" = "wdq$$a/$qkind/$qhandle/$qd"
check "text: the qdisc's line names wdq$$a ($qkind $qhandle) +$qd" \
	grep -Eq "^ +$qd    on wdq$$a \($qkind $qhandle\)$" "$TMP/qdisct.out"

tc -n "$NS" qdisc del dev wdq$$a root
echo "-- per-CPU backlog overflow: CPU_BACKLOG = softnet_stat's dropped (global)"
# WD_TEST_NO_HOST_SYSCTL=1: skipped (while others share the host)
if [ -n "${WD_TEST_NO_HOST_SYSCTL:-}" ]; then
	skip "per-CPU backlog overflow" "WD_TEST_NO_HOST_SYSCTL set: it lowers the host's netdev_max_backlog"
else
# vB is the receiving end of the tbf test's veth pair. One UDP GSO send of 20
# segments is cut in software (gso_max_segs 1) and reaches the backlog inside
# one softirq-disabled section; with the host-wide limit at 4, 15 are dropped.
ip -n "$NS" link set wdq$$a gso_max_segs 1
start backlog count --json || true
sb=$(softnet_dropped)
rb=$(ip netns exec "$NS2" cat /sys/class/net/wdq$$b/statistics/rx_dropped)
sysctl_global net.core.netdev_max_backlog=4
ip netns exec "$NS" $PY - <<'PYEOF'
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_UDP, 103, 100)  # UDP_SEGMENT: 100-byte datagrams
for _ in range(3):
    s.sendto(b"x" * 2000, ("192.0.2.2", 9))
PYEOF
sysctl_restore
sleep 0.5
sa=$(softnet_dropped)
ra=$(ip netns exec "$NS2" cat /sys/class/net/wdq$$b/statistics/rx_dropped)
stop "$LAST"
sd=$((sa - sb)) rd=$((ra - rb))
echo "   softnet_stat dropped +$sd, vB rx_dropped +$rd; whydrop softnet:dropped" \
	"+$(counter "$TMP/backlog.out" softnet:dropped delta), traced CPU_BACKLOG" \
	"$(traced "$TMP/backlog.out" CPU_BACKLOG)"
check "the backlog overflowed (vB rx_dropped +$rd = 45)" test "$rd" -eq 45
check "traced CPU_BACKLOG (every namespace) = softnet_stat's dropped delta" \
	test "$(traced "$TMP/backlog.out" CPU_BACKLOG)" -eq "$sd"
reconciled "$TMP/backlog.out" softnet:dropped "$sd" "softnet_stat's"
fi

echo "-- count --fail-on: a crossed threshold exits 3 with the cause, else 0"
# udp_closed NS N: N datagrams to a port no socket has (NO_SOCKET in __udp4_lib_rcv)
udp_closed() {
	ip netns exec "$1" $PY -c 'import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(int(sys.argv[1])): s.sendto(b"x", ("127.0.0.1", 9))' "$2"
}
N=7
# check_run NAME FORMAT SPEC: count with --fail-on SPEC while N datagrams are refused;
# sets RC (its exit status) and DELTA (the namespace's UdpNoPorts delta)
check_run() {
	local name=$1 fmt=$2 spec=$3 before
	RC=none DELTA=0
	start "$name" count $fmt --netns "$NS" --fail-on "$spec" || return 1
	before=$(mib "$NS" UdpNoPorts)
	udp_closed "$NS" "$N"
	sleep 0.3
	DELTA=$(( $(mib "$NS" UdpNoPorts) - before ))
	stop "$LAST"
	RC=$?
}
check_run failjson --json "NO_SOCKET>$((N - 1)),NETFILTER_DROP>0"
echo "   UdpNoPorts +$DELTA (nstat); exit $RC"
check "--fail-on NO_SOCKET>$((N - 1)): the namespace took $N NO_SOCKET (UdpNoPorts +$DELTA)" \
	test "$DELTA" -eq "$N"
check "... exit status 3: the threshold was crossed" test "$RC" = 3
check "... whydrop's NO_SOCKET count = UdpNoPorts delta" \
	test "$(traced "$TMP/failjson.out" NO_SOCKET __udp4_lib_rcv)" = "$DELTA"
check "... the JSON check: NO_SOCKET>6 crossed with $N drops, NETFILTER_DROP>0 not; the cause said" \
	$PY - "$TMP/failjson.out" "$DELTA" <<'PYEOF'
import json, sys
d, n = json.load(open(sys.argv[1])), int(sys.argv[2])
c = d["check"]
t = {x["threshold"]: x for x in c["thresholds"]}
r = t["NO_SOCKET>6"]["reasons"][0]
cause = r["drops"][0]["cause"]
ok = (c["crossed"] and c["exit_status"] == 3 and c["fail_on"] == "NO_SOCKET>6,NETFILTER_DROP>0"
      and t["NO_SOCKET>6"]["crossed"] and t["NO_SOCKET>6"]["count"] == n
      and r["reason"] == "NO_SOCKET" and r["count"] == n
      and not t["NETFILTER_DROP>0"]["crossed"] and t["NETFILTER_DROP>0"]["count"] == 0
      and "no UDP socket" in cause["text"] and cause["confidence"] == "high"
      and "UdpNoPorts +%d, the same as these drops" % n in cause["evidence"])
sys.exit(not ok)
PYEOF
check "... stderr says which threshold was crossed" \
	grep -q "^whydrop count: --fail-on NO_SOCKET>6 crossed: $N drops" "$TMP/failjson.err"
check "... every drop row carries its cause: UdpNoPorts explained, the same count" \
	test "$(counter "$TMP/failjson.out" UdpNoPorts explained)" = true
check_run failtext "" "NO_SOCKET>=$N"
check "--fail-on NO_SOCKET>=$N (text): exit 3 with $N drops (UdpNoPorts +$DELTA)" \
	test "$RC" -eq 3 -a "$DELTA" -eq "$N"
check "... the text says it crossed, and the cause of the rows that crossed" \
	sh -c "grep -q '^Check --fail-on NO_SOCKET>=$N: crossed (exit status 3)\$' '$TMP/failtext.out' &&
		grep -q '^  NO_SOCKET>=$N: crossed, $N drops' '$TMP/failtext.out' &&
		grep -q 'high: UdpNoPorts +$N, the same as these drops' '$TMP/failtext.out'"
check_run failpass "" "NO_SOCKET>$N,NO_SOCKET>1000/s"
check "--fail-on NO_SOCKET>$N: exit 0 with $N drops (UdpNoPorts +$DELTA)" \
	test "$RC" -eq 0 -a "$DELTA" -eq "$N"
check "... the text says it passed, each threshold not crossed" \
	sh -c "grep -q '^Check --fail-on NO_SOCKET>$N,NO_SOCKET>1000/s: passed\$' '$TMP/failpass.out' &&
		grep -q '^  NO_SOCKET>$N: not crossed, $N drops' '$TMP/failpass.out'"

echo "-- --counters-only as an unprivileged user"
expect_run "nobody: count --counters-only -d 1 exits 0" 0 'Counters only' \
	"${NOBODY[@]}" "$W" count --counters-only -d 1
expect_run "nobody: top --counters-only -d 1.5 exits 0" 0 'Summary' \
	"${NOBODY[@]}" "$W" top --counters-only -d 1.5
# Inside the namespace (entered as root, then privileges dropped).
ip netns exec "$NS" "${NOBODY[@]}" "$W" count --counters-only --json -d 2 \
	>"$TMP/co.out" 2>"$TMP/co.err" &
co=$!
sleep 0.5
nb=$(mib "$NS" UdpNoPorts)
ip netns exec "$NS" $PY -c 'import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(77): s.sendto(b"x", ("127.0.0.1", 9))'
na=$(mib "$NS" UdpNoPorts)
wait $co
check "nobody: exit 0" test $? -eq 0
check "nobody: counters_only document" grep -q '"counters_only": true' "$TMP/co.out"
check "nobody: UdpNoPorts +$((na - nb)) reported exactly" \
	test "$(counter "$TMP/co.out" UdpNoPorts delta)" = "$((na - nb))" -a "$((na - nb))" -eq 77
check "nobody: nothing traced, so nothing claimed as unexplained" \
	test "$(counter "$TMP/co.out" UdpNoPorts unexplained)" = ""
check "nobody: no total or drops (unknown without tracing)" \
	$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit("total" in d or "drops" in d)' \
	"$TMP/co.out"
expect_run "nobody: --netns needs CAP_SYS_ADMIN, says so" 1 'needs root or CAP_SYS_ADMIN' \
	"${NOBODY[@]}" "$W" count --counters-only -d 1 --netns "$NS"
expect_run "nobody: tracing still refused with the usual message" 1 'needs root' \
	"${NOBODY[@]}" "$W" count -d 1
expect_run "--counters-only with -r is a usage error" 2 'does not apply' \
	"$W" count --counters-only -r NO_SOCKET
expect_run "--counters-only with watch is a usage error" 2 'applies to commands that show the kernel' \
	"$W" watch --counters-only
# The counters unreadable (an empty tmpfs over whydrop's own /proc/PID/task/TID/net, in a
# mount namespace of its own): counting goes on, and the document says why it has no counters.
unshare -m --propagation private sh -c \
	'mount -t tmpfs none "/proc/$$/task/$$/net" && exec "$0" count -d 60 --json --netns "$1"' \
	"$W" "$NS" >"$TMP/nocnt.out" 2>"$TMP/nocnt.err" &
nocnt=$!
PIDS+=("$nocnt")
if wait_attached "$TMP/nocnt.err"; then
	ip netns exec "$NS" $PY -c 'import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(5): s.sendto(b"x", ("127.0.0.1", 9))'
	sleep 0.3
fi
stop "$nocnt"
check "counters unreadable: exit 0, the counts still printed" test $? -eq 0
check "... stderr says why and that it goes on" \
	grep -q "cannot open the kernel's counters (/proc/net/snmp).*" "$TMP/nocnt.err"
check "... and 'going on without the kernel's counters'" \
	grep -q "going on without the kernel's counters" "$TMP/nocnt.err"
check "... the JSON says why in counters_error, and has no counters" $PY -c 'import json,sys
d = json.load(open(sys.argv[1]))
sys.exit("counters" in d or "/proc/net/snmp" not in d.get("counters_error", ""))' "$TMP/nocnt.out"
check "... the 5 NO_SOCKET drops counted" $PY -c 'import json,sys
d = json.load(open(sys.argv[1]))
n = sum(r["count"] for r in d.get("drops", []) if r.get("reason") == "NO_SOCKET")
sys.exit(n != 5)' "$TMP/nocnt.out"
check "the program of the last run was loaded (ids: ${OURS:-none})" test -n "$OURS"
# shellcheck disable=SC2086
check "and is gone after exit" progs_gone $OURS

summary
