#!/usr/bin/env bash
# count and top --group-by flow|src|dst on the real kernel: three UDP
# senders (5, 7 and 11 datagrams, one of them IPv6: 3 more) to a closed port
# and one TCP connection refused, all in a namespace of the test; every
# flow's row equals what its sender sent, the UDP rows add up to the
# namespace's UdpNoPorts + Udp6NoPorts, the TCP row to its TcpOutRsts;
# --max-groups folds the rest into "(other)"; without --group-by flow no
# per-flow program is loaded and the drop program is the same size.
#   tests/system/flows.sh [WHYDROP]
# Prints "N passed, N failed[, N skipped]".
. "$(dirname "$0")/../lib/part.sh"
NS=wdflows-$$
harness_begin tests/system/flows "$NS"
for a in 1 2 3 10; do ip -n "$NS" addr add "192.0.2.$a/24" dev lo; done
ip -n "$NS" addr add 2001:db8:30::1/64 dev lo nodad
ip -n "$NS" addr add 2001:db8:30::10/64 dev lo nodad

# q FILE EXPR: a Python expression on the JSON document d.
q() { "$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
# row FILE GROUP: the count of GROUP's NO_SOCKET row (0: none).
row() {
	"$PY" - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
print(sum(g["count"] for g in d.get("groups", [])
	  if g["group"] == sys.argv[2] and g["reason"] == "NO_SOCKET"))
EOF
}
mib() { ip netns exec "$NS" nstat -asz "$1" | awk -v k="$1" '$1 == k { print $2 }'; }
names() { for id in $(prog_ids "$1"); do bpftool prog show id "$id" | sed -n 's/^[0-9]*: [a-z_]* *name \([^ ]*\).*/\1/p'; done | sort | xargs; }
# xlated and jited bytes of the drop program (kfree_skb_btf/raw, not kfree_skb_tcp_*)
size() { for id in $(prog_ids "$1"); do bpftool prog show id "$id" | tr '\n' ' ' |
	sed -n 's/.* name kfree_skb_[br][a-z]* .*xlated \([0-9]*B\) *jited \([0-9]*B\).*/\1 \2/p'; done; }

echo "== usage"
expect_run "count --group-by host: read only" 2 "group-by host" "$W" count --group-by host -d 1
expect_run "count --group-by flow --source dropmon: refused" 2 "source bpf" \
	"$W" count --group-by flow --source dropmon -d 1

echo "== count and top --group-by flow, src, dst"
udp0=$(mib UdpNoPorts)
udp60=$(mib Udp6NoPorts)
rst0=$(mib TcpOutRsts)
start flow count --json --netns "$NS" --group-by flow || { summary; exit 1; }
FLOW=$LAST
start src count --json --netns "$NS" --group-by src || { summary; exit 1; }
SRC=$LAST
start dst count --json --netns "$NS" --group-by dst || { summary; exit 1; }
DST=$LAST
start other count --json --netns "$NS" --group-by flow --max-groups 2 || { summary; exit 1; }
OTHER=$LAST
start top top --json --netns "$NS" --group-by flow || { summary; exit 1; }
TOP=$LAST
start plain count --json --netns "$NS" || { summary; exit 1; }
PLAIN=$LAST
flow_names=$(names "$FLOW")
plain_names=$(names "$PLAIN")
flow_size=$(size "$FLOW")
plain_size=$(size "$PLAIN")
sent=$(ip netns exec "$NS" "$PY" - <<'EOF'
import socket
n = 0
for fam, src, dst, k in ((socket.AF_INET, "192.0.2.1", "192.0.2.10", 5),
			 (socket.AF_INET, "192.0.2.2", "192.0.2.10", 7),
			 (socket.AF_INET, "192.0.2.3", "192.0.2.10", 11),
			 (socket.AF_INET6, "2001:db8:30::1", "2001:db8:30::10", 3)):
	s = socket.socket(fam, socket.SOCK_DGRAM)
	s.bind((src, 40000))
	for _ in range(k):
		n += s.sendto(b"x", (dst, 9)) == 1
	s.close()
t = socket.socket()
t.bind(("192.0.2.1", 40001))
try:
	t.connect(("192.0.2.10", 10))
except ConnectionRefusedError:
	print(n, 1)
else:
	print(n, 0)
EOF
)
sleep 1.5	# a refresh of top's live table
for p in $FLOW $SRC $DST $OTHER $TOP $PLAIN; do stop "$p"; done
udp=$(($(mib UdpNoPorts) - udp0))
udp6=$(($(mib Udp6NoPorts) - udp60))
rst=$(($(mib TcpOutRsts) - rst0))
check "the senders sent 26 datagrams and one connection was refused ($sent)" test "$sent" = "26 1"
check "the namespace counted 23 + 3 UdpNoPorts, 1 TcpOutRsts ($udp + $udp6, $rst)" \
	test "$udp $udp6 $rst" = "23 3 1"
F=$TMP/flow.out
for spec in "udp 192.0.2.1:40000 > 192.0.2.10:9=5" "udp 192.0.2.2:40000 > 192.0.2.10:9=7" \
	    "udp 192.0.2.3:40000 > 192.0.2.10:9=11" "tcp 192.0.2.1:40001 > 192.0.2.10:10=$rst"; do
	g=${spec%=*}
	n=$(row "$F" "$g")
	check "count --group-by flow: '$g' $n = ${spec##*=}" test "$n" = "${spec##*=}"
done
g6=$(q "$F" "[g['group'] for g in d['groups'] if '2001:db8:30::1' in g['group']]")
n6=$(q "$F" "sum(g['count'] for g in d['groups'] if '2001:db8:30::1' in g['group'] and g['group'].startswith('udp '))")
check "count --group-by flow: the IPv6 flow $g6 $n6 = Udp6NoPorts $udp6" test "$n6" = "$udp6"
n=$(q "$F" "sum(g['count'] for g in d['groups'] if g['group'].startswith('udp '))")
check "count --group-by flow: the UDP rows $n = UdpNoPorts + Udp6NoPorts $((udp + udp6))" \
	test "$n" = "$((udp + udp6))"
n=$(q "$F" "len(d['groups'])")
check "count --group-by flow: 5 rows, no more ($n)" test "$n" = 5
n=$(q "$F" "d['group_by'] + ' ' + str(d.get('groups_lost', 0))")
check "count --group-by flow: group_by flow, none lost ($n)" test "$n" = "flow 0"
n=$(q "$F" "sum(g['count'] for g in d['groups']) == sum(r['count'] for r in d['drops'])")
check "count --group-by flow: the rows add up to the drops' total" test "$n" = True
S=$TMP/src.out
check "count --group-by src: 192.0.2.1 = 5 + 1 ($(row "$S" 192.0.2.1))" test "$(row "$S" 192.0.2.1)" = 6
check "count --group-by src: 192.0.2.2 = 7" test "$(row "$S" 192.0.2.2)" = 7
check "count --group-by src: 192.0.2.3 = 11" test "$(row "$S" 192.0.2.3)" = 11
check "count --group-by src: 2001:db8:30::1 = 3" test "$(row "$S" 2001:db8:30::1)" = 3
D=$TMP/dst.out
check "count --group-by dst: 192.0.2.10 = 23 + 1 ($(row "$D" 192.0.2.10))" test "$(row "$D" 192.0.2.10)" = 24
check "count --group-by dst: 2001:db8:30::10 = 3" test "$(row "$D" 2001:db8:30::10)" = 3
O=$TMP/other.out
n=$(q "$O" "[(g['group'], g['count']) for g in d['groups']]")
check "--max-groups 2: 11, 7, then (other) 5 + 3 + 1 ($n)" test \
	"$(q "$O" "[g['count'] for g in d['groups'] if g['group'] != '(other)'] + [sum(g['count'] for g in d['groups'] if g['group'] == '(other)')]")" = "[11, 7, 9]"
check "top --group-by flow: its live table shows the flows" \
	grep -q "11  udp 192.0.2.3:40000 > 192.0.2.10:9 *NO_SOCKET" "$TMP/top.err"
check "top --group-by flow: its summary the same 11" test "$(row "$TMP/top.out" "udp 192.0.2.3:40000 > 192.0.2.10:9")" = 11
check "with --group-by flow the per-flow program ($flow_names)" \
	grep -q kfree_skb_tcp <<<"$flow_names"
check "without it no per-flow program ($plain_names)" test -n "$plain_names" -a \
	"$(grep -c kfree_skb_tcp <<<"$plain_names")" = 0
check "the drop program the same size with --group-by flow ($flow_size) as without ($plain_size)" \
	test -n "$plain_size" -a "$plain_size" = "$flow_size"

echo "== a full per-flow hash: the rest said, never lost"
udp0=$(mib UdpNoPorts)
start full count --json --netns "$NS" --group-by flow || { summary; exit 1; }
FULL=$LAST
start fulltop top --json --netns "$NS" --group-by flow || { summary; exit 1; }
FULLTOP=$LAST
# 8300 flows (one datagram from each source port), 8192 keys in the hash
sent=$(ip netns exec "$NS" "$PY" - <<'EOF'
import socket
n = 0
for port in range(20000, 28300):
	s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
	s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
	s.bind(("192.0.2.1", port))
	n += s.sendto(b"x", ("192.0.2.10", 9)) == 1
	s.close()
print(n)
EOF
)
sleep 1.5	# a refresh of top's live table
stop "$FULL"
stop "$FULLTOP"
udp=$(($(mib UdpNoPorts) - udp0))
F=$TMP/full.out
check "8300 datagrams sent, 8300 UdpNoPorts ($sent, $udp)" test "$sent $udp" = "8300 8300"
n=$(q "$F" "d.get('groups_lost', 0)")
check "count: the 108 flows past the hash's 8192 said lost ($n)" test "$n" = 108
n=$(q "$F" "sum(g['count'] for g in d['groups']) + d.get('groups_lost', 0)")
check "count: the rows ((other) included) + lost $n = UdpNoPorts $udp" test "$n" = "$udp"
n=$(q "$F" "len(d['groups'])")
check "count: --max-groups 10 and (other): 11 rows ($n)" test "$n" = 11
check "top: its live table says the 108 not grouped" \
	grep -q "^108 drops not grouped: the per-flow map was full" "$TMP/fulltop.err"
summary
