#!/usr/bin/env bash
# whydrop --tcp on the real kernel, through the whydrop binary: every reset
# reason this kernel can be made to send (as tests/system/tcp_events.sh
# makes them, with tests/system/tcp_events_peer.py), counted by
# `whydrop count --tcp --json --netns` per reason and compared with the
# sender's TcpOutRsts and the reason's own counter; the resets received on
# the peer against the peer application's own errors (and TcpEstabResets);
# serve --tcp's whydrop_tcp_resets_total against TcpOutRsts; --tcp refused
# with --source dropmon; nothing of it loaded without --tcp; who: resets by
# the closing process (pid, comm) and the socket's cgroup in count's JSON and
# table, top and serve --per-cgroup, against the kernel's counters.
#   tests/system/tcp.sh [WHYDROP]
# Prints "N passed, N failed[, N skipped]".
. "$(dirname "$0")/../lib/part.sh"
. tests/lib/tcp_pair.sh
tcp_pair_begin tests/system/tcp w

# Nothing from another namespace in a --netns report.
check_isolated() {
	check "$1: only its own namespace's resets" test "$(q "$TMP/$1.json" \
		"sum(1 for r in d['resets'] if r.get('netns_cookie') != $2)")" = 0
}

# the cases of tests/lib/tcp_pair.sh through count --tcp --json --netns
trace() { wd "$1" count --tcp --json --netns "$2" "${@:3}"; }
trace_stop() { wd_stop "$1"; }
RST_TOTAL="d['tcp']['resets_sent']" RCVD_REASON="'none'"

echo "-- bad input"
expect_run "--tcp with --source dropmon: exit 2, saying to use --source bpf" 2 \
	"does not go with --source dropmon \(use --source bpf\)" "$W" count --tcp --source dropmon -d 1
expect_run "--tcp with --counters-only: exit 2" 2 "--tcp does not apply" \
	"$W" count --tcp --counters-only -d 1

echo "-- nothing of it loaded without --tcp"
wd plain count --json --netns "$A"
wd tcp count --tcp --json --netns "$A"
names() { for id in $(prog_ids "$1"); do bpftool prog show id "$id" | sed -n 's/^[0-9]*: [a-z_]* *name \([^ ]*\).*/\1/p'; done | sort | xargs; }
# xlated and jited bytes of the drop program (kfree_skb_*, not kfree_skb_tcp_*)
size() { for id in $(prog_ids "$1"); do bpftool prog show id "$id" | tr '\n' ' ' |
	sed -n 's/.* name kfree_skb_[br][a-z]* .*xlated \([0-9]*B\) *jited \([0-9]*B\).*/\1 \2/p'; done; }
plain_names=$(names "${BGPID[plain]}")
tcp_names=$(names "${BGPID[tcp]}")
plain_size=$(size "${BGPID[plain]}")
tcp_size=$(size "${BGPID[tcp]}")
wd_stop plain
wd_stop tcp
check "without --tcp no TCP program ($plain_names)" test -n "$plain_names" -a \
	"$(echo "$plain_names" | grep -c -E 'tcp|rst|retrans')" = 0
check "with --tcp its programs too ($tcp_names)" test "$(echo "$tcp_names" | tr ' ' '\n' | grep -c -E 'rst|retrans')" -ge 3
check "the drop program the same size with --tcp ($tcp_size) as without ($plain_size)" \
	test -n "$plain_size" -a "$plain_size" = "$tcp_size"
check "without --tcp no resets in the document" test "$(q "$TMP/plain.json" "'resets' in d or 'tcp' in d")" = False

echo "-- resets sent with their reasons, and received"
rst_cases

echo "-- INVALID_SYN and TCP_FLAGS (crafted SYNs, an ACK)"
wd invalid_syn count --tcp --json --netns "$B"
crafted_syns
sleep 1
snap 1
wd_stop invalid_syn
n=$(q "$TMP/invalid_syn.json" "rows('sent', 'INVALID_SYN', 'LISTEN', $COOKIE_B)")
check "invalid_syn: $n resets INVALID_SYN from the listener = $N = B's TcpExtEmbryonicRsts (+$(dB TcpExtEmbryonicRsts))" \
	test "$n" = "$N" -a "$n" = "$(dB TcpExtEmbryonicRsts)"
check "invalid_syn: every reset = B's TcpOutRsts (+$(dB TcpOutRsts))" \
	test "$(q "$TMP/invalid_syn.json" "rows('sent')")" = "$(dB TcpOutRsts)"
check "tcp_flags: a bare ACK to the listener, 1 reset TCP_FLAGS" \
	test "$(q "$TMP/invalid_syn.json" "rows('sent', 'TCP_FLAGS', 'LISTEN', $COOKIE_B)")" = 1

echo "-- TCP_KEEPALIVE_TIMEOUT: B goes silent under a keepalive of 1 s"
keepalive_case "wdtcpw$$"

echo "-- the table names them too"
# refused NAME N SECONDS ARGS...: whydrop ARGS while A makes N connections
# to a closed port of B, stopped SECONDS after
refused() {
	wd "$1" "${@:4}"
	ip netns exec "$A" "${PEER[@]}" client refused "$B4" 5009 "$2" >/dev/null 2>&1
	sleep "$3"
	wd_stop "$1"
}
refused table 4 0.3 count --tcp --netns "$B"
check "count --tcp's table: a resets section with 4 NO_SOCKET sent" \
	grep -Eq '^ +4  sent +NO_SOCKET ' "$TMP/table.json"

echo "-- top --tcp: a live section"
refused top 3 1.5 top --tcp --netns "$B"
check "top --tcp: a refresh says 'TCP resets: 3 sent' and names NO_SOCKET" \
	grep -q "^TCP resets: 3 sent, 0 received: sent NO_SOCKET 3" "$TMP/top.json"

echo "-- serve --tcp: whydrop_tcp_resets_total{reason,direction}"
wd serve serve --tcp --netns "$B" --listen 127.0.0.1:0
poll_until 10 grep -q "listening on" "$TMP/serve.err"
port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/metrics.*|\1|p' "$TMP/serve.err" | head -1)
snap 0
ip netns exec "$A" "${PEER[@]}" client refused "$B4" 5009 7 >/dev/null 2>&1
sleep 0.3
snap 1
curl -s "http://127.0.0.1:$port/metrics" >"$TMP/metrics"
wd_stop serve
got=$(sed -n 's/^whydrop_tcp_resets_total{reason="NO_SOCKET",direction="sent"} //p' "$TMP/metrics")
all=$(awk '/^whydrop_tcp_resets_total\{.*direction="sent"/ { s += $2 } END { print s + 0 }' "$TMP/metrics")
check "serve: NO_SOCKET sent ${got:-none} = every reset sent ($all) = B's TcpOutRsts (+$(dB TcpOutRsts))" \
	test "${got:-x}" = "$(dB TcpOutRsts)" -a "$all" = "$(dB TcpOutRsts)" -a "$all" = 7
check "serve: the received ones on A are not in B's view" \
	test "$(grep -c 'direction="received"' "$TMP/metrics")" = 0

# --------------------------------------------- loss placed here or beyond

# fl FILE FIELD: the field of the flow from A to B's port 5001 (A's socket).
fl() {
	q "$1" "[f['$2'] for f in d['flows'] if f['netns_cookie'] == $COOKIE_A
		and f['src'] == '$A4' and f['dst'] == '$B4' and f['dport'] == 5001]"
}

# drop_tenth random|inc: an nftables table in B drops a tenth of the input
# to port 5001 (at random, or every 10th), counted; drop_tenth_end prints
# its counter and deletes the table.
drop_tenth() {
	ip netns exec "$B" nft -f - <<NFT
table inet wdtcpw$$ {
	chain in {
		type filter hook input priority 0; policy accept;
		tcp dport 5001 numgen $1 mod 10 == 0 counter drop
	}
}
NFT
}
drop_tenth_end() {
	ip netns exec "$B" nft list table inet "wdtcpw$$" |
		sed -n 's/.*counter packets \([0-9]*\).*/\1/p'
	ip netns exec "$B" nft delete table inet "wdtcpw$$"
}

echo "-- loss placed: an nftables rule in B drops a tenth of B's input (IPv4, IPv6)"
drop_tenth random
wd nft.host count --tcp --json
wd nft.A count --tcp --json --netns "$A"
wd nft.flow count --tcp --group-by flow --max-groups 10000 --json
snap 0
bulk "$B4" 5001 3000000
bulk "$B6" 5001 3000000
sleep 0.5
snap 1
wd_stop nft.A
wd_stop nft.host
wd_stop nft.flow
dropped=$(drop_tenth_end)
rs=$(dA TcpRetransSegs)
# fs FILE EXPR: over F, A's flows to B's port 5001 (IPv4 and IPv6)
fs() {
	q "$1" "(lambda F: $2)([f for f in d['flows'] if f['netns_cookie'] == $COOKIE_A
		and f['dst'] in ('$B4', '$B6') and f['dport'] == 5001])"
}
check "nft: the rule dropped packets ($dropped) and A retransmitted (+$rs)" \
	test "${dropped:-0}" -gt 0 -a "$rs" -gt 0
check "nft: an IPv4 and an IPv6 flow, from A's addresses" test "$(fs "$TMP/nft.host.json" \
	"sorted((f['family'], f['src']) for f in F) == [('ipv4', '$A4'), ('ipv6', '$A6')]")" = True
check "nft, seen from A (--netns): the flows' retransmits $(fs "$TMP/nft.A.json" "sum(f['retransmits'] for f in F)") = all of A's ($(q "$TMP/nft.A.json" "d['tcp']['retransmits']")) = A's TcpRetransSegs (+$rs)" \
	test "$(fs "$TMP/nft.A.json" "sum(f['retransmits'] for f in F)")" = "$rs" \
	-a "$(q "$TMP/nft.A.json" "d['tcp']['retransmits']")" = "$rs"
# The rule is in B: from A, none of it is here. A loaded machine may drop a
# packet of the flow inside A itself now and then (NOT_SPECIFIED): then that
# flow is "here and beyond", rightly, and the same drop is seen host-wide.
own_a=$(fs "$TMP/nft.A.json" "sum(f['dropped_here'] for f in F)")
check "nft, seen from A: no NETFILTER_DROP inside A, placed $(fs "$TMP/nft.A.json" "[f['where'] for f in F]") (A's own drops: $own_a)" \
	test "$(fs "$TMP/nft.A.json" "all(f['reasons'].get('NETFILTER_DROP', 0) == 0 and
		f['where'] == ('beyond' if f['dropped_here'] == 0 else 'here and beyond') for f in F)")" = True
check "nft, host-wide: the flows' retransmits $(fs "$TMP/nft.host.json" "sum(f['retransmits'] for f in F)") = A's TcpRetransSegs (+$rs)" \
	test "$(fs "$TMP/nft.host.json" "sum(f['retransmits'] for f in F)")" = "$rs"
# --tcp with --group-by flow: one per-flow map holds every IP drop, both count
# (host-wide: every group kept, other tests' drops would fill the default 10)
gf="sum(g['count'] for g in d['groups'] if g['reason'] == 'NETFILTER_DROP'
	and g['group'].startswith('tcp ') and g['group'].endswith(('> $B4:5001', '> [$B6]:5001')))"
check "nft, --tcp --group-by flow: the flows' retransmits $(fs "$TMP/nft.flow.json" "sum(f['retransmits'] for f in F)") = A's TcpRetransSegs (+$rs)" \
	test "$(fs "$TMP/nft.flow.json" "sum(f['retransmits'] for f in F)")" = "$rs"
check "nft, --tcp --group-by flow: their NETFILTER_DROP $(fs "$TMP/nft.flow.json" "sum(f['reasons'].get('NETFILTER_DROP', 0) for f in F)") and the flow groups' $(q "$TMP/nft.flow.json" "$gf") = the rule's counter ($dropped)" \
	test "$(fs "$TMP/nft.flow.json" "sum(f['reasons'].get('NETFILTER_DROP', 0) for f in F)")" = "${dropped:-x}" \
	-a "$(q "$TMP/nft.flow.json" "$gf")" = "${dropped:-x}" \
	-a "$(q "$TMP/nft.flow.json" "d.get('groups_lost', 0)")" = 0
# Other reasons are the kernel's own and shown, not asserted: A's (above), and
# B dropping a segment it already had (TCP_OLD_SEQUENCE: a spurious
# retransmission, as a loaded machine makes now and then).
check "nft, host-wide: their drops $(fs "$TMP/nft.host.json" "[f['reasons'] for f in F]"): NETFILTER_DROP = the rule's counter ($dropped)" \
	test "$(fs "$TMP/nft.host.json" "sum(f['reasons'].get('NETFILTER_DROP', 0) for f in F) == $dropped and
		sum(f['dropped_here'] for f in F) >= $dropped + $own_a")" = True
check "nft, host-wide: placed $(fs "$TMP/nft.host.json" "[f['where'] for f in F]") ($(fs "$TMP/nft.host.json" "[f['dropped_segments_here'] for f in F]") segments dropped here)" \
	test "$(fs "$TMP/nft.host.json" "all(f['where'] == 'here' for f in F)")" = True

echo "-- loss placed: a tbf qdisc drops on A's own veth"
ip netns exec "$A" tc qdisc add dev "$VA" root tbf rate 50mbit burst 16kb limit 20kb
wd tbf.A count --tcp --json --netns "$A"
snap 0
bulk "$B4" 5001 4000000
sleep 0.5
snap 1
wd_stop tbf.A
qdrops=$(ip netns exec "$A" tc -s qdisc show dev "$VA" | sed -n 's/.*dropped \([0-9]*\).*/\1/p' | head -1)
ip netns exec "$A" tc qdisc del dev "$VA" root
rs=$(dA TcpRetransSegs)
check "tbf: the qdisc dropped ($qdrops) and A retransmitted (+$rs)" \
	test "${qdrops:-0}" -gt 0 -a "$rs" -gt 0
check "tbf, seen from A: the flow's retransmits $(fl "$TMP/tbf.A.json" retransmits) = A's TcpRetransSegs (+$rs)" \
	test "$(fl "$TMP/tbf.A.json" retransmits)" = "[$rs]"
check "tbf, seen from A: count --json's tcp section reports retransmits_caught_up ($(q "$TMP/tbf.A.json" "d['tcp'].get('retransmits_caught_up')")), within retransmits" \
	test "$(q "$TMP/tbf.A.json" "type(d['tcp'].get('retransmits_caught_up')) is int and
		0 <= d['tcp']['retransmits_caught_up'] <= d['tcp']['retransmits']")" = True
# The kernel does not run the drop programs for a few of a tbf qdisc's drops
# on this machine (docs/tcp.md, "Calls the program never saw"): the flow's
# drops are compared with the drop program's own rows, and with the
# qdisc's counter they may only fall short of.
tq=$(q "$TMP/tbf.A.json" "sum(r['count'] for r in d['drops'] if r['reason'] == 'QDISC_DROP')")
fq=$(q "$TMP/tbf.A.json" "[f['reasons'].get('QDISC_DROP', 0) for f in d['flows'] if f['netns_cookie'] == $COOKIE_A and f['dst'] == '$B4' and f['dport'] == 5001]")
check "tbf, seen from A: its drops $(fl "$TMP/tbf.A.json" reasons): QDISC_DROP $fq = the drop table's QDISC_DROP ($tq), <= the qdisc's own count ($qdrops)" \
	test "$fq" = "[$tq]" -a "${tq:-0}" -gt 0 -a "${tq:-0}" -le "${qdrops:-0}"
check "tbf, seen from A: no other reason than QDISC_DROP (and NOT_SPECIFIED at tbf_enqueue)" \
	test "$(q "$TMP/tbf.A.json" "[set(f['reasons']) <= {'QDISC_DROP', 'NOT_SPECIFIED'} for f in d['flows'] if f['netns_cookie'] == $COOKIE_A and f['dport'] == 5001]")" = "[True]"
check "tbf, seen from A: placed $(fl "$TMP/tbf.A.json" where)" \
	test "$(fl "$TMP/tbf.A.json" where)" = "['here']"

echo "-- a socket's last retransmissions the program missed: counted at its close"
# The kernel now and then does not run the retransmit program (docs/tcp.md,
# "Calls the program never saw"); not on demand. A miss of 5 segments is
# simulated once the socket's data is all acknowledged (no retransmission
# follows): its total_retrans last seen, in the program's retrans_seen, is
# lowered by 5. Its close must count those 5 (sock:inet_sock_set_state).
# seen_map PID: the id of the retrans_seen map that whydrop process holds.
seen_map() {
	local id
	for id in $(sed -n 's/^map_id:[[:space:]]*//p' /proc/"$1"/fdinfo/* 2>/dev/null | sort -u); do
		bpftool map show id "$id" 2>/dev/null | grep -q " name retrans_seen " && echo "$id"
	done
}
ip netns exec "$A" tc qdisc add dev "$VA" root tbf rate 50mbit burst 16kb limit 20kb
wd miss.A count --tcp --json --netns "$A"
serve "$B" sink "$B4" 5001 1
snap 0
ip netns exec "$A" "$PY" -c 'import fcntl, os, socket, struct, sys, time
s = socket.create_connection((sys.argv[1], 5001))
s.sendall(b"x" * 3000000)
while struct.unpack("i", fcntl.ioctl(s, 0x5411, b"\0" * 4))[0]:	# SIOCOUTQ: unacknowledged
    time.sleep(0.05)
open(sys.argv[2], "w").close()
while not os.path.exists(sys.argv[3]):
    time.sleep(0.05)
s.close()' "$B4" "$TMP/miss.acked" "$TMP/miss.go" &
PIDS+=($!)
CLIENT=$!
poll_until 30 test -e "$TMP/miss.acked"
id=$(seen_map "${BGPID[miss.A]}")
entries=0
if [ -n "$id" ]; then
	# each entry's update: its key, its value lowered by 5 (little-endian)
	while read -r upd; do
		# shellcheck disable=SC2086 # "key hex .. value hex ..": words
		bpftool map update id "$id" $upd && entries=$((entries + 1))
	done < <(bpftool -j map dump id "$id" | "$PY" -c 'import json, sys
for e in json.load(sys.stdin):
    v = int.from_bytes(bytes(int(x, 16) for x in e["value"]), "little") - 5 & 0xffffffff
    print("key hex", " ".join(x[2:] for x in e["key"]), "value hex", v.to_bytes(4, "little").hex(" "))')
fi
touch "$TMP/miss.go"
wait "$CLIENT"
wait "$SERVER"
sleep 0.5
snap 1
wd_stop miss.A
ip netns exec "$A" tc qdisc del dev "$VA" root
rs=$(dA TcpRetransSegs)
check "miss: A retransmitted (+$rs); one socket in retrans_seen (map ${id:-none}: $entries), lowered by 5" \
	test "$rs" -gt 0 -a "$entries" = 1
check "miss: the flow's retransmits $(fl "$TMP/miss.A.json" retransmits) = A's TcpRetransSegs (+$rs) + the 5 simulated, counted at the close" \
	test "$(fl "$TMP/miss.A.json" retransmits)" = "[$((rs + 5))]"
check "miss: retransmits_caught_up $(q "$TMP/miss.A.json" "d['tcp']['retransmits_caught_up']") >= 5" \
	test "$(q "$TMP/miss.A.json" "d['tcp']['retransmits_caught_up'] >= 5")" = True

echo "-- watch --tcp: a line per retransmission, after the drop of its connection (every 10th packet to B dropped)"
drop_tenth inc
wd watch watch --tcp --json --rate 0 "tcp port 5001 and host $B4"
snap 0
bulk "$B4" 5001 4000000
sleep 0.5
snap 1
wd_stop watch
dropped=$(drop_tenth_end)
# wq EXPR: over the JSON lines of watch, L (list of objects)
wq() {
	"$PY" -c 'import json, sys
L = [json.loads(x) for x in open(sys.argv[1]) if x.startswith("{")]
R = [x for x in L if x.get("type") == "retransmit" and x["netns_cookie"] == int(sys.argv[3])
     and x["src"] == sys.argv[4] and x["dport"] == 5001]
# the drops of B (the rule is in B): watch is host-wide, other namespaces may use these ports
D = [x for x in L if x.get("reason") == "NETFILTER_DROP" and x.get("netns_cookie") == int(sys.argv[5])]
# the reasons of the other drop lines of the flow in A or B
O = {x["reason"] for x in L if x.get("type") in (None, "drop") and "reason" in x
     and x.get("netns_cookie") in (int(sys.argv[3]), int(sys.argv[5]))} - {"NETFILTER_DROP"}
print(eval(sys.argv[2]))' "$TMP/watch.json" "$1" "$COOKIE_A" "$A4" "$COOKIE_B"
}
rs=$(dA TcpRetransSegs)
check "watch: the flow's retransmit lines add up to $(wq 'sum(x["segs"] for x in R)') segments = A's TcpRetransSegs (+$rs)" \
	test "$(wq 'sum(x["segs"] for x in R)')" = "$rs" -a "$rs" -gt 0
check "watch: a drop line per packet the rule dropped in B ($(wq 'len(D)') = $dropped)" \
	test "$(wq 'len(D)')" = "$dropped"
# A loaded machine now and then drops a packet of the flow elsewhere too
# (NOT_SPECIFIED in A, TCP_OLD_SEQUENCE in B): a line may name such a drop,
# one watch itself printed in A or B, never a reason it did not show.
check "watch: $(wq 'sum(1 for x in R if x.get("after_drop", {}).get("reason") == "NETFILTER_DROP")') of $(wq 'len(R)') retransmit lines name the NETFILTER_DROP before them; the others a drop watch showed ($(wq 'sorted(O)'))" \
	test "$(wq 'sum(1 for x in R if x.get("after_drop", {}).get("reason") == "NETFILTER_DROP") > 0 and all(x["after_drop"]["reason"] in O | {"NETFILTER_DROP"} for x in R if "after_drop" in x)')" = True
check "watch: the summary counts its TCP records" grep -q "TCP records\? (resets, retransmissions) shown, 0 over --rate, 0 lost" "$TMP/watch.err"

echo "-- watch --tcp names who: the process whose close() reset (TCP_ABORT_ON_CLOSE)"
wd who watch --tcp --json --rate 0 --netns "$B"
snap 0
serve "$B" abort_on_close "$B4" 5001 "$N"
server_comm=$(cat "/proc/$SERVER/comm")
ip netns exec "$A" "${PEER[@]}" client send_wait "$B4" 5001 "$N" >"$TMP/client.out" 2>&1
wait "$SERVER"
sleep 0.3
snap 1
wd_stop who
# whq EXPR: over watch's reset lines R (sent, TCP_ABORT_ON_CLOSE)
whq() {
	"$PY" -c 'import json, sys
L = [json.loads(x) for x in open(sys.argv[1]) if x.startswith("{")]
R = [x for x in L if x.get("type") == "reset_sent" and x.get("reason") == "TCP_ABORT_ON_CLOSE"]
print(eval(sys.argv[2]))' "$TMP/who.json" "$1"
}
onclose=$(dB TcpExtTCPAbortOnClose)
check "who: $(whq 'len(R)') TCP_ABORT_ON_CLOSE lines = B's TcpExtTCPAbortOnClose (+$onclose)" \
	test "$(whq 'len(R)')" = "$onclose" -a "$onclose" = "$N"
check "who: each names the server's process $server_comm[$SERVER] ($(whq '[(x.get("socket", {}).get("comm"), x.get("socket", {}).get("pid")) for x in R]'))" \
	test "$(whq "all(x.get('socket', {}).get('pid') == $SERVER and x['socket'].get('comm') == '$server_comm' for x in R)")" = True
check "who: and its socket (an inode, state CLOSE)" \
	test "$(whq "all(x['socket'].get('ino', 0) > 0 and x['socket']['state'] == 'CLOSE' for x in R)")" = True


echo "-- who: resets counted per process (in its own context) and per socket cgroup"
CG_ROOT=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
CG_S=/wdtcpwho-$$.slice/server.scope CG_C=/wdtcpwho-$$.slice/client.scope
cleanup_cg() { rmdir "$CG_ROOT$CG_S" "$CG_ROOT$CG_C" "$CG_ROOT/wdtcpwho-$$.slice" 2>/dev/null; }
trap 'harness_end; cleanup_cg' EXIT
mkdir -p "$CG_ROOT$CG_S" "$CG_ROOT$CG_C"
# in_cg CGROUP CMD... &: CMD in the cgroup, joined before it makes a socket;
# it execs, so $! is CMD's pid (in the background only)
in_cg() { exec sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CG_ROOT$1" "${@:2}"; }
# a server of ours, in CG_S: "ready" once it listens; its pid in $1
serve_cg() {
	rm -f "$TMP/$1.out"
	in_cg "$CG_S" ip netns exec "$B" "${PEER[@]}" server "${@:2}" >"$TMP/$1.out" 2>&1 &
	eval "$1=$!"
	PIDS+=("$!")
	for _ in $(seq 50); do grep -qs ready "$TMP/$1.out" && return 0; sleep 0.1; done
	fail "server $2 ready" "$(cat "$TMP/$1.out")"
}
M=2
wd who.A count --tcp --json --netns "$A"
wd who.B count --tcp --json --netns "$B"
wd who.table count --tcp --netns "$B"
wd who.top top --tcp --netns "$B"
wd who.serve serve --tcp --per-cgroup --netns "$B" --listen 127.0.0.1:0
poll_until 10 grep -q "listening on" "$TMP/who.serve.err"
port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/metrics.*|\1|p' "$TMP/who.serve.err" | head -1)
snap 0
# N TCP_ABORT_ON_CLOSE from a server's close(); A's client receives them
serve_cg S1 abort_on_close "$B4" 5003 "$N"
in_cg "$CG_C" ip netns exec "$A" "${PEER[@]}" client send_wait "$B4" 5003 "$N" >"$TMP/c1.out" 2>&1 &
C1=$!
wait "$C1" "$S1"
# M TCP_ABORT_ON_LINGER from a client's close(); B's server receives them
serve_cg S2 hold "$B4" 5004 "$M"
in_cg "$CG_C" ip netns exec "$A" "${PEER[@]}" client linger2 "$B4" 5004 "$M" >"$TMP/c2.out" 2>&1 &
C2=$!
wait "$C2" "$S2"
# and one NO_SOCKET from B, which no socket and no task owns
ip netns exec "$A" "${PEER[@]}" client refused "$B4" 5009 1 >/dev/null 2>&1
sleep 1.2	# top refreshes each second
snap 1
curl -s "http://127.0.0.1:$port/metrics" >"$TMP/who.metrics"
for w in A B table top serve; do wd_stop "who.$w"; done
# rq NS EXPR: over who.NS's reset rows R, with who(r) its "who" ({} if none)
rq() {
	"$PY" -c 'import json, sys
R = json.load(open(sys.argv[1]))["resets"]
who = lambda r: r.get("who", {})
def n(direction, reason=None, f=lambda r: True):
    return sum(r["count"] for r in R if r["direction"] == direction
               and (reason is None or r["reason"] == reason) and f(r))
print(eval(sys.argv[2]))' "$TMP/who.$1.json" "$2"
}
on_close=$(rq B "n('sent', 'TCP_ABORT_ON_CLOSE', lambda r: who(r).get('pid') == $S1 and who(r).get('comm') == 'python3')")
check "who: $on_close TCP_ABORT_ON_CLOSE name the server python3[$S1] = B's TcpExtTCPAbortOnClose (+$(dB TcpExtTCPAbortOnClose)) = $N" \
	test "$on_close" = "$(dB TcpExtTCPAbortOnClose)" -a "$on_close" = "$N"
check "who: and its cgroup $CG_S ($(rq B "sorted(set(who(r).get('cgroup') for r in R if r['reason'] == 'TCP_ABORT_ON_CLOSE'))"))" \
	test "$(rq B "n('sent', 'TCP_ABORT_ON_CLOSE', lambda r: who(r).get('cgroup') == '$CG_S')")" = "$N"
on_linger=$(rq A "n('sent', 'TCP_ABORT_ON_LINGER', lambda r: who(r).get('pid') == $C2 and who(r).get('cgroup') == '$CG_C')")
check "who: $on_linger TCP_ABORT_ON_LINGER name the client python3[$C2] in $CG_C = A's TcpExtTCPAbortOnLinger (+$(dA TcpExtTCPAbortOnLinger)) = $M" \
	test "$on_linger" = "$(dA TcpExtTCPAbortOnLinger)" -a "$on_linger" = "$M"
check "who: the NO_SOCKET reset names no one ($(rq B "[r.get('who') for r in R if r['reason'] == 'NO_SOCKET']"))" \
	test "$(rq B "n('sent', 'NO_SOCKET', lambda r: 'who' not in r)")" = 1 \
	-a "$(rq B "n('sent', 'NO_SOCKET')")" = 1
for ns in A B; do
	check "who: $ns's rows sent add up to its TcpOutRsts (+$(d$ns TcpOutRsts)) and resets_sent" \
		test "$(rq $ns "n('sent')")" = "$(d$ns TcpOutRsts)" \
		-a "$(rq $ns "n('sent')")" = "$(q "$TMP/who.$ns.json" "d['tcp']['resets_sent']")"
done
rcv=$(rq A "n('received', None, lambda r: r['state'] == 'ESTABLISHED' and who(r).get('cgroup') == '$CG_C' and who(r).get('pid', $C1) == $C1)")
check "who: A received $rcv in ESTABLISHED in the client's cgroup, each the client's or no process = A's TcpEstabResets (+$(dA TcpEstabResets)) = $N" \
	test "$rcv" = "$(dA TcpEstabResets)" -a "$rcv" = "$N"
rcv=$(rq B "n('received', None, lambda r: who(r).get('cgroup') == '$CG_S' and who(r).get('pid', $S2) == $S2)")
check "who: B received $rcv in the server's cgroup, each the server's or no process = the server's own resets ($(app_resets "$TMP/S2.out")) = $M" \
	test "$rcv" = "$(rq B "n('received')")" -a "$rcv" = "$(app_resets "$TMP/S2.out")" -a "$rcv" = "$M"

# the table and top: WHO as drop rows name it, comm[pid], else the cgroup
check "who: count's table names python3[$S1] on its TCP_ABORT_ON_CLOSE row" \
	grep -Eq "^ +$N  sent +TCP_ABORT_ON_CLOSE +CLOSE +[0-9]+ +python3\[$S1\]\$" "$TMP/who.table.json"
check "who: and server.scope on the resets it received" \
	grep -Eq "^ +$M  received +none +CLOSE_WAIT +[0-9]+ +server\.scope\$" "$TMP/who.table.json"
check "who: top's section names python3[$S1]" \
	grep -q "sent TCP_ABORT_ON_CLOSE $N (python3\[$S1\])" "$TMP/who.top.json"
# serve --per-cgroup: a cgroup label, no pid
met() { sed -n "s/^whydrop_tcp_resets_total{reason=\"$1\",direction=\"$2\",cgroup=\"$3\"} //p" "$TMP/who.metrics"; }
got=$(met TCP_ABORT_ON_CLOSE sent server.scope)
check "who: serve --per-cgroup: TCP_ABORT_ON_CLOSE sent in cgroup server.scope ${got:-none} = B's TcpExtTCPAbortOnClose" \
	test "${got:-x}" = "$(dB TcpExtTCPAbortOnClose)"
got=$(met NO_SOCKET sent none)
check "who: serve: NO_SOCKET in cgroup \"none\" ${got:-none} = 1; received in server.scope $(met none received server.scope) = $M" \
	test "${got:-x}" = 1 -a "$(met none received server.scope)" = "$M"
all=$(awk '/^whydrop_tcp_resets_total\{.*direction="sent"/ { s += $2 } END { print s + 0 }' "$TMP/who.metrics")
check "who: serve: every reset sent ($all) = B's TcpOutRsts (+$(dB TcpOutRsts)), no pid label" \
	test "$all" = "$(dB TcpOutRsts)" -a "$(grep -c '^whydrop_tcp_resets_total{.*pid=' "$TMP/who.metrics")" = 0

summary
