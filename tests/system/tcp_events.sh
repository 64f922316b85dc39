#!/usr/bin/env bash
# TCP resets and retransmissions on the real kernel, through the reader
# src/core/tcp_events.c and its driver (tests/system/tcp_events_driver.c,
# built by `make all unit-bins` into build/system/, or `make asan`).
# Two namespaces joined by a veth, IPv4 and IPv6; every count is compared
# with the kernel's own: each reset reason this kernel can be made to send
# (NO_SOCKET, TCP_ABORT_ON_CLOSE, TCP_ABORT_ON_LINGER, TCP_STATE from
# SO_LINGER 0, TCP_ABORT_ON_DATA, TCP_TIMEWAIT_SOCKET, INVALID_SYN,
# TCP_FLAGS, TCP_KEEPALIVE_TIMEOUT) against the sender's TcpOutRsts and
# the reason's own counter, the resets received
# against the peer's TcpEstabResets and the peer application's errors;
# retransmitted segments against the sender's TcpRetransSegs, with an
# nftables rule dropping a tenth of the receiver's input, a tbf qdisc
# dropping on the sender's own veth, a route gone under a connection (calls
# that end before TcpRetransSegs), a flows hash of one entry (the rest in
# its overflow), and lost SYN-ACKs. Prints the programs' cost per event
# (bpf_stats, enabled host-wide only while measured; WD_TEST_NO_HOST_SYSCTL=1:
# not measured).
#   tests/system/tcp_events.sh [DRIVER]
# Prints "N passed, N failed[, N skipped]".
. "$(dirname "$0")/../lib/part.sh"
. tests/lib/tcp_pair.sh
DRV=${1:-build/system/tcp_events_driver}
if [ ! -x "$DRV" ]; then
	fail "$DRV is built" "make all unit-bins (or make asan) builds it"
	summary
	exit 1
fi
tcp_pair_begin tests/system/tcp_events e

# ------------------------------------------------------------------ helpers

# drv NAME ARGS...: the driver in the background until drv_stop NAME.
drv() { bg "$1" "$DRV" "${@:2}"; }
drv_stop() { bg_stop "$1"; }

# Only its own namespace in a filtered driver's report, and every record
# taken: emitted = the events counted, nothing rate-limited or lost.
check_isolated() {
	local name=$1 cookie=$2 other
	other=$(q "$TMP/$name.json" "sum(1 for r in d['resets'] if r['netns_cookie'] != $cookie)
		+ sum(1 for f in d['flows'] if f['netns_cookie'] != $cookie)")
	check "$name: nothing from outside its namespace" test "$other" = 0
	check "$name: a record of each event" test "$(q "$TMP/$name.json" \
		"s['emitted'] == s['rst_sent'] + s['rst_received'] + s['retrans_calls'] + s['synack'] and
		 d['records']['rst_sent'] == s['rst_sent'] and d['records']['retrans'] == s['retrans_calls']")" = True
}

# ------------------------------------------------------------ reset scenarios

# the cases of tests/lib/tcp_pair.sh through filtered drivers
trace() { drv "$1" --netns "/run/netns/$2" --rate 100000 "${@:3}"; }
trace_stop() { drv_stop "$1"; }
RST_TOTAL="rows('sent')" RCVD_REASON=None

echo "-- resets sent with their reasons, and received"
rst_cases
check "tp_btf flavour attached where it can" grep -q 'attached (tp_btf)' "$TMP/no_socket.A.err"
# the aborting socket runs tcp_reset() itself before it sends: a "received" one
check "abort_on_data: the aborting side's own tcp_reset() counted as received in FIN_WAIT2" \
	test "$(q "$TMP/abort_on_data.A.json" "rows('received', None, 'FIN_WAIT2', $COOKIE_A)")" = $((2 * N))
rst_case no_socket_raw_tp B NO_SOCKET - - SYN_SENT none refused --raw-tp
check "raw_tp flavour attached" grep -q 'attached (raw_tp)' "$TMP/no_socket_raw_tp.A.err"

# INVALID_SYN: a second SYN inside the window of a pending request, from an
# address nobody answers for (the SYN-ACK goes nowhere); IPv4 only.
echo "-- INVALID_SYN and TCP_FLAGS (crafted SYNs, an ACK)"
drv invalid_syn --netns "/run/netns/$B" --rate 100000 --records
crafted_syns
sleep 0.3
snap 1
drv_stop invalid_syn
n=$(q "$TMP/invalid_syn.json" "rows('sent', 'INVALID_SYN', 'LISTEN', $COOKIE_B)")
check "invalid_syn: $n resets INVALID_SYN from the listener = $N" test "$n" = "$N"
check "invalid_syn: every reset = B's TcpOutRsts (+$(dB TcpOutRsts)); INVALID_SYN = its TcpExtEmbryonicRsts (+$(dB TcpExtEmbryonicRsts))" \
	test "$(q "$TMP/invalid_syn.json" "rows('sent')")" = "$(dB TcpOutRsts)" \
	-a "$n" = "$(dB TcpExtEmbryonicRsts)"
check "tcp_flags: a bare ACK to the listener, 1 reset TCP_FLAGS from it" \
	test "$(q "$TMP/invalid_syn.json" "rows('sent', 'TCP_FLAGS', 'LISTEN', $COOKIE_B)")" = 1
check "invalid_syn: its records name the crafted flow, not the listener's" test "$(grep -c \
	"\"reason\": \"INVALID_SYN\".*\"src\": \"$B4\", \"sport\": 5002, \"dst\": \"198.51.100.3\", \"dport\": 4000" \
	"$TMP/invalid_syn.err")" = "$N"
check_isolated invalid_syn "$COOKIE_B"

echo "-- TCP_KEEPALIVE_TIMEOUT: B goes silent under a keepalive of 1 s"
keepalive_case "wdtcp$$"

# ------------------------------------------------------- retransmissions

# retrans_case NAME CLIENT_ARGS...: a transfer (or what the args say) from
# A to B with both filtered drivers; then A's and B's retransmitted
# segments (flows + overflow = all counted) against their TcpRetransSegs.
retrans_check() {
	local name=$1 ns=$2 cookie=$3 d=$4 got all
	got=$(q "$TMP/$name.$ns.json" "flows($cookie) + d['flows_overflow']")
	all=$(q "$TMP/$name.$ns.json" "s['retrans_segs']")
	check "$name: $ns's retransmitted segments, flows + overflow ($got) = all counted ($all) = its TcpRetransSegs (+$($d TcpRetransSegs); $(q "$TMP/$name.$ns.json" "s['retrans_caught_up']") caught up)" \
		test "$got" = "$all" -a "$all" = "$($d TcpRetransSegs)"
}

echo "-- retransmissions: an nftables rule drops a tenth of B's input"
ip netns exec "$B" nft -f - <<EOF
table inet wdtcp$$ {
	chain in {
		type filter hook input priority 0; policy accept;
		tcp dport { 5001, 5003 } numgen random mod 10 == 0 counter drop
	}
}
EOF
# bpf_stats is host-wide: WD_TEST_NO_HOST_SYSCTL=1 leaves it (no cost printed)
[ -z "${WD_TEST_NO_HOST_SYSCTL:-}" ] && sysctl_global kernel.bpf_stats_enabled=1
drv nft.A --netns "/run/netns/$A" --rate 100000
drv nft.B --netns "/run/netns/$B" --rate 100000
snap 0
bulk "$B4" 5001 4000000
bulk "$B6" 5001 4000000
# and resets, for their programs' cost: 200 SYNs to a closed port
ip netns exec "$A" "${PEER[@]}" client refused "$B4" 5009 200 >/dev/null 2>&1
sleep 0.5
snap 1
drv_stop nft.A
drv_stop nft.B
sysctl_restore
dropped=$(ip netns exec "$B" nft list table inet "wdtcp$$" | sed -n 's/.*counter packets \([0-9]*\).*/\1/p')
check "nft: the rule dropped packets ($dropped) and A retransmitted (+$(dA TcpRetransSegs))" \
	test "${dropped:-0}" -gt 0 -a "$(dA TcpRetransSegs)" -gt 0
retrans_check nft A "$COOKIE_A" dA
retrans_check nft B "$COOKIE_B" dB
check "nft: the IPv4 and the IPv6 flow to port 5001, from A's addresses" test "$(q "$TMP/nft.A.json" \
	"sorted((f['family'], f['src'], f['dst'], f['dport']) for f in d['flows']) ==
	 [('ipv4', '$A4', '$B4', 5001), ('ipv6', '$A6', '$B6', 5001)]")" = True
check_isolated nft.A "$COOKIE_A"
echo "   cost per event of one driver's programs, records on (bpf_stats): $(q "$TMP/nft.A.json" \
	"', '.join('%s %d runs %.0f ns' % (p['name'], p['run_cnt'], p['run_time_ns'] / p['run_cnt'])
	 for p in d['programs'] if p['run_cnt'])")"

echo "-- retransmissions: a flows hash of one entry, two flows"
drv ovf.A --netns "/run/netns/$A" --max-flows 1
snap 0
serve "$B" sink "$B4" 5003 1
ip netns exec "$A" "${PEER[@]}" client bulk "$B4" 5003 1 3000000 >"$TMP/client2.out" 2>&1 &
C2=$!
bulk "$B4" 5001 3000000
wait "$C2"
sleep 0.5
snap 1
drv_stop ovf.A
retrans_check ovf A "$COOKIE_A" dA
check "ovf: one flow kept, the other's segments in the overflow ($(q "$TMP/ovf.A.json" "d['flows_overflow']"))" \
	test "$(q "$TMP/ovf.A.json" "len(d['flows']) == 1 and d['flows_overflow'] > 0 and
		s['flow_overflow'] == d['flows_overflow']")" = True
ip netns exec "$B" nft delete table inet "wdtcp$$"

echo "-- retransmissions: a tbf qdisc drops on A's own veth"
ip netns exec "$A" tc qdisc add dev "$VA" root tbf rate 50mbit burst 16kb limit 20kb
drv tbf.A --netns "/run/netns/$A"
snap 0
bulk "$B4" 5001 4000000
sleep 0.5
snap 1
drv_stop tbf.A
ip netns exec "$A" tc qdisc del dev "$VA" root
qdrops=$(ip netns exec "$A" tc -s qdisc show dev "$VA" 2>/dev/null | sed -n 's/.*dropped \([0-9]*\).*/\1/p' | head -1)
retrans_check tbf A "$COOKIE_A" dA
echo "   tbf: $(q "$TMP/tbf.A.json" "s['retrans_failed']") retransmissions failed at the qdisc, counted (as the kernel does)$([ "$(q "$TMP/tbf.A.json" "d['retrans_err']")" = True ] || echo ': none seen, this kernel traces only those that went out')"

echo "-- retransmissions that end before TcpRetransSegs: A's route gone"
drv unroutable.A --netns "/run/netns/$A" --rate 100000
snap 0
serve "$B" sink "$B4" 5001 1
coproc CL { ip netns exec "$A" "${PEER[@]}" client stall "$B4" 5001 1 2>&1; }
read -r -t 5 line <&"${CL[0]}"
check "unroutable: the client connected" test "$line" = connected
ip netns exec "$B" nft -f - <<EOF
table inet wdtcp$$ {
	chain in { type filter hook input priority 0; tcp dport 5001 drop; }
}
EOF
echo go >&"${CL[1]}"
read -r -t 5 _ <&"${CL[0]}"	# sent, and dropped by B
ip -n "$A" route del "${B4%.*}.0/24" dev "$VA"
sleep 1.6	# retransmission timeouts: 0.2, 0.4, 0.8 s
echo close >&"${CL[1]}"
wait "$CL_PID" 2>/dev/null
kill "$SERVER" 2>/dev/null
wait "$SERVER" 2>/dev/null
sleep 0.3
snap 1
drv_stop unroutable.A
ip netns exec "$B" nft delete table inet "wdtcp$$"
ip -n "$A" route add "${B4%.*}.0/24" dev "$VA"
retrans_check unroutable A "$COOKIE_A" dA
if [ "$(q "$TMP/unroutable.A.json" "d['retrans_err']")" = True ]; then
	check "unroutable: calls ended before the counter ($(q "$TMP/unroutable.A.json" "s['retrans_skipped']")), none counted" \
		test "$(q "$TMP/unroutable.A.json" "s['retrans_skipped'] > 0 and d['records']['segs'] == s['retrans_segs']")" = True
else
	skip "unroutable: calls ended before the counter" "this kernel's tcp_retransmit_skb has no err (before 6.17)"
fi

echo "-- SYN and SYN-ACK retransmissions: A drops SYN-ACKs for 1.5 s"
serve "$B" sink "$B4" 5001 1
ip netns exec "$A" nft -f - <<EOF
table inet wdtcp$$ {
	chain in { type filter hook input priority 0; tcp flags & (syn | ack) == syn | ack drop; }
}
EOF
drv syn.A --netns "/run/netns/$A"
drv syn.B --netns "/run/netns/$B"
snap 0
ip netns exec "$A" "${PEER[@]}" client bulk "$B4" 5001 1 1000 >"$TMP/client.out" 2>&1 &
C=$!
sleep 1.5
ip netns exec "$A" nft delete table inet "wdtcp$$"
wait "$C"
wait "$SERVER"
sleep 0.3
snap 1
drv_stop syn.A
drv_stop syn.B
retrans_check syn A "$COOKIE_A" dA
retrans_check syn B "$COOKIE_B" dB
check "syn: B retransmitted SYN-ACKs ($(q "$TMP/syn.B.json" "s['synack']")), A its SYN (+$(dA TcpRetransSegs))" \
	test "$(q "$TMP/syn.B.json" "s['synack']")" -gt 0 -a "$(dA TcpRetransSegs)" -gt 0

echo "-- records over the budget are counted, never silently lost"
drv rate --netns "/run/netns/$B" --rate 2
ip netns exec "$A" "${PEER[@]}" client refused "$B4" 5001 40 >/dev/null 2>&1
drv_stop rate
check "rate: 40 resets, records shown + over the budget + lost = counted" test "$(q "$TMP/rate.json" \
	"s['rst_sent'] == 40 and s['emitted'] + s['rate_limited'] + s['ring_full'] == 40 and
	 s['rate_limited'] > 0 and d['records']['rst_sent'] == s['emitted']")" = True

echo "-- nothing left attached"
drv last --netns "/run/netns/$A"
ids=$(prog_ids "${BGPID[last]}")
drv_stop last
check "the driver's programs ($ids) are gone after it exits" test -n "$ids"
check "... from the kernel" progs_gone $ids

summary
