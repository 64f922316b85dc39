#!/usr/bin/env bash
# record --tcp on the real kernel: resets (sent and received) and
# retransmissions written into the pcapng file beside the drops, as
# packets of a second interface that read never counts as drops. Per case
# (two namespaces A and B, tests/system/tcp_events_peer.py making each
# reset reason): read --json's resets sent by reason = the sender's
# TcpOutRsts delta, received = the peer application's own resets (and
# TcpEstabResets); a transfer through an nft rule dropping a tenth of B's
# input: A's retransmitted segments = A's TcpRetransSegs delta, B's drops
# with and without --tcp = the rule's counter; tshark reads the file and
# counts its RST packets = the resets read counts; read --lines prints them.
#   tests/system/tcp_record.sh [WHYDROP]
# Prints "N passed, N failed[, N skipped]".
. "$(dirname "$0")/../lib/part.sh"
. tests/lib/tcp_pair.sh
tcp_pair_begin tests/system/tcp_record r

# rd NAME [ARGS...]: read --json of NAME's file into NAME.json
rd() {
	local name=$1
	shift
	"$W" read --json "$TMP/$name.pcapng" "$@" >"$TMP/$name.json" 2>"$TMP/$name.rerr" ||
		fail "$name: read --json exits 0" "$(head -c 600 "$TMP/$name.rerr")"
}


# tshark_rst NAME: RST packets tshark reads in the file ("err" if it fails)
tshark_rst() {
	tshark -r "$TMP/$1.pcapng" -Y 'tcp.flags.reset == 1' -T fields -e frame.number \
		2>"$TMP/$1.tshark" | wc -l
	[ -s "$TMP/$1.tshark" ] && grep -qiv "running as user" "$TMP/$1.tshark" && echo err
}

# trace NAME NS / trace_stop NAME: NS recorded with --tcp into NAME.pcapng
# (tests/lib/tcp_pair.sh's rst_round)
trace() { wd "$1" record --tcp --netns "$2" -w "$TMP/$1.pcapng"; }
trace_stop() { wd_stop "$1"; }

# rst_case NAME SENDER REASON STATE PEER_STATE SMODE CMODE: the server in
# B, the client in A, N connections on IPv4 then IPv6, each namespace
# recorded with --tcp; SENDER sends REASON in STATE, the peer receives
# them in PEER_STATE.
rst_case() {
	local name=$1 sl=$2 reason=$3 state=$4 pstate=$5 smode=$6 cmode=$7
	local pl snd_d rcv_d want=$((2 * N)) app=0 r sj pj rst
	if [ "$sl" = A ]; then pl=B snd_d=dA rcv_d=dB; else pl=A snd_d=dB rcv_d=dA; fi
	rst_round "$name" "$pl" "$smode" "$cmode" || return
	rd "$name.A"
	rd "$name.B"
	sj=$TMP/$name.$sl.json pj=$TMP/$name.$pl.json
	rst=$($snd_d TcpOutRsts)
	check "$name: read counts $(q "$sj" "rows('sent', '$reason', '$state')") resets $reason in $state = $want sent" \
		test "$(q "$sj" "rows('sent', '$reason', '$state')")" = "$want"
	check "$name: every reset sent in the file ($(q "$sj" "rows('sent')")) = the sender's TcpOutRsts (+$rst)" \
		test "$(q "$sj" "rows('sent')")" = "$rst" -a "$rst" -gt 0
	rst_received "$name" "$pstate" "$(q "$pj" "rows('received', 'none', '$pstate')")"
	for ns in A B; do
		local resets t
		resets=$(q "$TMP/$name.$ns.json" "rows()")
		t=$(tshark_rst "$name.$ns" | xargs)
		check "$name.$ns: tshark reads the file, $t RST packets = the resets read counts ($resets)" \
			test "$t" = "$resets"
	done
}

echo "-- resets sent with their reasons, and received"
rst_case no_socket B NO_SOCKET - SYN_SENT none refused
rst_case abort_on_close B TCP_ABORT_ON_CLOSE CLOSE ESTABLISHED abort_on_close send_wait
rst_case abort_on_linger A TCP_ABORT_ON_LINGER CLOSE CLOSE_WAIT hold linger2

echo "-- the resets are not drops, and read's filters"
# tshark's count of each interface's packets: the drops', and the TCP events'
ifpk() { tshark -r "$TMP/$1.pcapng" -Y "frame.interface_id == $2" -T fields -e frame.number 2>/dev/null | wc -l; }
# no_socket.B holds the NO_SOCKET drops of the SYNs and the resets answering them
check "no_socket.B: read's drops ($(q "$TMP/no_socket.B.json" "drops()"), $(q "$TMP/no_socket.B.json" "drops('NO_SOCKET')") NO_SOCKET) = tshark's packets of the drops' interface ($(ifpk no_socket.B 0)); resets = of whydrop-tcp ($(ifpk no_socket.B 1))" \
	test "$(q "$TMP/no_socket.B.json" "drops()")" = "$(ifpk no_socket.B 0)" -a \
	"$(q "$TMP/no_socket.B.json" "drops('NO_SOCKET')")" = $((2 * N)) -a \
	"$(ifpk no_socket.B 1)" = $((2 * N))
rd no_socket.B -r NO_SOCKET
check "read -r NO_SOCKET: -r is of drops, the resets stay ($(q "$TMP/no_socket.B.json" "rows()"))" \
	test "$(q "$TMP/no_socket.B.json" "rows()")" = $((2 * N))
rd no_socket.B "tcp src port 5001"
check "read 'tcp src port 5001': the expression applies to the synthesized headers: the $(q "$TMP/no_socket.B.json" "rows('sent')") resets, no drop" \
	test "$(q "$TMP/no_socket.B.json" "rows('sent')")" = $((2 * N)) -a \
	"$(q "$TMP/no_socket.B.json" "drops()")" = 0
rd no_socket.B --netns "$B"
check "read --netns $B (by its recorded name): the resets ($(q "$TMP/no_socket.B.json" "rows()")) and the NO_SOCKET drops ($(q "$TMP/no_socket.B.json" "drops('NO_SOCKET')")) stay" \
	test "$(q "$TMP/no_socket.B.json" "rows()")" = $((2 * N)) -a \
	"$(q "$TMP/no_socket.B.json" "drops('NO_SOCKET')")" = $((2 * N))
rd no_socket.B --netns 1
check "read --netns of another namespace: no reset, no drop" \
	test "$(q "$TMP/no_socket.B.json" "rows() + drops()")" = 0
"$W" read --lines "$TMP/no_socket.B.pcapng" >"$TMP/lines" 2>&1
check "read --lines: a 'TCP reset_sent NO_SOCKET' line per reset ($(grep -c ' TCP reset_sent NO_SOCKET ' "$TMP/lines"))" \
	test "$(grep -c ' TCP reset_sent NO_SOCKET ' "$TMP/lines")" = $((2 * N))
"$W" read --lines --json "$TMP/abort_on_close.A.pcapng" >"$TMP/lines.json" 2>&1
check "read --lines --json: a reset_received object per reset received ($(grep -c '"type": "reset_received"' "$TMP/lines.json"))" \
	test "$(grep -c '"type": "reset_received"' "$TMP/lines.json")" = $((2 * N))
check "the exit summary counts the TCP events written" \
	grep -q "^whydrop: $((2 * N)) TCP events (resets, retransmissions) written, 0 over --rate, 0 lost" \
	"$TMP/no_socket.B.err"
check "the statistics block says them (tcp_written=$((2 * N)))" \
	grep -aq "tcp_written=$((2 * N)) tcp_rate_limited=0 tcp_ring_full=0" "$TMP/no_socket.B.pcapng"

echo "-- records over --rate are counted, never silently missing"
wd rate.B record --tcp --rate 5 --netns "$B" -w "$TMP/rate.B.pcapng"
snap 0
ip netns exec "$A" "${PEER[@]}" client refused "$B4" 5009 40 >/dev/null 2>&1
sleep 0.3
snap 1
wd_stop rate.B
rd rate.B
w=$(sed -n 's/^whydrop: \([0-9]*\) TCP events\? (resets, retransmissions) written, \([0-9]*\) over --rate, \([0-9]*\) lost.*/\1 \2 \3/p' "$TMP/rate.B.err")
read -r tw trl trf <<<"${w:-0 0 0}"
check "--rate 5: $(q "$TMP/rate.B.json" "rows('sent')") resets in the file = $tw written; + $trl over --rate + $trf lost = B's TcpOutRsts (+$(dB TcpOutRsts))" \
	test -n "$w" -a "$(q "$TMP/rate.B.json" "rows('sent')")" = "$tw" -a "$trl" -gt 0 -a \
	"$((tw + trl + trf))" = "$(dB TcpOutRsts)"
check "--rate 5: the statistics block says them too" \
	grep -aq "tcp_written=$tw tcp_rate_limited=$trl tcp_ring_full=$trf" "$TMP/rate.B.pcapng"

echo "-- retransmissions: an nftables rule in B drops a tenth of B's input"
ip netns exec "$B" nft -f - <<NFT
table inet wdtcpr$$ {
	chain in {
		type filter hook input priority 0; policy accept;
		tcp dport 5001 numgen random mod 10 == 0 counter drop
	}
}
NFT
wd loss.A record --tcp --netns "$A" -w "$TMP/loss.A.pcapng"
wd loss.B record --tcp --netns "$B" -w "$TMP/loss.B.pcapng"
wd plain.B record --netns "$B" -w "$TMP/plain.B.pcapng"
snap 0
bulk "$B4" 5001 3000000
bulk "$B6" 5001 3000000
sleep 0.5
snap 1
wd_stop loss.A
wd_stop loss.B
wd_stop plain.B
dropped=$(ip netns exec "$B" nft list table inet "wdtcpr$$" | sed -n 's/.*counter packets \([0-9]*\).*/\1/p')
ip netns exec "$B" nft delete table inet "wdtcpr$$"
rd loss.A
rd loss.B
rd plain.B
rs=$(dA TcpRetransSegs)
"$W" read --lines --json "$TMP/loss.A.pcapng" >"$TMP/loss.lines" 2>&1
"$W" read --json "$TMP/loss.A.pcapng" "$TMP/loss.B.pcapng" >"$TMP/loss.AB.json" 2>"$TMP/loss.AB.err"
got=$(q "$TMP/loss.A.json" "sum(f['retransmits'] for f in d['flows'])")
check "loss: the rule dropped ($dropped) and A retransmitted (+$rs)" test "${dropped:-0}" -gt 0 -a "$rs" -gt 0
check "loss: A's file, its flows' retransmitted segments $got = A's TcpRetransSegs (+$rs)" \
	test "$got" = "$rs" -a "$(q "$TMP/loss.A.json" "d['tcp']['retransmits']")" = "$rs"
check "loss: an IPv4 and an IPv6 flow, from A's addresses ($(q "$TMP/loss.A.json" "sorted((f['src'], f['dst']) for f in d['flows'])"))" \
	test "$(q "$TMP/loss.A.json" "sorted(f['src'] for f in d['flows'] if f['dport'] == 5001)")" = "['$A4', '$A6']"
check "loss: A's file alone joins none of the rule's drops (in B) to its flows: $(q "$TMP/loss.A.json" "[(f['where'], f['reasons']) for f in d['flows']]")" \
	test "$(q "$TMP/loss.A.json" "all('NETFILTER_DROP' not in f['reasons'] for f in d['flows'])")" = True
F="[f for f in d['flows'] if f['src'] in ('$A4', '$A6') and f['dport'] == 5001]"
check "loss: A's and B's files read together, the flows' NETFILTER_DROP ($(q "$TMP/loss.AB.json" "sum(f['reasons'].get('NETFILTER_DROP', 0) for f in $F)")) = the rule's counter ($dropped)" \
	test "$(q "$TMP/loss.AB.json" "sum(f['reasons'].get('NETFILTER_DROP', 0) for f in $F)")" = "$dropped"
check "loss: B's NETFILTER_DROP with --tcp ($(q "$TMP/loss.B.json" "drops('NETFILTER_DROP')")) = without ($(q "$TMP/plain.B.json" "drops('NETFILTER_DROP')")) = the rule's counter ($dropped)" \
	test "$(q "$TMP/loss.B.json" "drops('NETFILTER_DROP')")" = "$dropped" -a \
	"$(q "$TMP/plain.B.json" "drops('NETFILTER_DROP')")" = "$dropped"
ev=$("$PY" -c 'import json, sys
L = [json.loads(x) for x in open(sys.argv[1]) if x.startswith("{")]
print(sum(1 for x in L if "type" in x))' "$TMP/loss.lines")
check "loss: A's file, read's drops ($(q "$TMP/loss.A.json" "drops()")) = tshark's packets of the drops' interface ($(ifpk loss.A 0)); TCP events ($ev) = of whydrop-tcp ($(ifpk loss.A 1))" \
	test "$(q "$TMP/loss.A.json" "drops()")" = "$(ifpk loss.A 0)" -a "$ev" = "$(ifpk loss.A 1)" -a "$ev" -gt 0
check "loss: read --lines, the retransmit lines add up to A's TcpRetransSegs (+$rs)" \
	test "$("$PY" -c 'import json, sys
L = [json.loads(x) for x in open(sys.argv[1]) if x.startswith("{")]
print(sum(x["segs"] for x in L if "retransmit" in x.get("type", "")))' "$TMP/loss.lines")" = "$rs"
t=$(tshark -r "$TMP/loss.A.pcapng" -q 2>&1 >/dev/null | grep -iv "running as user" | head -c 300)
check "loss: tshark reads A's file without an error" test -z "$t"

echo "-- read: a recording of 5,000 flows, each retransmitting, reset and dropped once"
# Each event is found by a hash and each flow joined to its drops by a sorted
# index; how read's time grows with the flows is bench/read_flows.sh's to show
# (docs/benchmark.md), not a timed check here. The timeout only stops a hang.
FLOWS=5000
"$PY" tests/lib/tcp_flows_pcapng.py "$FLOWS" "$TMP/flows.pcapng"
timeout 300 "$W" read --json "$TMP/flows.pcapng" >"$TMP/flows.json" 2>"$TMP/flows.err"
rc=$?
check "flows: read --json of $FLOWS flows exits 0 (exit $rc: $(head -c 200 "$TMP/flows.err"))" test "$rc" = 0
# tshark's count: retransmitted packets and their distinct flows, resets, drops
ts=$(tshark -r "$TMP/flows.pcapng" -T fields -e frame.interface_id -e tcp.flags.reset \
	-e ip.src -e tcp.srcport -e ip.dst 2>/dev/null | awk '
	$2 == "1" || $2 == "True" { if ($1 == 1) rst++; next }
	$1 == 1 { seg++; f[$3 " " $4 " " $5] = 1; next }
	{ drop++ }
	END { print seg + 0, length(f), rst + 0, drop + 0 }')
got=$([ "$rc" = 0 ] && q "$TMP/flows.json" "' '.join(map(str, (sum(f['retransmits'] for f in d['flows']), len(d['flows']), rows('sent'), sum(f['dropped_here'] for f in d['flows']))))")
check "flows: read's segments, flows, resets sent, drops joined to flows ($got) = tshark's ($ts)" \
	test -n "$got" -a "$got" = "$ts" -a "$ts" = "$FLOWS $FLOWS $FLOWS $FLOWS"

summary
